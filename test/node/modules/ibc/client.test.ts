/**
 * 02-client in the app (InitChain → FinalizeBlock → Commit): a relayer's MsgCreateClient of a
 * 07-tendermint client of chain B, MsgUpdateClient with B's signed headers (adjacent, then
 * non-adjacent across a validator-set change), the queries and events a relayer reads, a
 * conflicting header that freezes the client through MsgSubmitMisbehaviour, and each refused
 * message — ibc-go's codespace and code, and the store unchanged. Genesis export re-imports.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import {
  QueryClientParamsRequestSchema,
  QueryClientParamsResponseSchema,
  QueryClientStateRequestSchema,
  QueryClientStateResponseSchema,
  QueryClientStatesRequestSchema,
  QueryClientStatesResponseSchema,
  QueryClientStatusRequestSchema,
  QueryClientStatusResponseSchema,
  QueryConsensusStateHeightsRequestSchema,
  QueryConsensusStateHeightsResponseSchema,
  QueryConsensusStateRequestSchema,
  QueryConsensusStateResponseSchema,
  QueryConsensusStatesRequestSchema,
  QueryConsensusStatesResponseSchema,
} from '../../../../src/gen/ibc/core/client/v1/query_pb.js';
import { MsgCreateClientSchema, MsgSubmitMisbehaviourSchema, MsgUpdateClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema, MisbehaviourSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import type { ExecTxResult } from '../../../../src/node/abci/types.js';
import type { IbcKeeper } from '../../../../src/node/modules/ibc/module.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import { ClientUpdateProposalSchema } from '../../../../src/gen/ibc/core/client/v1/client_pb.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, signTx, startChain, testKey, type Chain } from '../../app/helpers.js';
import { consensusStateOf, height, ibcHeader, misbehaviour, signBlock, testClientState, testValidator, validatorSetOf, type TestValidator } from '../../../helpers/ibcHeaders.js';

const relayer = testKey('relayer');
const validator = testKey('validator');
const appState = buildAppState({ accounts: [[relayer, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });

const CHAIN_B = 'chainb-1';
const T0 = Math.floor(GENESIS_TIME.getTime() / 1000) - 3600;
const valsB = ['a', 'b', 'c', 'd'].map((seed) => testValidator(seed, 10n));
const setB = validatorSetOf(valsB);
const blockB = (h: number, signers: readonly TestValidator[] = valsB, validators = setB, nextValidators = validators, appHash?: Uint8Array) =>
  signBlock({ chainId: CHAIN_B, height: h, time: { seconds: T0 + h * 5, nanos: 0 }, validators, nextValidators, signers, ...(appHash ? { appHash } : {}) });

let chain: Chain;
let sequence = 0n;

async function send(msg: ReturnType<typeof anyPack>): Promise<ExecTxResult> {
  const tx = signTx({ signer: relayer, msgs: [msg], sequence, accountNumber: 0n, fee: 20_000n, gas: 2_000_000n });
  const response = await chain.block([tx]);
  const result = response.txResults[0]!;
  if (result.code === 0 || result.codespace !== 'sdk') sequence++;
  return result;
}

async function query<Req extends DescMessage, Res extends DescMessage>(method: string, req: Req, init: Record<string, unknown>, res: Res): Promise<{ code: number; log: string; value: MessageShape<Res> | undefined }> {
  const { response, value } = await abciQuery(chain.app, `/ibc.core.client.v1.Query/${method}`, toBinary(req, create(req, init as never)), res);
  return { code: response.code, log: response.log, value };
}

const status = async (clientId: string) => (await query('ClientStatus', QueryClientStatusRequestSchema, { clientId }, QueryClientStatusResponseSchema)).value?.status;
const heights = async (clientId: string) =>
  (await query('ConsensusStateHeights', QueryConsensusStateHeightsRequestSchema, { clientId }, QueryConsensusStateHeightsResponseSchema)).value!.consensusStateHeights.map((h) => `${h.revisionNumber}-${h.revisionHeight}`);

function createMsg(latest = 10) {
  const trusted = blockB(latest);
  return anyPack(
    MsgCreateClientSchema,
    create(MsgCreateClientSchema, {
      clientState: anyPack(ClientStateSchema, testClientState(CHAIN_B, height(1n, BigInt(latest)))),
      consensusState: anyPack(ConsensusStateSchema, consensusStateOf(trusted)),
      signer: relayer.bech32,
    }),
  );
}

function updateMsg(clientId: string, header: ReturnType<typeof ibcHeader>) {
  return anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId, header: anyPack(HeaderSchema, header), signer: relayer.bech32 }));
}

function attributes(result: ExecTxResult, type: string): Record<string, string> {
  const event = result.events.find((e) => e.type === type);
  if (event === undefined) throw new Error(`no ${type} event in ${JSON.stringify(result.events.map((e) => e.type))}`);
  return Object.fromEntries(event.attributes.map((a) => [a.key, a.value]));
}

beforeAll(async () => {
  chain = await startChain(appState);
  await chain.block([]);
});

afterAll(async () => {
  await chain.close();
});

describe('02-client with 07-tendermint in the app', () => {
  test('MsgCreateClient stores the client 07-tendermint-0 and says so in create_client', async () => {
    const result = await send(createMsg());
    expect([result.code, result.log]).toEqual([0, '']);
    expect(attributes(result, 'create_client')).toMatchObject({ client_id: '07-tendermint-0', client_type: '07-tendermint', consensus_height: '1-10' });
    expect(result.events.some((e) => e.type === 'message' && e.attributes.some((a) => a.key === 'module' && a.value === 'ibc_client'))).toBe(true);
    const state = await query('ClientState', QueryClientStateRequestSchema, { clientId: '07-tendermint-0' }, QueryClientStateResponseSchema);
    expect(state.value!.clientState!.typeUrl).toBe('/ibc.lightclients.tendermint.v1.ClientState');
    expect(state.value!.proofHeight).toMatchObject({ revisionNumber: 1n, revisionHeight: BigInt(chain.height) });
    expect(await status('07-tendermint-0')).toBe('Active');
    expect(await heights('07-tendermint-0')).toEqual(['1-10']);
    const params = await query('ClientParams', QueryClientParamsRequestSchema, {}, QueryClientParamsResponseSchema);
    expect(params.value!.params!.allowedClients).toEqual(['06-solomachine', '07-tendermint']);
  });

  test('MsgUpdateClient with the adjacent header adds consensus state 1-11 and emits update_client with the header', async () => {
    const header = ibcHeader(blockB(11), height(1n, 10n), setB);
    const result = await send(updateMsg('07-tendermint-0', header));
    expect([result.code, result.log]).toEqual([0, '']);
    const attrs = attributes(result, 'update_client');
    expect(attrs).toMatchObject({ client_id: '07-tendermint-0', client_type: '07-tendermint', consensus_height: '1-11' });
    expect(attrs['header']).toBe(Buffer.from(toBinary(AnySchema, anyPack(HeaderSchema, header))).toString('hex'));
    expect(await heights('07-tendermint-0')).toEqual(['1-10', '1-11']);
    const latest = await query('ConsensusState', QueryConsensusStateRequestSchema, { clientId: '07-tendermint-0', latestHeight: true }, QueryConsensusStateResponseSchema);
    expect(latest.value!.consensusState!.typeUrl).toBe('/ibc.lightclients.tendermint.v1.ConsensusState');
  });

  test('a non-adjacent header across a validator-set change that keeps over 1/3 of the trusted power is accepted', async () => {
    const next = [valsB[0]!, valsB[1]!, testValidator('e', 10n), testValidator('f', 10n)];
    const nextSet = validatorSetOf(next);
    const result = await send(updateMsg('07-tendermint-0', ibcHeader(blockB(20, next, nextSet), height(1n, 11n), setB)));
    expect([result.code, result.log]).toEqual([0, '']);
    expect(await heights('07-tendermint-0')).toEqual(['1-10', '1-11', '1-20']);
    const all = await query('ConsensusStates', QueryConsensusStatesRequestSchema, { clientId: '07-tendermint-0' }, QueryConsensusStatesResponseSchema);
    expect(all.value!.consensusStates.map((c) => c.height!.revisionHeight)).toEqual([10n, 11n, 20n]);
  });

  test.each([
    ['a header the trusted validators barely signed (trust level not met)', () => {
      const next = [valsB[0]!, testValidator('x', 10n), testValidator('y', 10n), testValidator('z', 10n)];
      return updateMsg('07-tendermint-0', ibcHeader(blockB(30, next, validatorSetOf(next)), height(1n, 11n), setB));
    }, 'client', 12, 'cant trust new val set'],
    ['a header signed by half of its validators', () => updateMsg('07-tendermint-0', ibcHeader(blockB(12, valsB.slice(0, 2)), height(1n, 11n), setB)), 'client', 12, 'insufficient voting power'],
    ['a header trusting a height the client has no state for', () => updateMsg('07-tendermint-0', ibcHeader(blockB(13), height(1n, 12n), setB)), 'client', 7, 'could not get consensus state from clientstore at TrustedHeight: 1-12'],
    ['an update of a client that does not exist', () => updateMsg('07-tendermint-9', ibcHeader(blockB(13), height(1n, 11n), setB)), 'client', 4, 'cannot update client with ID 07-tendermint-9'],
    ['a client id that is no identifier', () => updateMsg('x/y', ibcHeader(blockB(13), height(1n, 11n), setB)), 'host', 2, "cannot contain separator '/'"],
    ['a header from beyond the clock drift', () => {
      const future = signBlock({ chainId: CHAIN_B, height: 13, time: { seconds: Math.floor(GENESIS_TIME.getTime() / 1000) + 3600, nanos: 0 }, validators: setB, nextValidators: setB, signers: valsB });
      return updateMsg('07-tendermint-0', ibcHeader(future, height(1n, 11n), setB));
    }, 'client', 12, 'new header has a time from the future'],
    ['a client state with a trusting period not below the unbonding period', () =>
      anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
        clientState: anyPack(ClientStateSchema, testClientState(CHAIN_B, height(1n, 10n), { trustingPeriod: testClientState(CHAIN_B, height(1n, 10n)).unbondingPeriod })),
        consensusState: anyPack(ConsensusStateSchema, consensusStateOf(blockB(10))),
        signer: relayer.bech32,
      })), '07-tendermint', 3, 'should be < unbonding period'],
    ['a client state whose latest height has another revision than its chain id', () =>
      anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
        clientState: anyPack(ClientStateSchema, testClientState(CHAIN_B, height(2n, 10n))),
        consensusState: anyPack(ConsensusStateSchema, consensusStateOf(blockB(10))),
        signer: relayer.bech32,
      })), '07-tendermint', 5, 'latest height revision number must match chain id revision number (2 != 1)'],
  ])('refuses %s with ibc-go’s error and changes nothing', async (_name, build, codespace, code, text) => {
    const before = { heights: await heights('07-tendermint-0'), clients: (await query('ClientStates', QueryClientStatesRequestSchema, {}, QueryClientStatesResponseSchema)).value!.clientStates.length };
    const result = await send(build());
    expect([result.codespace, result.code]).toEqual([codespace, code]);
    expect(result.log).toContain(text);
    expect(await heights('07-tendermint-0')).toEqual(before.heights);
    expect((await query('ClientStates', QueryClientStatesRequestSchema, {}, QueryClientStatesResponseSchema)).value!.clientStates.length).toBe(before.clients);
  });

  test('queries of an unknown client answer NotFound; a bad client id InvalidArgument', async () => {
    const missing = await query('ClientState', QueryClientStateRequestSchema, { clientId: '07-tendermint-42' }, QueryClientStateResponseSchema);
    expect(missing.code).not.toBe(0);
    expect(missing.log).toContain('07-tendermint-42: light client not found');
    const bad = await query('ClientStatus', QueryClientStatusRequestSchema, { clientId: 'short' }, QueryClientStatusResponseSchema);
    expect(bad.code).not.toBe(0);
    expect(bad.log).toContain('has invalid length');
  });

  test('two signed headers for one height freeze the client (MsgSubmitMisbehaviour); it then refuses updates', async () => {
    // A second client of the same chain, so the first stays usable for the genesis test.
    expect((await send(createMsg())).code).toBe(0);
    const honest = ibcHeader(blockB(21, valsB, setB, setB), height(1n, 10n), setB);
    const forged = ibcHeader(blockB(21, valsB, setB, setB, new Uint8Array(32).fill(7)), height(1n, 10n), setB);
    const evidence = anyPack(MsgSubmitMisbehaviourSchema, create(MsgSubmitMisbehaviourSchema, { clientId: '07-tendermint-1', misbehaviour: anyPack(MisbehaviourSchema, misbehaviour(honest, forged)), signer: relayer.bech32 }));
    const result = await send(evidence);
    expect([result.code, result.log]).toEqual([0, '']);
    expect(attributes(result, 'client_misbehaviour')).toMatchObject({ client_id: '07-tendermint-1', client_type: '07-tendermint' });
    expect(await status('07-tendermint-1')).toBe('Frozen');
    const refused = await send(updateMsg('07-tendermint-1', ibcHeader(blockB(11), height(1n, 10n), setB)));
    expect([refused.codespace, refused.code]).toEqual(['client', 29]);
    expect(refused.log).toContain('cannot update client (07-tendermint-1) with status Frozen');
  });

  test('the same header twice is no misbehaviour; a header conflicting with a stored one freezes the client on update', async () => {
    expect((await send(createMsg())).code).toBe(0);
    expect((await send(updateMsg('07-tendermint-2', ibcHeader(blockB(11), height(1n, 10n), setB)))).code).toBe(0);
    expect((await send(updateMsg('07-tendermint-2', ibcHeader(blockB(11), height(1n, 10n), setB)))).code).toBe(0);
    expect(await status('07-tendermint-2')).toBe('Active');
    const conflicting = await send(updateMsg('07-tendermint-2', ibcHeader(blockB(11, valsB, setB, setB, new Uint8Array(32).fill(9)), height(1n, 10n), setB)));
    expect(conflicting.code).toBe(0);
    expect(attributes(conflicting, 'client_misbehaviour')).toMatchObject({ client_id: '07-tendermint-2', consensus_height: '1-11' });
    expect(await status('07-tendermint-2')).toBe('Frozen');
  });

  test('a misbehaviour of two identical headers is refused (client/13)', async () => {
    const header = ibcHeader(blockB(11), height(1n, 10n), setB);
    const result = await send(anyPack(MsgSubmitMisbehaviourSchema, create(MsgSubmitMisbehaviourSchema, { clientId: '07-tendermint-0', misbehaviour: anyPack(MisbehaviourSchema, misbehaviour(header, header)), signer: relayer.bech32 })));
    expect([result.codespace, result.code]).toEqual(['client', 13]);
    expect(result.log).toContain('headers block hashes are equal');
    expect(await status('07-tendermint-0')).toBe('Active');
  });

  test('a valid header earlier in time than a stored lower height freezes the client on update (time monotonicity)', async () => {
    expect((await send(createMsg())).code).toBe(0);
    expect((await send(updateMsg('07-tendermint-3', ibcHeader(blockB(20), height(1n, 10n), setB)))).code).toBe(0);
    // Height 25 but timed before height 20's consensus state: each header verifies, together they cannot both be honest.
    const early = signBlock({ chainId: CHAIN_B, height: 25, time: { seconds: T0 + 20 * 5 - 1, nanos: 0 }, validators: setB, nextValidators: setB, signers: valsB });
    const result = await send(updateMsg('07-tendermint-3', ibcHeader(early, height(1n, 10n), setB)));
    expect(result.code).toBe(0);
    expect(attributes(result, 'client_misbehaviour')).toMatchObject({ client_id: '07-tendermint-3', consensus_height: '1-25' });
    expect(await status('07-tendermint-3')).toBe('Frozen');
    expect(await heights('07-tendermint-3')).toEqual(['1-10', '1-20']);
  });

  test('MsgSubmitMisbehaviour with headers at two heights out of time order freezes; in time order it is refused', async () => {
    expect((await send(createMsg())).code).toBe(0);
    const lower = ibcHeader(blockB(14), height(1n, 10n), setB);
    const higherEarlier = ibcHeader(signBlock({ chainId: CHAIN_B, height: 16, time: { seconds: T0 + 14 * 5 - 1, nanos: 0 }, validators: setB, nextValidators: setB, signers: valsB }), height(1n, 10n), setB);
    const inOrder = ibcHeader(blockB(16), height(1n, 10n), setB);
    const submit = (h1: typeof lower, h2: typeof lower) =>
      anyPack(MsgSubmitMisbehaviourSchema, create(MsgSubmitMisbehaviourSchema, { clientId: '07-tendermint-4', misbehaviour: anyPack(MisbehaviourSchema, misbehaviour(h1, h2)), signer: relayer.bech32 }));
    const refused = await send(submit(inOrder, lower));
    expect([refused.codespace, refused.code]).toEqual(['client', 13]);
    expect(refused.log).toContain('headers are not at same height and are monotonically increasing');
    expect(await status('07-tendermint-4')).toBe('Active');
    const accepted = await send(submit(higherEarlier, lower));
    expect([accepted.code, accepted.log]).toEqual([0, '']);
    expect(await status('07-tendermint-4')).toBe('Frozen');
  });

  test('this chain’s own consensus state at a past height comes from staking’s historical info', async () => {
    const keeper = chain.app.manager.keeper<IbcKeeper>('ibc').clientKeeper;
    const { ctx } = chain.app.createQueryContext(0);
    const past = chain.height - 1;
    const own = keeper.getSelfConsensusState(ctx, height(1n, BigInt(past)));
    expect(own.timestamp!.seconds).toBe(BigInt(Math.floor(GENESIS_TIME.getTime() / 1000) + past));
    expect(own.nextValidatorsHash).toEqual(new Uint8Array(32));
    expect(() => keeper.getSelfConsensusState(ctx, height(2n, BigInt(past)))).toThrow('chainID revision number does not match height revision number: expected 1, got 2: invalid height');
    expect(() => keeper.getSelfConsensusState(ctx, height(1n, BigInt(chain.height + 50)))).toThrow(`no historical info found at height ${chain.height + 50}: not found`);
  });

  test('genesis export re-imports to the same clients, consensus states, metadata and sequence', async () => {
    const exported = (await exportAppState(chain.store)) as Record<string, any>;
    const ibc = exported['ibc'];
    expect(ibc.client_genesis.next_client_sequence).toBe('5');
    expect(ibc.client_genesis.clients.map((c: any) => c.client_id)).toEqual(['07-tendermint-0', '07-tendermint-1', '07-tendermint-2', '07-tendermint-3', '07-tendermint-4']);
    expect(ibc.client_genesis.clients_metadata[0].client_metadata.length).toBeGreaterThan(0);
    expect(ibc.connection_genesis.params.max_expected_time_per_block).toBe('30000000000');
    const second = await startChain({ ...appState, ibc });
    try {
      await second.block([]);
      const again = (await exportAppState(second.store)) as Record<string, any>;
      expect(again['ibc']).toEqual(ibc);
    } finally {
      await second.close();
    }
  });
});

describe('ClientUpdateProposal (v1beta1 content): a frozen client continues from an active substitute', () => {
  test('the frozen subject takes the substitute’s latest consensus state and height; an active subject is refused', async () => {
    // Substitute: a new client of chain B further ahead (1-30), Active.
    const created = await send(createMsg(30));
    expect(created.code).toBe(0);
    const substituteId = attributes(created, 'create_client')['client_id']!;
    const router = chain.app.manager.contentRouter;
    const keeper = chain.app.manager.keeper<IbcKeeper>('ibc').clientKeeper;
    const branch = chain.store.branch();
    const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(chain.app.currentChainId, chain.height + 1, new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000)) });
    const proposal = (subjectClientId: string) =>
      anyPack(ClientUpdateProposalSchema, create(ClientUpdateProposalSchema, { title: 'recover', description: 'frozen by misbehaviour', subjectClientId, substituteClientId: substituteId }));
    expect(keeper.getStatus(ctx, '07-tendermint-1')).toBe('Frozen');
    await router.execute(ctx, proposal('07-tendermint-1'));
    expect(keeper.getStatus(ctx, '07-tendermint-1')).toBe('Active');
    expect(keeper.getClientState(ctx, '07-tendermint-1')!.latestHeight).toMatchObject({ revisionNumber: 1n, revisionHeight: 30n });
    expect(keeper.getClientConsensusState(ctx, '07-tendermint-1', height(1n, 30n))).toBeDefined();
    await expect(router.execute(ctx, proposal('07-tendermint-0'))).rejects.toThrow('cannot update Active subject client: invalid update client proposal');
    const same = anyPack(ClientUpdateProposalSchema, create(ClientUpdateProposalSchema, { title: 't', description: 'd', subjectClientId: substituteId, substituteClientId: substituteId }));
    expect(() => router.validate(same)).toThrow('subject and substitute client identifiers are equal');
    branch.discard();
  });
});
