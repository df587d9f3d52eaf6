/**
 * A relayer pays fee "auto": CosmJS simulates the tx and multiplies the gas used by 1.4. So the
 * simulated gas must be what delivering costs in the same state: the fee market's ante steps
 * (min gas price params read, block gas wanted recorded) are charged in simulate as in
 * DeliverTx, as Ethermint does — skipping them made IBC txs from @confio/relayer run out of gas.
 */
import { describe, expect, test } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { MsgCreateClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MerklePrefixSchema, MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { CounterpartySchema, VersionSchema } from '../../../../src/gen/ibc/core/connection/v1/connection_pb.js';
import { MsgConnectionOpenInitSchema } from '../../../../src/gen/ibc/core/connection/v1/tx_pb.js';
import { ClientStateSchema, ConsensusStateSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import '../../../../src/node/app/modules.js';
import { TOKEN, buildAppState, pack, signTx, startChain, testKey } from '../../app/helpers.js';
import { height, testClientState } from '../../../helpers/ibcHeaders.js';

describe('simulated gas of IBC messages equals delivered gas', () => {
  test('MsgCreateClient then MsgConnectionOpenInit from a plain secp256k1 key', async () => {
    const validator = testKey('val');
    const relayer = testKey('relayer', 'secp256k1');
    const chain = await startChain(buildAppState({ accounts: [[validator, 1000n * TOKEN], [relayer, 1000n * TOKEN]], validator, selfDelegation: 10n * TOKEN }));
    await chain.block([]);
    const accountNumber = 1n;
    let sequence = 0n;
    const run = async (msg: ReturnType<typeof pack>): Promise<void> => {
      const tx = (gas: bigint) => signTx({ signer: relayer, msgs: [msg], sequence, accountNumber, gas, fee: gas * 20_000_000_000n });
      const simulated = await chain.app.simulate(tx(2_000_000n));
      expect([simulated.ok, simulated.log]).toEqual([true, '']);
      const delivered = await chain.block([tx(2_000_000n)]);
      expect(delivered.txResults[0]!.code).toBe(0);
      expect(delivered.txResults[0]!.gasUsed).toBe(simulated.gasUsed);
      sequence++;
      // The next BeginBlock sweeps the fee collector: the simulation's state (CheckTx's, after the
      // commit) and the next delivery's then agree on its balance, the one state difference the
      // SDK leaves to the gas multiplier.
      await chain.block([]);
    };
    const now = BigInt(Math.floor(Date.now() / 1000));
    await run(pack(MsgCreateClientSchema, {
      clientState: anyPack(ClientStateSchema, testClientState('chainb-1', height(1n, 10n))),
      consensusState: anyPack(ConsensusStateSchema, create(ConsensusStateSchema, { timestamp: create(TimestampSchema, { seconds: now - 60n }), root: create(MerkleRootSchema, { hash: new Uint8Array(32).fill(1) }), nextValidatorsHash: new Uint8Array(32).fill(2) })),
      signer: relayer.bech32,
    }));
    await run(pack(MsgConnectionOpenInitSchema, {
      clientId: '07-tendermint-0',
      counterparty: create(CounterpartySchema, { clientId: '07-tendermint-0', connectionId: '', prefix: create(MerklePrefixSchema, { keyPrefix: new TextEncoder().encode('ibc') }) }),
      version: create(VersionSchema, { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }),
      delayPeriod: 0n,
      signer: relayer.bech32,
    }));
    await chain.close();
  });
});
