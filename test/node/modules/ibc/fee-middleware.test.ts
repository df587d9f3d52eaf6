/**
 * ICS-29 (module feeibc): the middleware over a recording inner IbcModule and Ics4Wrapper —
 * version negotiation (fee metadata, empty version, plain versions passed through, bad fee
 * versions), the incentivized acknowledgement on receive (sync and async), fee escrow by
 * MsgPayPacketFee(Async) with exact balances, distribution on acknowledgement (forward relayer,
 * reverse relayer or its payee, refunds) and on timeout, refunds on channel closure, the locked
 * module when the escrow is short, the messages' refusals, the queries, and genesis.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { PacketFeeSchema } from '../../../../src/gen/ibc/applications/fee/v1/fee_pb.js';
import * as q from '../../../../src/gen/ibc/applications/fee/v1/query_pb.js';
import { MsgPayPacketFeeAsyncSchema, MsgPayPacketFeeSchema, MsgRegisterCounterpartyPayeeSchema, MsgRegisterPayeeSchema } from '../../../../src/gen/ibc/applications/fee/v1/tx_pb.js';
import { CounterpartySchema, Order, PacketIdSchema, PacketSchema, type Packet } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import type { ExecTxResult } from '../../../../src/node/abci/types.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { validateFeeGenesis } from '../../../../src/node/modules/ibc/apps/fee/genesis.js';
import type { FeeKeeper } from '../../../../src/node/modules/ibc/apps/fee/keeper.js';
import { feeStoreKey } from '../../../../src/node/modules/ibc/apps/fee/keys.js';
import { feeModule } from '../../../../src/node/modules/ibc/apps/fee/module.js';
import { incentivizedAcknowledgementBytes, wrapWithFeeMiddleware } from '../../../../src/node/modules/ibc/apps/fee/middleware.js';
import type { Acknowledgement, Capability, IbcModule, Ics4Wrapper } from '../../../../src/node/modules/ibc/core/port/types.js';
import { defaultIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { accString, moduleAddress } from '../../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import { DENOM, GENESIS_TIME, TOKEN, abciQuery, buildAppState, signTx, startChain, testKey, type Chain } from '../../app/helpers.js';

const payer = testKey('fee-payer');
const relayer = testKey('fee-relayer');
const forward = testKey('fee-forward');
const reverse = testKey('fee-reverse');
const payee = testKey('fee-payee');
const FEE_MODULE = moduleAddress('feeibc');
const FEE_VERSION = '{"fee_version":"ics29-1","app_version":"ics20-1"}';
let chain: Chain;
// The payer signed the gentx: its next sequence is 1.
const sequences = new Map<string, bigint>([[payer.bech32, 1n]]);

const channel = (channelId: string, version: string) => ({
  state: 'STATE_OPEN',
  ordering: 'ORDER_UNORDERED',
  counterparty: { port_id: 'transfer', channel_id: 'channel-9' },
  connection_hops: ['connection-0'],
  version,
  port_id: 'transfer',
  channel_id: channelId,
});
const b64 = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const commitment = (channelId: string, sequence: string) => ({ port_id: 'transfer', channel_id: channelId, sequence, data: b64(Number(sequence)) });

beforeAll(async () => {
  const ibc = defaultIbcGenesis() as Record<string, any>;
  ibc['channel_genesis'] = {
    ...ibc['channel_genesis'],
    channels: [channel('channel-0', FEE_VERSION), channel('channel-1', 'ics20-1')],
    commitments: [commitment('channel-0', '3'), commitment('channel-0', '4'), commitment('channel-1', '1')],
    send_sequences: [
      { port_id: 'transfer', channel_id: 'channel-0', sequence: '5' },
      { port_id: 'transfer', channel_id: 'channel-1', sequence: '2' },
    ],
    next_channel_sequence: '2',
  };
  const feeibc = { fee_enabled_channels: [{ port_id: 'transfer', channel_id: 'channel-0' }] };
  chain = await startChain({ ...buildAppState({ accounts: [[payer, 1000n * TOKEN], [relayer, 10n * TOKEN]], validator: payer, selfDelegation: 100n * TOKEN }), ibc, feeibc });
  await chain.block([]);
});

afterAll(async () => {
  await chain?.close();
});

function branchCtx(): { ctx: Context; discard(): void } {
  const branch = chain.store.branch();
  const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(chain.app.currentChainId, chain.height + 1, new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000)) });
  return { ctx, discard: () => branch.discard() };
}

const feeKeeper = () => chain.app.manager.keeper<FeeKeeper>('feeibc');
const bank = () => chain.app.manager.keeper<{ getBalance(ctx: Context, address: Uint8Array, denom: string): bigint }>('bank');
const auth = () => chain.app.manager.keeper<{ getAccount(ctx: Context, address: Uint8Array): { accountNumber: bigint } | undefined }>('auth');
const balance = (ctx: Context, address: Uint8Array) => bank().getBalance(ctx, address, DENOM);

async function send(signer: typeof payer, msg: Any): Promise<ExecTxResult> {
  const { ctx, discard } = branchCtx();
  const accountNumber = auth().getAccount(ctx, signer.address)!.accountNumber;
  discard();
  const sequence = sequences.get(signer.bech32) ?? 0n;
  const tx = signTx({ signer, msgs: [msg], sequence, accountNumber, fee: 20_000n, gas: 400_000n });
  const result = (await chain.block([tx])).txResults[0]!;
  if (result.code === 0 || result.codespace !== 'sdk' || result.code === 10 || result.code === 18 || result.code === 4 || result.code === 7) sequences.set(signer.bech32, sequence + 1n);
  return result;
}

function attributes(result: ExecTxResult, type: string): Record<string, string> {
  const event = result.events.find((e) => e.type === type);
  if (event === undefined) throw new Error(`no ${type} event in ${JSON.stringify(result.events.map((e) => e.type))}`);
  return Object.fromEntries(event.attributes.map((a) => [a.key, a.value]));
}

async function query<Req extends DescMessage, Res extends DescMessage>(method: string, req: Req, init: Record<string, unknown>, res: Res): Promise<{ code: number; log: string; value: MessageShape<Res> | undefined }> {
  const { response, value } = await abciQuery(chain.app, `/ibc.applications.fee.v1.Query/${method}`, toBinary(req, create(req, init as never)), res);
  return { code: response.code, log: response.log, value };
}

const coins = (amount: bigint) => [{ denom: DENOM, amount: amount.toString() }];
const fee = (recv: bigint, ack: bigint, timeout: bigint) => ({ recvFee: recv === 0n ? [] : coins(recv), ackFee: ack === 0n ? [] : coins(ack), timeoutFee: timeout === 0n ? [] : coins(timeout) });
const payAsync = (channelId: string, sequence: bigint, f = fee(100n, 50n, 25n), refund = payer.bech32, relayers: string[] = []) =>
  anyPack(MsgPayPacketFeeAsyncSchema, create(MsgPayPacketFeeAsyncSchema, { packetId: { portId: 'transfer', channelId, sequence }, packetFee: { fee: f, refundAddress: refund, relayers } }));
const packet = (sequence: bigint, sourceChannel = 'channel-0'): Packet =>
  create(PacketSchema, { sequence, sourcePort: 'transfer', sourceChannel, destinationPort: 'transfer', destinationChannel: 'channel-9', data: new TextEncoder().encode('{}') });
const recvPacket = (sequence: bigint, destinationChannel = 'channel-0'): Packet =>
  create(PacketSchema, { sequence, sourcePort: 'transfer', sourceChannel: 'channel-9', destinationPort: 'transfer', destinationChannel, data: new TextEncoder().encode('{}') });

/** An application and a channel keeper that record what reaches them. */
function recording(options: { ack?: Acknowledgement | undefined; versions?: Record<string, string> } = {}) {
  const calls: unknown[][] = [];
  const app: IbcModule = {
    onChanOpenInit: (_ctx, _o, _h, _p, _c, _cap, _cp, version) => (calls.push(['init', version]), version === '' ? 'ics20-1' : version),
    onChanOpenTry: (_ctx, _o, _h, _p, _c, _cap, _cp, version) => (calls.push(['try', version]), version),
    onChanOpenAck: (_ctx, _p, _c, _cc, version) => void calls.push(['ack', version]),
    onChanOpenConfirm: () => void calls.push(['confirm']),
    onChanCloseInit: (_ctx, _p, channelId) => void calls.push(['closeInit', channelId]),
    onChanCloseConfirm: (_ctx, _p, channelId) => void calls.push(['closeConfirm', channelId]),
    onRecvPacket: (_ctx, p, r) => (calls.push(['recv', p.sequence, r]), 'ack' in options ? options.ack : { success: true, bytes: new TextEncoder().encode('{"result":"AQ=="}') }),
    onAcknowledgementPacket: (_ctx, p, ack, r) => void calls.push(['ackPacket', p.sequence, new TextDecoder().decode(ack), r]),
    onTimeoutPacket: (_ctx, p, r) => void calls.push(['timeout', p.sequence, r]),
  };
  const ics4: Ics4Wrapper = {
    sendPacket: (_ctx, _cap, port, channelId) => (calls.push(['send', port, channelId]), 7n),
    writeAcknowledgement: (_ctx, _cap, p, ack) => void calls.push(['write', p.sequence, ack.success, new TextDecoder().decode(ack.bytes)]),
    getAppVersion: (_ctx, _port, channelId) => options.versions?.[channelId],
  };
  return { calls, ...wrapWithFeeMiddleware(app, ics4, feeKeeper()) };
}

const cap: Capability = { index: 1n };
const counterparty = create(CounterpartySchema, { portId: 'transfer', channelId: '' });

describe('version negotiation', () => {
  test('OnChanOpenInit: fee metadata and an empty version enable fees around the app version; plain versions pass through', () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const keeper = feeKeeper();
    expect(ibcModule.onChanOpenInit(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-5', cap, counterparty, FEE_VERSION)).toBe(FEE_VERSION);
    expect(keeper.isFeeEnabled(ctx, 'transfer', 'channel-5')).toBe(true);
    expect(ibcModule.onChanOpenInit(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-6', cap, counterparty, '')).toBe(FEE_VERSION);
    expect(keeper.isFeeEnabled(ctx, 'transfer', 'channel-6')).toBe(true);
    expect(ibcModule.onChanOpenInit(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-7', cap, counterparty, 'ics20-1')).toBe('ics20-1');
    // Not metadata (an unknown field): the app's business.
    expect(ibcModule.onChanOpenInit(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-8', cap, counterparty, '{"fee_version":"ics29-1","other":1}')).toBe('{"fee_version":"ics29-1","other":1}');
    expect(keeper.isFeeEnabled(ctx, 'transfer', 'channel-7') || keeper.isFeeEnabled(ctx, 'transfer', 'channel-8')).toBe(false);
    expect(calls).toEqual([['init', 'ics20-1'], ['init', ''], ['init', 'ics20-1'], ['init', '{"fee_version":"ics29-1","other":1}']]);
    expect(() => ibcModule.onChanOpenInit(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-10', cap, counterparty, '{"fee_version":"ics29-2","app_version":"ics20-1"}')).toThrow(
      'expected ics29-1, got ics29-2: invalid ICS29 middleware version',
    );
    expect(keeper.isFeeEnabled(ctx, 'transfer', 'channel-10')).toBe(false);
    discard();
  });

  test('OnChanOpenTry and OnChanOpenAck read the counterparty\'s metadata; GetAppVersion answers the inner version', () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, ics4Wrapper, calls } = recording({ versions: { 'channel-0': FEE_VERSION, 'channel-1': 'ics20-1' } });
    expect(ibcModule.onChanOpenTry(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-5', cap, counterparty, FEE_VERSION)).toBe(FEE_VERSION);
    expect(feeKeeper().isFeeEnabled(ctx, 'transfer', 'channel-5')).toBe(true);
    expect(ibcModule.onChanOpenTry(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-6', cap, counterparty, 'ics20-1')).toBe('ics20-1');
    expect(feeKeeper().isFeeEnabled(ctx, 'transfer', 'channel-6')).toBe(false);
    expect(() => ibcModule.onChanOpenTry(ctx, Order.UNORDERED, ['connection-0'], 'transfer', 'channel-7', cap, counterparty, '{"fee_version":"x","app_version":"ics20-1"}')).toThrow('invalid ICS29 middleware version');
    ibcModule.onChanOpenAck(ctx, 'transfer', 'channel-5', 'channel-9', FEE_VERSION);
    ibcModule.onChanOpenAck(ctx, 'transfer', 'channel-6', 'channel-9', 'ics20-1');
    expect(() => ibcModule.onChanOpenAck(ctx, 'transfer', 'channel-5', 'channel-9', 'ics20-1')).toThrow('failed to unmarshal ICS29 counterparty version metadata: ics20-1');
    expect(() => ibcModule.onChanOpenAck(ctx, 'transfer', 'channel-5', 'channel-9', '{"fee_version":"ics29-9","app_version":"ics20-1"}')).toThrow(
      'expected counterparty fee version: ics29-1, got: ics29-9: invalid ICS29 middleware version',
    );
    expect(calls).toEqual([['try', 'ics20-1'], ['try', 'ics20-1'], ['ack', 'ics20-1'], ['ack', 'ics20-1']]);
    expect(ics4Wrapper.getAppVersion(ctx, 'transfer', 'channel-0')).toBe('ics20-1');
    expect(ics4Wrapper.getAppVersion(ctx, 'transfer', 'channel-1')).toBe('ics20-1');
    expect(ics4Wrapper.getAppVersion(ctx, 'transfer', 'channel-3')).toBeUndefined();
    expect(ics4Wrapper.sendPacket(ctx, cap, 'transfer', 'channel-0', { revisionNumber: 0n, revisionHeight: 10n } as never, 0n, new Uint8Array())).toBe(7n);
    discard();
  });
});

describe('receiving on a fee-enabled channel', () => {
  test('the app acknowledgement is wrapped with the relayer\'s counterparty payee; other channels pass it through', async () => {
    expect((await send(relayer, anyPack(MsgRegisterCounterpartyPayeeSchema, create(MsgRegisterCounterpartyPayeeSchema, { portId: 'transfer', channelId: 'channel-0', relayer: relayer.bech32, counterpartyPayee: forward.bech32 })))).code).toBe(0);
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const ack = (await ibcModule.onRecvPacket(ctx, recvPacket(1n), relayer.bech32))!;
    expect(ack.success).toBe(true);
    expect(new TextDecoder().decode(ack.bytes)).toBe(`{"app_acknowledgement":"${Buffer.from('{"result":"AQ=="}').toString('base64')}","forward_relayer_address":"${forward.bech32}","underlying_app_success":true}`);
    const plain = (await ibcModule.onRecvPacket(ctx, recvPacket(1n, 'channel-1'), relayer.bech32))!;
    expect(new TextDecoder().decode(plain.bytes)).toBe('{"result":"AQ=="}');
    // A relayer without a counterparty payee: an empty forward relayer.
    const none = (await ibcModule.onRecvPacket(ctx, recvPacket(2n), payer.bech32))!;
    expect(JSON.parse(new TextDecoder().decode(none.bytes)).forward_relayer_address).toBe('');
    expect(calls.map((c) => c[0])).toEqual(['recv', 'recv', 'recv']);
    discard();
  });

  test('an asynchronous acknowledgement keeps the relayer until WriteAcknowledgement wraps it', async () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, ics4Wrapper, calls } = recording({ ack: undefined });
    expect(await ibcModule.onRecvPacket(ctx, recvPacket(3n), relayer.bech32)).toBeUndefined();
    const id = create(PacketIdSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 3n });
    expect(feeKeeper().getRelayerAddressForAsyncAck(ctx, id)).toBe(relayer.bech32);
    ics4Wrapper.writeAcknowledgement(ctx, cap, recvPacket(3n), { success: false, bytes: new TextEncoder().encode('{"error":"x"}') });
    expect(calls.at(-1)).toEqual(['write', 3n, false, `{"app_acknowledgement":"${Buffer.from('{"error":"x"}').toString('base64')}","forward_relayer_address":"${forward.bech32}","underlying_app_success":false}`]);
    expect(feeKeeper().getRelayerAddressForAsyncAck(ctx, id)).toBeUndefined();
    expect(() => ics4Wrapper.writeAcknowledgement(ctx, cap, recvPacket(3n), { success: true, bytes: new Uint8Array([1]) })).toThrow(
      'no relayer address stored for async acknowledgement for packet with portID: transfer, channelID: channel-0, sequence: 3: relayer address must be stored for async WriteAcknowledgement',
    );
    ics4Wrapper.writeAcknowledgement(ctx, cap, recvPacket(1n, 'channel-1'), { success: true, bytes: new Uint8Array([7]) });
    expect(calls.at(-1)).toEqual(['write', 1n, true, '\u0007']);
    discard();
  });
});

describe('escrow and distribution', () => {
  test('PayPacketFeeAsync escrows into the feeibc account, twice on one packet, with incentivized_ibc_packet', async () => {
    const first = await send(payer, payAsync('channel-0', 3n));
    expect([first.code, first.log]).toEqual([0, '']);
    expect(attributes(first, 'incentivized_ibc_packet')).toMatchObject({ port_id: 'transfer', channel_id: 'channel-0', packet_sequence: '3', recv_fee: `100${DENOM}`, ack_fee: `50${DENOM}`, timeout_fee: `25${DENOM}` });
    const second = await send(payer, payAsync('channel-0', 3n));
    expect(attributes(second, 'incentivized_ibc_packet')).toMatchObject({ recv_fee: `200${DENOM}`, ack_fee: `100${DENOM}`, timeout_fee: `50${DENOM}` });
    expect((await send(payer, payAsync('channel-0', 4n, fee(10n, 20n, 30n)))).code).toBe(0);
    const { ctx, discard } = branchCtx();
    expect(balance(ctx, FEE_MODULE)).toBe(350n + 60n);
    discard();

    const packetId = { portId: 'transfer', channelId: 'channel-0', sequence: 3n };
    const one = await query('IncentivizedPacket', q.QueryIncentivizedPacketRequestSchema, { packetId }, q.QueryIncentivizedPacketResponseSchema);
    expect(one.value!.incentivizedPacket!.packetFees.map((f) => f.refundAddress)).toEqual([payer.bech32, payer.bech32]);
    const recv = await query('TotalRecvFees', q.QueryTotalRecvFeesRequestSchema, { packetId }, q.QueryTotalRecvFeesResponseSchema);
    expect(recv.value!.recvFees).toEqual([expect.objectContaining({ denom: DENOM, amount: '200' })]);
    const ackFees = await query('TotalAckFees', q.QueryTotalAckFeesRequestSchema, { packetId }, q.QueryTotalAckFeesResponseSchema);
    expect(ackFees.value!.ackFees[0]!.amount).toBe('100');
    const timeoutFees = await query('TotalTimeoutFees', q.QueryTotalTimeoutFeesRequestSchema, { packetId }, q.QueryTotalTimeoutFeesResponseSchema);
    expect(timeoutFees.value!.timeoutFees[0]!.amount).toBe('50');
    const all = await query('IncentivizedPackets', q.QueryIncentivizedPacketsRequestSchema, {}, q.QueryIncentivizedPacketsResponseSchema);
    expect(all.value!.incentivizedPackets.map((p) => p.packetId!.sequence)).toEqual([3n, 4n]);
    const forChannel = await query('IncentivizedPacketsForChannel', q.QueryIncentivizedPacketsForChannelRequestSchema, { portId: 'transfer', channelId: 'channel-1' }, q.QueryIncentivizedPacketsForChannelResponseSchema);
    expect(forChannel.value!.incentivizedPackets).toEqual([]);
    const missing = await query('TotalRecvFees', q.QueryTotalRecvFeesRequestSchema, { packetId: { ...packetId, sequence: 9n } }, q.QueryTotalRecvFeesResponseSchema);
    expect([missing.code, missing.log]).toEqual([22, 'rpc error: code = NotFound desc = channel: channel-0, port: transfer, sequence: 9: there is no fee escrowed for the given packetID: key not found']);
  });

  test('on acknowledgement: receive fees to the forward relayer, acknowledgement fees to the reverse relayer, timeout fees refunded', () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const before = balance(ctx, payer.address);
    const appAck = new TextEncoder().encode('{"result":"AQ=="}');
    ibcModule.onAcknowledgementPacket(ctx, packet(3n), incentivizedAcknowledgementBytes(appAck, forward.bech32, true), reverse.bech32);
    expect([balance(ctx, forward.address), balance(ctx, reverse.address), balance(ctx, payer.address) - before, balance(ctx, FEE_MODULE)]).toEqual([200n, 100n, 50n, 60n]);
    expect(calls).toEqual([['ackPacket', 3n, '{"result":"AQ=="}', reverse.bech32]]);
    expect(feeKeeper().getFeesInEscrow(ctx, create(PacketIdSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 3n }))).toBeUndefined();
    const distributed = ctx.events.events.filter((e) => e.type === 'distribute_fee').map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
    expect(distributed).toEqual([
      { receiver: forward.bech32, fee: `100${DENOM}` },
      { receiver: reverse.bech32, fee: `50${DENOM}` },
      { receiver: payer.bech32, fee: `25${DENOM}` },
      { receiver: forward.bech32, fee: `100${DENOM}` },
      { receiver: reverse.bech32, fee: `50${DENOM}` },
      { receiver: payer.bech32, fee: `25${DENOM}` },
    ]);
    // Not an incentivized acknowledgement on a fee-enabled channel: refused.
    expect(() => ibcModule.onAcknowledgementPacket(ctx, packet(4n), appAck, reverse.bech32)).toThrow(/cannot unmarshal ICS-29 incentivized packet acknowledgement/);
    discard();
  });

  test('a registered payee takes the reverse relayer\'s fees; without a forward relayer the receive fee is refunded', async () => {
    expect((await send(relayer, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: 'transfer', channelId: 'channel-0', relayer: relayer.bech32, payee: payee.bech32 })))).code).toBe(0);
    const payeeAnswer = await query('Payee', q.QueryPayeeRequestSchema, { channelId: 'channel-0', relayer: relayer.bech32 }, q.QueryPayeeResponseSchema);
    expect(payeeAnswer.value!.payeeAddress).toBe(payee.bech32);
    const { ctx, discard } = branchCtx();
    const { ibcModule } = recording();
    const before = balance(ctx, payer.address);
    const relayerBefore = balance(ctx, relayer.address);
    ibcModule.onAcknowledgementPacket(ctx, packet(3n), incentivizedAcknowledgementBytes(new Uint8Array([1]), '', true), relayer.bech32);
    expect([balance(ctx, payee.address), balance(ctx, relayer.address) - relayerBefore, balance(ctx, payer.address) - before]).toEqual([100n, 0n, 250n]);
    discard();
  });

  test('on timeout: the timeout fee to the relayer, receive and acknowledgement fees refunded', () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const before = balance(ctx, payer.address);
    ibcModule.onTimeoutPacket(ctx, packet(4n), reverse.bech32);
    expect([balance(ctx, reverse.address), balance(ctx, payer.address) - before, balance(ctx, FEE_MODULE)]).toEqual([30n, 30n, 350n]);
    expect(calls).toEqual([['timeout', 4n, reverse.bech32]]);
    discard();
  });

  test('closing the channel refunds every escrowed fee', async () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const before = balance(ctx, payer.address);
    await ibcModule.onChanCloseInit(ctx, 'transfer', 'channel-0');
    expect([balance(ctx, payer.address) - before, balance(ctx, FEE_MODULE)]).toEqual([410n, 0n]);
    expect(await feeKeeper().getIdentifiedPacketFeesForChannel(ctx, 'transfer', 'channel-0')).toEqual([]);
    expect(calls).toEqual([['closeInit', 'channel-0']]);
    discard();
  });

  test('a payment writes only its own packet\'s record; closing refunds in store order (as upstream iterates)', async () => {
    const branch = chain.store.branch();
    const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(chain.app.currentChainId, chain.height + 1, new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000)) });
    const keeper = feeKeeper();
    const id = (sequence: bigint) => create(PacketIdSchema, { portId: 'transfer', channelId: 'channel-0', sequence });
    const feeStore = branch.getStore('feeibc') as unknown as { size: number };
    keeper.escrowPacketFee(ctx, id(4n), create(PacketFeeSchema, { fee: fee(7n, 0n, 0n), refundAddress: payer.bech32 }));
    expect(feeStore.size).toBe(1);
    expect(keeper.getFeesInEscrow(ctx, id(4n))!.map((f) => f.fee!.recvFee[0]!.amount)).toEqual(['7', '10']);
    // Packets 10 and 2 as well (escrowed here without their commitments): refunds go in key order 10, 2, 3, 4, each payment on its own.
    keeper.escrowPacketFee(ctx, id(10n), create(PacketFeeSchema, { fee: fee(1000n, 0n, 0n), refundAddress: payer.bech32 }));
    keeper.escrowPacketFee(ctx, id(2n), create(PacketFeeSchema, { fee: fee(2000n, 0n, 0n), refundAddress: payer.bech32 }));
    const events = ctx.events.events.length;
    const { ibcModule } = recording();
    await ibcModule.onChanCloseInit(ctx, 'transfer', 'channel-0');
    const refunds = ctx.events.events.slice(events).filter((e) => e.type === 'coin_received').map((e) => e.attributes.find((a) => a.key === 'amount')!.value);
    expect(refunds).toEqual([`1000${DENOM}`, `2000${DENOM}`, `175${DENOM}`, `175${DENOM}`, `7${DENOM}`, `60${DENOM}`]);
    expect([await keeper.getIdentifiedPacketFeesForChannel(ctx, 'transfer', 'channel-0'), balance(ctx, FEE_MODULE)]).toEqual([[], 0n]);
    branch.discard();
  });

  test('an escrow short of a packet\'s fees locks the module: nothing is paid, packets pass to the app, payments and closures are refused', async () => {
    const { ctx, discard } = branchCtx();
    const { ibcModule, calls } = recording();
    const keeper = feeKeeper();
    const id = create(PacketIdSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 4n });
    keeper.setFeesInEscrow(ctx, id, [...keeper.getFeesInEscrow(ctx, id)!, create(PacketFeeSchema, { fee: fee(TOKEN, 0n, 0n), refundAddress: payer.bech32 })]);
    ibcModule.onTimeoutPacket(ctx, packet(4n), reverse.bech32);
    expect([keeper.isLocked(ctx), balance(ctx, reverse.address), balance(ctx, FEE_MODULE)]).toEqual([true, 0n, 410n]);
    expect(keeper.getFeesInEscrow(ctx, id)).toHaveLength(2);
    ibcModule.onTimeoutPacket(ctx, packet(4n), reverse.bech32);
    ibcModule.onAcknowledgementPacket(ctx, packet(3n), incentivizedAcknowledgementBytes(new Uint8Array([5]), forward.bech32, true), reverse.bech32);
    expect(calls).toEqual([['timeout', 4n, reverse.bech32], ['timeout', 4n, reverse.bech32], ['ackPacket', 3n, '\u0005', reverse.bech32]]);
    expect(balance(ctx, forward.address)).toBe(0n);
    await expect(ibcModule.onChanCloseInit(ctx, 'transfer', 'channel-0')).rejects.toThrow('the fee module is currently locked, a severe bug has been detected');
    discard();
  });
});

describe('messages refused', () => {
  test('each refusal answers ibc-go\'s error and escrows nothing', async () => {
    const refused = async (signer: typeof payer, msg: Any, codespace: string, code: number, log: string) => {
      const { ctx, discard } = branchCtx();
      const escrow = balance(ctx, FEE_MODULE);
      discard();
      const result = await send(signer, msg);
      expect([result.codespace, result.code]).toEqual([codespace, code]);
      expect(result.log).toContain(log);
      const after = branchCtx();
      expect(balance(after.ctx, FEE_MODULE)).toBe(escrow);
      after.discard();
    };
    await refused(payer, payAsync('channel-1', 1n), 'feeibc', 9, 'fee module is not enabled for this channel');
    await refused(payer, payAsync('channel-0', 5n), 'channel', 25, 'packet has not been sent');
    await refused(payer, payAsync('channel-0', 2n), 'channel', 20, 'packet has already been acknowledged or timed out: packet commitment not found');
    await refused(payer, payAsync('channel-0', 3n, fee(0n, 0n, 0n)), 'sdk', 10, 'all fees are zero: invalid coins');
    await refused(payer, payAsync('channel-0', 3n, fee(1n, 0n, 0n), payer.bech32, [relayer.bech32]), 'feeibc', 6, 'relayers must not be set');
    await refused(payer, payAsync('channel-0', 0n), 'channel', 13, 'packet sequence cannot be 0: invalid packet');
    await refused(relayer, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: 'transfer', channelId: 'channel-0', relayer: relayer.bech32, payee: relayer.bech32 })), 'sdk', 18, 'relayer address and payee must not be equal');
    await refused(relayer, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: 'transfer', channelId: 'channel-4', relayer: relayer.bech32, payee: payee.bech32 })), 'channel', 3, 'channel not found');
    await refused(relayer, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: 'transfer', channelId: 'channel-0', relayer: relayer.bech32, payee: accString(FEE_MODULE) })), 'sdk', 4, 'is not authorized to be a payee');
    await refused(relayer, anyPack(MsgRegisterCounterpartyPayeeSchema, create(MsgRegisterCounterpartyPayeeSchema, { portId: 'transfer', channelId: 'channel-1', relayer: relayer.bech32, counterpartyPayee: 'x' })), 'feeibc', 9, 'fee module is not enabled');
    await refused(relayer, anyPack(MsgRegisterCounterpartyPayeeSchema, create(MsgRegisterCounterpartyPayeeSchema, { portId: 'transfer', channelId: 'channel-0', relayer: relayer.bech32, counterpartyPayee: ' ' })), 'feeibc', 7, 'counterparty payee must not be empty');
  });

  test('PayPacketFee escrows for the next sequence to be sent', async () => {
    const result = await send(payer, anyPack(MsgPayPacketFeeSchema, create(MsgPayPacketFeeSchema, { fee: fee(1n, 2n, 3n), sourcePortId: 'transfer', sourceChannelId: 'channel-0', signer: payer.bech32 })));
    expect(result.code).toBe(0);
    expect(attributes(result, 'incentivized_ibc_packet')).toMatchObject({ packet_sequence: '5', recv_fee: `1${DENOM}` });
    const enabled = await query('FeeEnabledChannels', q.QueryFeeEnabledChannelsRequestSchema, {}, q.QueryFeeEnabledChannelsResponseSchema);
    expect(enabled.value!.feeEnabledChannels.map((c) => [c.portId, c.channelId])).toEqual([['transfer', 'channel-0']]);
    const one = await query('FeeEnabledChannel', q.QueryFeeEnabledChannelRequestSchema, { portId: 'transfer', channelId: 'channel-1' }, q.QueryFeeEnabledChannelResponseSchema);
    expect(one.value!.feeEnabled).toBe(false);
    const cp = await query('CounterpartyPayee', q.QueryCounterpartyPayeeRequestSchema, { channelId: 'channel-0', relayer: payer.bech32 }, q.QueryCounterpartyPayeeResponseSchema);
    expect([cp.code, cp.log]).toEqual([22, `rpc error: code = NotFound desc = counterparty payee address not found for address: ${payer.bech32} on channel: channel-0: key not found`]);
  });
});

describe('feeibc genesis', () => {
  test('exports what it holds, which validates', async () => {
    const state = (await exportAppState(chain.store)) as Record<string, any>;
    const fees = state['feeibc'];
    expect(fees.fee_enabled_channels).toEqual([{ port_id: 'transfer', channel_id: 'channel-0' }]);
    expect(fees.identified_fees.map((f: any) => f.packet_id.sequence)).toEqual(['3', '4', '5']);
    expect(fees.registered_payees).toEqual([{ channel_id: 'channel-0', relayer: relayer.bech32, payee: payee.bech32 }]);
    expect(fees.registered_counterparty_payees).toEqual([{ channel_id: 'channel-0', relayer: relayer.bech32, counterparty_payee: forward.bech32 }]);
    expect(validateFeeGenesis(fees)).toEqual([]);
  });

  test('validation names each problem', () => {
    expect(
      validateFeeGenesis({
        identified_fees: [{ packet_id: { port_id: 'transfer', channel_id: 'channel-0', sequence: '0' }, packet_fees: [{ fee: { recv_fee: [], ack_fee: [], timeout_fee: [] }, refund_address: payer.bech32, relayers: [] }] }],
        fee_enabled_channels: [{ port_id: 'transfer', channel_id: 'ch' }],
        registered_payees: [{ channel_id: 'channel-0', relayer: relayer.bech32, payee: relayer.bech32 }],
        registered_counterparty_payees: [{ channel_id: 'channel-0', relayer: relayer.bech32, counterparty_payee: '' }],
        forward_relayers: [{ address: 'nope', packet_id: { port_id: 'transfer', channel_id: 'channel-0', sequence: '1' } }],
      }),
    ).toEqual([
      'identified_fees 0: packet sequence cannot be 0: invalid packet',
      'identified_fees 0 packet_fees 0: all fees are zero: invalid coins',
      expect.stringMatching(/^fee_enabled_channels 0: invalid source channel ID: /),
      'registered_payees 0: relayer address and payee address must not be equal: invalid address',
      'registered_counterparty_payees 0: counterparty payee must not be empty',
      expect.stringMatching(/^forward_relayers 0: failed to convert forward relayer address into sdk.AccAddress: /),
    ]);
  });
});

describe('feeibc consensus version 2', () => {
  test('the migration from 1 drops the per-channel escrow index and nothing else', async () => {
    const { ctx, discard } = branchCtx();
    try {
      const store = ctx.kv(feeStoreKey);
      const enc = (s: string) => new TextEncoder().encode(s);
      const before: string[] = [];
      for await (const [key] of store.iterator()) before.push(Buffer.from(key).toString('latin1'));
      store.set(enc('escrowIndex/transfer/channel-0'), Uint8Array.of(1, 2, 3));
      store.set(enc('escrowIndex/transfer/channel-7'), Uint8Array.of(4));
      expect(feeModule.consensusVersion).toBe(2);
      await feeModule.migrations![1]!(ctx);
      const after: string[] = [];
      for await (const [key] of store.iterator()) after.push(Buffer.from(key).toString('latin1'));
      expect(after).toEqual(before);
    } finally {
      discard();
    }
  });
});
