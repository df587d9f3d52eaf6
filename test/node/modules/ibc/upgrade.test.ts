/**
 * Client upgrades along the counterparty's upgrade path, with real ICS-23 proofs: chain B passes
 * an IBC UpgradeProposal (gov's MsgExecLegacyContent), which schedules the plan and commits the
 * zeroed upgraded client state at `upgradedIBCState/{plan height}/upgradedClient`; at the last
 * height before the plan B's BeginBlock commits the upgraded consensus state beside it. Chain A's
 * client of B, at B's last height, is upgraded with `abci_query /store/upgrade/key prove=true`
 * proofs of both (the ics23:iavl + ics23:simple ops as a MerkleProof). Wrong proofs and a
 * non-increasing height are refused with ibc-go's errors and change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema, DurationSchema, TimestampSchema, type Any } from '@bufbuild/protobuf/wkt';
import { CommitmentProofSchema } from '../../../../src/gen/cosmos/ics23/v1/proofs_pb.js';
import { MsgExecLegacyContentSchema } from '../../../../src/gen/cosmos/gov/v1/tx_pb.js';
import { PlanSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { UpgradeProposalSchema } from '../../../../src/gen/ibc/core/client/v1/client_pb.js';
import { QueryClientStateRequestSchema, QueryClientStateResponseSchema, QueryUpgradedClientStateRequestSchema, QueryUpgradedClientStateResponseSchema } from '../../../../src/gen/ibc/core/client/v1/query_pb.js';
import { MsgCreateClientSchema, MsgUpgradeClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MerkleProofSchema, MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema, FractionSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, signTx, startChain, testKey, type Chain } from '../../app/helpers.js';
import { UpgradeDriver } from '../../../helpers/upgradeDriver.js';
import { height, testClientState } from '../../../helpers/ibcHeaders.js';

const relayer = testKey('relayer');
const validator = testKey('validator');
const driver = new UpgradeDriver();
let chainA: Chain;
let chainB: Chain;
let sequence = 0n;
let planHeight = 0;
let lastAppHash: Uint8Array = new Uint8Array(0);

/** The client state B will have after the upgrade: chain-chosen fields only. */
const upgradedClient = create(ClientStateSchema, {
  chainId: 'chainb-2',
  unbondingPeriod: create(DurationSchema, { seconds: 1_814_400n }),
  latestHeight: height(2n, 1n),
  proofSpecs: testClientState('chainb-2', height(2n, 1n)).proofSpecs,
  upgradePath: ['upgrade', 'upgradedIBCState'],
});

async function proven(key: string): Promise<{ value: Uint8Array; proof: Uint8Array }> {
  const response = await chainB.app.query({ path: '/store/upgrade/key', data: new TextEncoder().encode(key), height: planHeight - 1, prove: true });
  expect(response.code).toBe(0);
  const ops = response.proofOps!.ops;
  expect(ops.map((op) => op.type)).toEqual(['ics23:iavl', 'ics23:simple']);
  const proof = create(MerkleProofSchema, { proofs: ops.map((op) => fromBinary(CommitmentProofSchema, op.data)) });
  return { value: response.value, proof: toBinary(MerkleProofSchema, proof) };
}

async function send(msg: Any) {
  const tx = signTx({ signer: relayer, msgs: [msg], sequence, accountNumber: 0n, fee: 20_000n, gas: 2_000_000n, chainId: 'chaina-1' });
  const result = (await chainA.block([tx])).txResults[0]!;
  sequence++;
  return result;
}

async function clientStateOnA(): Promise<ReturnType<typeof fromBinary<typeof ClientStateSchema>>> {
  const { value } = await abciQuery(chainA.app, '/ibc.core.client.v1.Query/ClientState', toBinary(QueryClientStateRequestSchema, create(QueryClientStateRequestSchema, { clientId: '07-tendermint-0' })), QueryClientStateResponseSchema);
  return fromBinary(ClientStateSchema, value!.clientState!.value);
}

beforeAll(async () => {
  chainB = await startChain(buildAppState({ accounts: [[validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN, chainId: 'chainb-1' }), {
    chainId: 'chainb-1',
    appOptions: { moduleSet: driver.moduleSet(1) },
  });
  await chainB.block([]);
  chainA = await startChain(buildAppState({ accounts: [[relayer, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN, chainId: 'chaina-1' }), { chainId: 'chaina-1' });
  await chainA.block([]);
});

afterAll(async () => {
  await chainA?.close();
  await chainB?.close();
});

describe('upgrading a client of chain B along B’s upgrade path', () => {
  test('B’s UpgradeProposal schedules the plan and commits the zeroed upgraded client; BeginBlock adds the consensus state', async () => {
    planHeight = chainB.height + 4;
    const custom = create(ClientStateSchema, { ...upgradedClient, trustLevel: create(FractionSchema, { numerator: 1n, denominator: 3n }) });
    driver.send((authority) =>
      anyPack(MsgExecLegacyContentSchema, create(MsgExecLegacyContentSchema, {
        authority,
        content: anyPack(UpgradeProposalSchema, create(UpgradeProposalSchema, {
          title: 'v2',
          description: 'chain B revision 2',
          plan: create(PlanSchema, { name: 'v2', height: BigInt(planHeight) }),
          upgradedClientState: anyPack(ClientStateSchema, custom),
        })),
      })),
    );
    await chainB.block([]);
    expect(driver.outcomes.at(-1)).toMatchObject({ error: undefined });
    const { value } = await abciQuery(chainB.app, '/ibc.core.client.v1.Query/UpgradedClientState', toBinary(QueryUpgradedClientStateRequestSchema, create(QueryUpgradedClientStateRequestSchema)), QueryUpgradedClientStateResponseSchema);
    // Stored without the client-chosen trust level.
    expect(fromBinary(ClientStateSchema, value!.upgradedClientState!.value).trustLevel).toBeUndefined();
    while (chainB.height < planHeight - 1) lastAppHash = (await chainB.block([])).appHash;
    const consensus = await proven(`upgradedIBCState/${planHeight}/upgradedConsState`);
    expect(fromBinary(AnySchema, consensus.value).typeUrl).toBe('/ibc.lightclients.tendermint.v1.ConsensusState');
  });

  test('A’s client of B at B’s last height upgrades with the proofs; refused proofs change nothing', async () => {
    // The client's latest height is the plan height, whose header carries B's app hash after planHeight − 1.
    const clientState = testClientState('chainb-1', height(1n, BigInt(planHeight)));
    const consensusState = create(ConsensusStateSchema, {
      timestamp: create(TimestampSchema, { seconds: BigInt(Math.floor(GENESIS_TIME.getTime() / 1000) - 60) }),
      root: create(MerkleRootSchema, { hash: new Uint8Array(lastAppHash) }),
      nextValidatorsHash: new Uint8Array(32).fill(3),
    });
    const created = await send(anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, { clientState: anyPack(ClientStateSchema, clientState), consensusState: anyPack(ConsensusStateSchema, consensusState), signer: relayer.bech32 })));
    expect([created.code, created.log]).toEqual([0, '']);

    const client = await proven(`upgradedIBCState/${planHeight}/upgradedClient`);
    const consensus = await proven(`upgradedIBCState/${planHeight}/upgradedConsState`);
    const upgrade = (proofClient: Uint8Array, proofConsensus: Uint8Array, clientAny: Any = fromBinary(AnySchema, client.value)) =>
      anyPack(MsgUpgradeClientSchema, create(MsgUpgradeClientSchema, {
        clientId: '07-tendermint-0',
        clientState: clientAny,
        consensusState: fromBinary(AnySchema, consensus.value),
        proofUpgradeClient: proofClient,
        proofUpgradeConsensusState: proofConsensus,
        signer: relayer.bech32,
      }));

    const swapped = await send(upgrade(consensus.proof, client.proof));
    expect([swapped.codespace, swapped.code]).toEqual(['commitment', 2]);
    expect(swapped.log).toContain('client state proof failed');
    const lower = await send(upgrade(client.proof, consensus.proof, anyPack(ClientStateSchema, create(ClientStateSchema, { ...upgradedClient, latestHeight: height(1n, 1n) }))));
    expect([lower.codespace, lower.code]).toEqual(['sdk', 26]);
    expect((await clientStateOnA()).chainId).toBe('chainb-1');

    const result = await send(upgrade(client.proof, consensus.proof));
    expect([result.code, result.log]).toEqual([0, '']);
    expect(result.events.find((e) => e.type === 'upgrade_client')?.attributes.map((a) => [a.key, a.value])).toEqual(
      expect.arrayContaining([['client_id', '07-tendermint-0'], ['client_type', '07-tendermint'], ['consensus_height', '2-1']]),
    );
    const upgraded = await clientStateOnA();
    expect(upgraded.chainId).toBe('chainb-2');
    expect(upgraded.latestHeight).toMatchObject({ revisionNumber: 2n, revisionHeight: 1n });
    // Client-chosen parameters stay those of the old client.
    expect(upgraded.trustLevel).toMatchObject({ numerator: 1n, denominator: 3n });
    expect(upgraded.trustingPeriod?.seconds).toBe(clientState.trustingPeriod!.seconds);
    expect(upgraded.unbondingPeriod?.seconds).toBe(1_814_400n);
  });
});
