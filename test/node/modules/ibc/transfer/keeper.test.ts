/**
 * ICS-20 in-process over the real bank and auth keepers: denom hash and escrow vectors, the packet
 * data and acknowledgement bytes ibc-go writes, escrow on send and unescrow on the way back,
 * vouchers minted on receive and burned on send-back, refunds on a failed acknowledgement and on
 * timeout (exact balances and supply), receive failures as error acknowledgements carrying only
 * the ABCI code, MsgTransfer's checks, genesis validation. IBC core is a small in-test host:
 * one open channel transfer/channel-0 ↔ transfer/channel-7 whose capability the module owns.
 */
import { create } from '@bufbuild/protobuf';
import { ChannelSchema, CounterpartySchema, Order, PacketSchema, State, type Channel, type Packet } from '../../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import { HeightSchema } from '../../../../../src/gen/ibc/core/client/v1/client_pb.js';
import { MsgTransferSchema } from '../../../../../src/gen/ibc/applications/transfer/v1/tx_pb.js';
import { AMINO_NAME_OVERRIDES, createModuleManager } from '../../../../../src/node/app/modules.js';
import { AminoJsonEncoder } from '../../../../../src/node/codec/aminoJson.js';
import { anyPack } from '../../../../../src/node/codec/index.js';
import { CoinSchema } from '../../../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { exportAppState } from '../../../../../src/node/app/genesis.js';
import { sha256 } from '../../../../../src/keyring/hash.js';
import type { AccountKeeper } from '../../../../../src/node/modules/auth/keeper.js';
import type { BankKeeper } from '../../../../../src/node/modules/bank/keeper.js';
import { Context, emptyHeader } from '../../../../../src/node/modules/shared/context.js';
import { abciInfo } from '../../../../../src/node/modules/shared/errors.js';
import { accString } from '../../../../../src/node/modules/shared/address.js';
import type { Capability } from '../../../../../src/node/modules/ibc/core/port/types.js';
import { TransferKeeper } from '../../../../../src/node/modules/ibc/apps/transfer/keeper.js';
import { TransferIbcModule } from '../../../../../src/node/modules/ibc/apps/transfer/ibcModule.js';
import type { TransferIbcHost } from '../../../../../src/node/modules/ibc/apps/transfer/expectedKeepers.js';
import { transferMsgRoutes, validateMsgTransfer } from '../../../../../src/node/modules/ibc/apps/transfer/msgServer.js';
import { validateTransferGenesis } from '../../../../../src/node/modules/ibc/apps/transfer/genesis.js';
import {
  denomTraceHash,
  escrowAddress,
  hexHash,
  ibcDenom,
  newDenomTrace,
  parseDenomTrace,
  prefixedDenomError,
  ibcDenomError,
} from '../../../../../src/node/modules/ibc/apps/transfer/denom.js';
import { errorAcknowledgement, resultAcknowledgement } from '../../../../../src/node/modules/ibc/core/channel/acknowledgement.js';
import { acknowledgementText, newPacketData, packetDataBytes, parseAcknowledgement, parsePacketData, TRANSFER_ACK_RESULT } from '../../../../../src/node/modules/ibc/apps/transfer/packet.js';
import { TransferErrors } from '../../../../../src/node/modules/ibc/apps/transfer/errors.js';
import { CHAIN_ID, TOKEN, buildAppState, startChain, testKey, type Chain } from '../../../app/helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const ATOM_VOUCHER = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('ICS-20 wire vectors', () => {
  test('the voucher of uatom over transfer/channel-0 is the ibc-go / Osmosis ATOM denom', () => {
    const trace = parseDenomTrace('transfer/channel-0/uatom');
    expect(trace.path).toBe('transfer/channel-0');
    expect(trace.baseDenom).toBe('uatom');
    expect(hexHash(denomTraceHash(trace))).toBe('27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2');
    expect(ibcDenom(trace)).toBe(ATOM_VOUCHER);
    expect(ibcDenom(parseDenomTrace('uatom'))).toBe('uatom');
  });

  test.each([
    ['uatom', '', 'uatom'],
    ['gamm/pool/1', '', 'gamm/pool/1'],
    ['transfer/channel-0/gamm/pool/1', 'transfer/channel-0', 'gamm/pool/1'],
    ['transfer/channel-0/transfer/channel-1/uatom', 'transfer/channel-0/transfer/channel-1', 'uatom'],
    ['transfer/channelX/uatom', '', 'transfer/channelX/uatom'],
  ])('ParseDenomTrace(%s)', (raw, path, base) => {
    const trace = parseDenomTrace(raw);
    expect([trace.path, trace.baseDenom]).toEqual([path, base]);
  });

  test('the escrow address is sha256("ics20-1" 0x00 "transfer/channel-0")[:20]', () => {
    const preimage = Buffer.concat([Buffer.from('ics20-1'), Buffer.from([0]), Buffer.from('transfer/channel-0')]);
    expect(Buffer.from(escrowAddress('transfer', 'channel-0')).toString('hex')).toBe(Buffer.from(sha256(preimage).slice(0, 20)).toString('hex'));
    expect(escrowAddress('transfer', 'channel-0')).not.toEqual(escrowAddress('transfer', 'channel-1'));
  });

  test('packet data is sorted proto JSON with an empty memo left out', () => {
    const data = newPacketData('transfer/channel-0/uatom', '100', 'cosmos1sender', 'token1receiver');
    expect(text(packetDataBytes(data))).toBe('{"amount":"100","denom":"transfer/channel-0/uatom","receiver":"token1receiver","sender":"cosmos1sender"}');
    const withMemo = newPacketData('uatom', '7', 's', 'r', 'hello');
    expect(text(packetDataBytes(withMemo))).toBe('{"amount":"7","denom":"uatom","memo":"hello","receiver":"r","sender":"s"}');
    expect(parsePacketData(packetDataBytes(withMemo))).toEqual(withMemo);
    expect(() => parsePacketData(new TextEncoder().encode('{"amount":"1","denom":"a","extra":1}'))).toThrow();
  });

  test('acknowledgements: {"result":"AQ=="} and the code-only error', () => {
    expect(text(resultAcknowledgement(TRANSFER_ACK_RESULT).bytes)).toBe('{"result":"AQ=="}');
    const failed = errorAcknowledgement(TransferErrors.InvalidAmount.wrap('whatever the log says'));
    expect([failed.success, text(failed.bytes)]).toEqual([false, '{"error":"ABCI code: 5: error handling packet: see events for details"}']);
    expect(text(errorAcknowledgement(new Error('no code')).bytes)).toBe('{"error":"ABCI code: 1: error handling packet: see events for details"}');
    expect(acknowledgementText(parseAcknowledgement(resultAcknowledgement(TRANSFER_ACK_RESULT).bytes))).toBe('result:"\\001" ');
  });

  test('denom validation', () => {
    expect(prefixedDenomError('transfer/channel-0/uatom')).toBeUndefined();
    expect(prefixedDenomError('transfer/channel-0/')?.message).toBe('base denomination cannot be blank: invalid denomination for cross-chain transfer');
    expect(ibcDenomError(ATOM_VOUCHER)).toBeUndefined();
    expect(ibcDenomError('ibc')?.message).toMatch(/denomination should be prefixed with the format/);
    expect(ibcDenomError('ibc/XYZ')?.message).toMatch(/invalid denom trace hash XYZ/);
  });

  test('MsgTransfer signs as amino "cosmos-sdk/MsgTransfer" as CosmJS builds it (timeout_height always, zero timestamp and memo left out)', () => {
    const encoder = new AminoJsonEncoder({ nameOverrides: AMINO_NAME_OVERRIDES });
    const msg = (timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint }, timeoutTimestamp: bigint, memo: string) =>
      anyPack(MsgTransferSchema, create(MsgTransferSchema, { sourcePort: 'transfer', sourceChannel: 'channel-0', token: create(CoinSchema, { denom: 'attotoken', amount: '5' }), sender: 's', receiver: 'r', timeoutHeight: create(HeightSchema, timeoutHeight), timeoutTimestamp, memo }));
    expect(encoder.encodeTxMessage(msg({ revisionNumber: 0n, revisionHeight: 0n }, 0n, ''))).toBe(
      '{"type":"cosmos-sdk/MsgTransfer","value":{"receiver":"r","sender":"s","source_channel":"channel-0","source_port":"transfer","timeout_height":{},"token":{"amount":"5","denom":"attotoken"}}}',
    );
    expect(encoder.encodeTxMessage(msg({ revisionNumber: 1n, revisionHeight: 9n }, 7n, 'm'))).toBe(
      '{"type":"cosmos-sdk/MsgTransfer","value":{"memo":"m","receiver":"r","sender":"s","source_channel":"channel-0","source_port":"transfer","timeout_height":{"revision_height":"9","revision_number":"1"},"timeout_timestamp":"7","token":{"amount":"5","denom":"attotoken"}}}',
    );
  });

  test('genesis validation names the problem', () => {
    expect(validateTransferGenesis({ port_id: 'transfer', denom_traces: [{ path: 'transfer/channel-0', base_denom: 'uatom' }], params: { send_enabled: true, receive_enabled: true } })).toEqual([]);
    expect(validateTransferGenesis({ port_id: 'x', denom_traces: [] })).toEqual([expect.stringMatching(/^port_id: identifier x has invalid length/)]);
    const dup = { path: 'transfer/channel-0', base_denom: 'uatom' };
    expect(validateTransferGenesis({ port_id: 'transfer', denom_traces: [dup, dup] })).toEqual(['denom_traces: duplicated denomination trace with hash 27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2']);
    expect(validateTransferGenesis({ port_id: 'transfer', denom_traces: [{ path: 'transfer', base_denom: 'uatom' }] })[0]).toMatch(/^denom_traces: failed denom trace 0 validation: trace info must come in pairs/);
  });
});

/** IBC core as far as ICS-20 sees it: one channel, owned capabilities, packets recorded. */
class TestHost implements TransferIbcHost {
  readonly sent: { sourcePort: string; sourceChannel: string; data: Uint8Array; timeoutTimestamp: bigint }[] = [];
  private readonly caps = new Map<string, Capability>();
  private nextIndex = 1n;
  readonly channel: Channel = create(ChannelSchema, {
    state: State.OPEN,
    ordering: Order.UNORDERED,
    counterparty: create(CounterpartySchema, { portId: 'transfer', channelId: 'channel-7' }),
    connectionHops: ['connection-0'],
    version: 'ics20-1',
  });
  readonly channelKeeper = { getChannel: (_ctx: Context, port: string, channel: string) => (port === 'transfer' && channel === 'channel-0' ? this.channel : undefined) };
  readonly portKeeper = { bindPort: () => ({ index: this.nextIndex++ }) };
  readonly scopedKeeper = {
    newCapability: (_ctx: Context, name: string) => {
      const cap = { index: this.nextIndex++ };
      this.caps.set(name, cap);
      return cap;
    },
    getCapability: (_ctx: Context, name: string) => this.caps.get(name),
    claimCapability: (_ctx: Context, cap: Capability, name: string) => void this.caps.set(name, cap),
    authenticateCapability: (_ctx: Context, cap: Capability, name: string) => this.caps.get(name) === cap,
  };
  readonly ics4Wrapper = {
    sendPacket: (_ctx: Context, _cap: Capability, sourcePort: string, sourceChannel: string, _h: unknown, timeoutTimestamp: bigint, data: Uint8Array) => {
      this.sent.push({ sourcePort, sourceChannel, data, timeoutTimestamp });
      return BigInt(this.sent.length);
    },
    writeAcknowledgement: () => undefined,
    getAppVersion: () => 'ics20-1',
  };
}

describe('ICS-20 genesis in the app', () => {
  test('traces and params are imported, the port bound and claimed, and exported unchanged', async () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as Record<string, any>;
    const traces = [
      { path: 'transfer/channel-1', base_denom: 'uosmo' },
      { path: 'transfer/channel-0', base_denom: 'uatom' },
    ];
    state.transfer = { port_id: 'transfer', denom_traces: traces, params: { send_enabled: false, receive_enabled: true } };
    const chain = await startChain(state);
    try {
      await chain.block([]);
      const exported = (await exportAppState(chain.store)) as Record<string, any>;
      expect(exported.transfer).toEqual({ port_id: 'transfer', denom_traces: [traces[1], traces[0]], params: { send_enabled: false, receive_enabled: true } });
      expect(exported.capability.owners).toContainEqual({ index: expect.any(String), index_owners: { owners: expect.arrayContaining([{ module: 'transfer', name: 'ports/transfer' }]) } });
    } finally {
      await chain.close();
    }
  });
});

describe('ICS-20 keeper with the real bank', () => {
  let chain: Chain;
  let ctx: Context;
  let bank: BankKeeper;
  let host: TestHost;
  let keeper: TransferKeeper;
  let app: TransferIbcModule;
  const escrow = escrowAddress('transfer', 'channel-0');
  const ZERO_HEIGHT = create(HeightSchema, {});

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    await chain.block([]);
    const manager = createModuleManager();
    bank = manager.keeper<BankKeeper>('bank');
    ctx = new Context({ mode: 'finalize', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) });
    host = new TestHost();
    keeper = new TransferKeeper(manager.keeper<AccountKeeper>('auth'), bank, host);
    keeper.setPort(ctx, 'transfer');
    host.scopedKeeper.newCapability(ctx, 'capabilities/ports/transfer/channels/channel-0');
    app = new TransferIbcModule(keeper);
  });
  afterEach(async () => {
    await chain.close();
  });

  const incoming = (data: Uint8Array, sequence = 1n): Packet =>
    create(PacketSchema, { sequence, sourcePort: 'transfer', sourceChannel: 'channel-7', destinationPort: 'transfer', destinationChannel: 'channel-0', data });
  const outgoing = (data: Uint8Array, sequence = 1n): Packet =>
    create(PacketSchema, { sequence, sourcePort: 'transfer', sourceChannel: 'channel-0', destinationPort: 'transfer', destinationChannel: 'channel-7', data });
  const transfer = (token: { denom: string; amount: string }, sender = alice.bech32, receiver = 'cosmos1receiver') =>
    transferMsgRoutes(keeper)[0]!.handler(ctx, create(MsgTransferSchema, { sourcePort: 'transfer', sourceChannel: 'channel-0', token, sender, receiver, timeoutHeight: ZERO_HEIGHT, timeoutTimestamp: 10n }));

  test('native tokens are escrowed on send, returned to the sender on timeout', async () => {
    const before = bank.getBalance(ctx, alice.address, 'attotoken');
    await transfer({ denom: 'attotoken', amount: '100' });
    expect(bank.getBalance(ctx, alice.address, 'attotoken')).toBe(before - 100n);
    expect(bank.getBalance(ctx, escrow, 'attotoken')).toBe(100n);
    expect(text(host.sent[0]!.data)).toBe(`{"amount":"100","denom":"attotoken","receiver":"cosmos1receiver","sender":"${alice.bech32}"}`);
    expect(ctx.events.events.filter((e) => e.type === 'ibc_transfer').map((e) => e.attributes.map((a) => [a.key, a.value]))).toEqual([[['sender', alice.bech32], ['receiver', 'cosmos1receiver']]]);

    app.onTimeoutPacket(ctx, outgoing(host.sent[0]!.data), 'relayer');
    expect(bank.getBalance(ctx, alice.address, 'attotoken')).toBe(before);
    expect(bank.getBalance(ctx, escrow, 'attotoken')).toBe(0n);
    const timeout = ctx.events.events.find((e) => e.type === 'timeout')!;
    expect(timeout.attributes.map((a) => [a.key, a.value])).toEqual([['module', 'transfer'], ['refund_receiver', alice.bech32], ['refund_denom', 'attotoken'], ['refund_amount', '100'], ['memo', '']]);
  });

  test('native tokens coming back through the channel are unescrowed', async () => {
    await transfer({ denom: 'attotoken', amount: '100' });
    const back = newPacketData('transfer/channel-7/attotoken', '60', 'cosmos1someone', bob.bech32);
    const ack = app.onRecvPacket(ctx, incoming(packetDataBytes(back)), 'relayer');
    expect([ack.success, text(ack.bytes)]).toEqual([true, '{"result":"AQ=="}']);
    expect(bank.getBalance(ctx, bob.address, 'attotoken')).toBe(60n);
    expect(bank.getBalance(ctx, escrow, 'attotoken')).toBe(40n);
  });

  test('foreign tokens arrive as ibc/<hash> vouchers with their trace, are burned on the way back and re-minted on a failed ack', async () => {
    const supply = (): bigint => bank.getSupply(ctx, ATOM_VOUCHER);
    const data = newPacketData('uatom', '100', 'cosmos1sender', bob.bech32);
    const ack = app.onRecvPacket(ctx, incoming(packetDataBytes(data)), 'relayer');
    expect(ack.success).toBe(true);
    expect(bank.getBalance(ctx, bob.address, ATOM_VOUCHER)).toBe(100n);
    expect(supply()).toBe(100n);
    expect(keeper.getDenomTrace(ctx, denomTraceHash(newDenomTrace('transfer/channel-0', 'uatom')))?.baseDenom).toBe('uatom');
    expect(ctx.events.events.find((e) => e.type === 'denomination_trace')!.attributes.map((a) => a.value)).toEqual(['27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2', ATOM_VOUCHER]);

    // bob sends 40 back: burned, and the packet names the full trace.
    await transfer({ denom: ATOM_VOUCHER, amount: '40' }, bob.bech32, 'cosmos1home');
    expect(bank.getBalance(ctx, bob.address, ATOM_VOUCHER)).toBe(60n);
    expect(supply()).toBe(60n);
    const sent = host.sent[0]!.data;
    expect(parsePacketData(sent).denom).toBe('transfer/channel-0/uatom');

    // The counterparty failed to credit it: bob gets his vouchers back.
    app.onAcknowledgementPacket(ctx, outgoing(sent), errorAcknowledgement(new Error('x')).bytes, 'relayer');
    expect(bank.getBalance(ctx, bob.address, ATOM_VOUCHER)).toBe(100n);
    expect(supply()).toBe(100n);
    const ackEvents = ctx.events.events.filter((e) => e.type === 'fungible_token_packet').slice(-2);
    expect(ackEvents[1]!.attributes.map((a) => [a.key, a.value])).toEqual([['error', 'ABCI code: 1: error handling packet: see events for details']]);

    // A successful ack changes nothing.
    app.onAcknowledgementPacket(ctx, outgoing(sent), resultAcknowledgement(TRANSFER_ACK_RESULT).bytes, 'relayer');
    expect(bank.getBalance(ctx, bob.address, ATOM_VOUCHER)).toBe(100n);
  });

  test.each([
    ['a zero amount', newPacketData('uatom', '0', 's', bob.bech32), 5, 'amount must be strictly positive: got 0: invalid token amount'],
    ['a receiver of another chain', newPacketData('uatom', '5', 's', 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu'), 1, 'invalid Bech32 prefix; expected token, got cosmos'],
    ['a malformed receiver', newPacketData('uatom', '5', 's', 'token1xyz'), 1, 'decoding bech32 failed'],
    ['a denom with a blank base', newPacketData('transfer/channel-3/', '5', 's', bob.bech32), 3, 'base denomination cannot be blank'],
  ])('receiving %s is an error acknowledgement with only the ABCI code, and credits nothing', async (_name, data, code, message) => {
    const ack = app.onRecvPacket(ctx, incoming(packetDataBytes(data)), 'relayer');
    expect([ack.success, text(ack.bytes)]).toEqual([false, `{"error":"ABCI code: ${code}: error handling packet: see events for details"}`]);
    expect(await bank.getAllBalances(ctx, bob.address)).toEqual([]);
    const event = ctx.events.events.find((e) => e.type === 'fungible_token_packet')!;
    expect(Object.fromEntries(event.attributes.map((a) => [a.key, a.value]))).toMatchObject({ success: 'false', error: expect.stringContaining(message) });
  });

  test('receiving with receive_enabled false is refused (code 8)', () => {
    keeper.setParams(ctx, { ...keeper.getParams(ctx), receiveEnabled: false });
    const ack = app.onRecvPacket(ctx, incoming(packetDataBytes(newPacketData('uatom', '5', 's', bob.bech32))), 'relayer');
    expect(text(ack.bytes)).toBe('{"error":"ABCI code: 8: error handling packet: see events for details"}');
  });

  test('bad packet data is an error acknowledgement (invalid type, code 29)', () => {
    const ack = app.onRecvPacket(ctx, incoming(new TextEncoder().encode('not json')), 'relayer');
    expect(text(ack.bytes)).toBe('{"error":"ABCI code: 29: error handling packet: see events for details"}');
  });

  test('MsgTransfer: ibc-go ValidateBasic and the send checks, nothing moved', async () => {
    const msg = (token: { denom: string; amount: string }, receiver = 'cosmos1r', sourceChannel = 'channel-0') =>
      create(MsgTransferSchema, { sourcePort: 'transfer', sourceChannel, token, sender: alice.bech32, receiver, timeoutHeight: ZERO_HEIGHT, timeoutTimestamp: 1n });
    const fails = (m: ReturnType<typeof msg>): [string, number, string] => {
      try {
        validateMsgTransfer(m);
      } catch (err) {
        const info = abciInfo(err);
        return [info.codespace, info.code, info.log];
      }
      return ['', 0, ''];
    };
    expect(fails(msg({ denom: 'attotoken', amount: '0' }))).toEqual(['sdk', 5, '0attotoken: insufficient funds']);
    expect(fails(msg({ denom: 'attotoken', amount: '5' }, ' '))).toEqual(['sdk', 7, 'missing recipient address: invalid address']);
    expect(fails(msg({ denom: 'ibc/zz', amount: '5' }))[2]).toMatch(/invalid denom trace hash zz/);
    expect(fails(msg({ denom: 'attotoken', amount: '5' }, 'cosmos1r', 'c'))[2]).toMatch(/^invalid source channel ID: identifier c has invalid length/);

    const before = bank.getBalance(ctx, alice.address, 'attotoken');
    expect(() => transfer({ denom: ATOM_VOUCHER, amount: '5' })).toThrow(`27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2: denomination trace not found`);
    keeper.setParams(ctx, { ...keeper.getParams(ctx), sendEnabled: false });
    expect(() => transfer({ denom: 'attotoken', amount: '5' })).toThrow('fungible token transfers from this chain are disabled');
    expect(bank.getBalance(ctx, alice.address, 'attotoken')).toBe(before);
    expect(host.sent).toEqual([]);
    expect(accString(escrow)).toMatch(/^token1/);
  });
});
