/**
 * A client of a real tokend chain: chain B is a full node (app + BFT engine, one validator) run
 * in-process; its headers, commits and validator sets come from B's block and state stores
 * exactly as a relayer reads them over RPC (`commit`, `validators`). Chain A (the app alone)
 * creates a 07-tendermint client of B and updates it with B's adjacent and non-adjacent headers;
 * the stored consensus states carry B's app hashes and times.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { QueryConsensusStateRequestSchema, QueryConsensusStateResponseSchema } from '../../../../src/gen/ibc/core/client/v1/query_pb.js';
import { MsgCreateClientSchema, MsgUpdateClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { CommitSchema, HeaderSchema as TmHeaderSchema, SignedHeaderSchema } from '../../../../src/gen/tendermint/types/types_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { encodeCommit, encodeHeader } from '../../../../src/node/consensus/types/block.js';
import type { ValidatorSet } from '../../../../src/node/consensus/types/validator.js';
import { TOKEN, abciQuery, buildAppState, signTx, startChain, testKey, type Chain } from '../../app/helpers.js';
import { CHAIN_ID, startFullNode, type FullNode } from '../../services/helpers.js';
import { height, protoValidatorSet, testClientState } from '../../../helpers/ibcHeaders.js';

const relayer = testKey('relayer');
const validator = testKey('validator');

let chainB: FullNode;
let chainA: Chain;
let sequence = 0n;

function validatorsAt(h: number): ValidatorSet {
  const set = chainB.consensus.stateStore.loadValidators(h);
  if (set === undefined) throw new Error(`no validators of chain B at ${h}`);
  return set;
}

/** What a relayer assembles from B's RPC for height h: signed header + validators, trusting `trusted`. */
function headerOfB(h: number, trusted: number) {
  const block = chainB.consensus.blockStore.loadBlock(h)!;
  const commit = chainB.consensus.blockStore.loadBlockCommit(h)!;
  return create(HeaderSchema, {
    signedHeader: create(SignedHeaderSchema, { header: fromBinary(TmHeaderSchema, encodeHeader(block.header)), commit: fromBinary(CommitSchema, encodeCommit(commit)) }),
    validatorSet: protoValidatorSet(validatorsAt(h)),
    trustedHeight: height(1n, BigInt(trusted)),
    trustedValidators: protoValidatorSet(validatorsAt(trusted + 1)),
  });
}

async function send(msg: ReturnType<typeof anyPack>) {
  const tx = signTx({ signer: relayer, msgs: [msg], sequence: sequence++, accountNumber: 0n, fee: 20_000n, gas: 2_000_000n, chainId: 'chaina-1' });
  // A's blocks carry the wall-clock time, so B's fresh headers are neither expired nor from the future.
  return (await chainA.block([tx], { time: new Date() })).txResults[0]!;
}

beforeAll(async () => {
  chainB = await startFullNode({ indexer: 'null' });
  chainA = await startChain(buildAppState({ accounts: [[relayer, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN, chainId: 'chaina-1' }), { chainId: 'chaina-1' });
  await chainA.block([], { time: new Date() });
  await chainB.waitForHeight(8);
});

afterAll(async () => {
  await chainB?.stop();
  await chainA?.close();
});

describe('a client on chain A of the real chain B', () => {
  test('created from B’s header 2, updated with header 3 (adjacent) and header 7 (non-adjacent)', async () => {
    expect(CHAIN_ID).toMatch(/-1$/);
    const header2 = chainB.consensus.blockStore.loadBlock(2)!.header;
    const create2 = anyPack(
      MsgCreateClientSchema,
      create(MsgCreateClientSchema, {
        clientState: anyPack(ClientStateSchema, testClientState(CHAIN_ID, height(1n, 2n), { maxClockDrift: create(DurationSchema, { seconds: 20n }) })),
        consensusState: anyPack(
          ConsensusStateSchema,
          create(ConsensusStateSchema, {
            timestamp: create(TimestampSchema, { seconds: BigInt(header2.time.seconds), nanos: header2.time.nanos }),
            root: create(MerkleRootSchema, { hash: header2.appHash }),
            nextValidatorsHash: header2.nextValidatorsHash,
          }),
        ),
        signer: relayer.bech32,
      }),
    );
    const created = await send(create2);
    expect([created.code, created.log]).toEqual([0, '']);

    for (const [target, trusted] of [[3, 2], [7, 3]] as const) {
      const update = anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId: '07-tendermint-0', header: anyPack(HeaderSchema, headerOfB(target, trusted)), signer: relayer.bech32 }));
      const result = await send(update);
      expect([target, result.code, result.log]).toEqual([target, 0, '']);
      const { value } = await abciQuery(
        chainA.app,
        '/ibc.core.client.v1.Query/ConsensusState',
        toBinary(QueryConsensusStateRequestSchema, create(QueryConsensusStateRequestSchema, { clientId: '07-tendermint-0', revisionNumber: 1n, revisionHeight: BigInt(target) })),
        QueryConsensusStateResponseSchema,
      );
      const stored = fromBinary(ConsensusStateSchema, value!.consensusState!.value);
      const block = chainB.consensus.blockStore.loadBlock(target)!;
      expect(Buffer.from(stored.root!.hash).toString('hex')).toBe(Buffer.from(block.header.appHash).toString('hex'));
      expect(stored.timestamp!.seconds).toBe(BigInt(block.header.time.seconds));
    }
  });

  test('a header of B whose commit was signed for another block is refused', async () => {
    const header = headerOfB(6, 3);
    header.signedHeader!.header!.appHash = new Uint8Array(32).fill(1);
    const result = await send(anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId: '07-tendermint-0', header: anyPack(HeaderSchema, header), signer: relayer.bech32 })));
    expect([result.codespace, result.code]).toEqual(['client', 12]);
    expect(result.log).toContain('commit signs block');
  });
});
