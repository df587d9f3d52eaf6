/**
 * ICS-27 on one chain, in-process: the host creates an interchain account in OpenTry and executes
 * a controller's MsgSend through the app's message router with exact balances; a message outside
 * allow_messages, a foreign signer or a failing message gives an error acknowledgement and changes
 * nothing; params over ABCI; genesis export re-imports to the same state.
 *
 * IBC core's 04-channel/05-port/x/capability are another branch's work: channels come from the
 * ibc store (genesis), connections from the app's connection keeper, and the port binding and
 * capabilities from a small in-test capability table (the ScopedKeeper contract).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary, type JsonObject } from '@bufbuild/protobuf';
import { TxMsgDataSchema } from '../../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { MsgSendResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { QueryParamsRequestSchema as ControllerParamsRequestSchema, QueryParamsResponseSchema as ControllerParamsResponseSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { QueryParamsRequestSchema as HostParamsRequestSchema, QueryParamsResponseSchema as HostParamsResponseSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/host/v1/query_pb.js';
import { MsgRegisterInterchainAccountSchema, MsgSendTxSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { MsgSubmitTxSchema } from '../../../../src/gen/aioz/icamauth/v1beta1/tx_pb.js';
import { CosmosTxSchema, InterchainAccountPacketDataSchema, Type } from '../../../../src/gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { CounterpartySchema, Order, PacketSchema, type Packet } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import type { BankKeeper } from '../../../../src/node/modules/bank/keeper.js';
import type { AccountKeeper } from '../../../../src/node/modules/auth/keeper.js';
import { HostIbcModule } from '../../../../src/node/modules/ibc/apps/ica/host/ibcModule.js';
import { HostKeeper } from '../../../../src/node/modules/ibc/apps/ica/host/keeper.js';
import { ControllerIbcModule } from '../../../../src/node/modules/ibc/apps/ica/controller/ibcModule.js';
import { ControllerKeeper } from '../../../../src/node/modules/ibc/apps/ica/controller/keeper.js';
import type { IcaIbcCore } from '../../../../src/node/modules/ibc/apps/ica/expectedKeepers.js';
import { exportIcaGenesis, initIcaGenesis, validateIcaGenesis } from '../../../../src/node/modules/ibc/apps/ica/genesis.js';
import { defaultMetadata, metadataFromVersion, metadataToVersion, packetDataBytes } from '../../../../src/node/modules/ibc/apps/ica/types.js';
import { Channels } from '../../../../src/node/modules/ibc/core/channel/keys.js';
import type { Capability, ScopedKeeper } from '../../../../src/node/modules/ibc/core/port/types.js';
import { defaultIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import type { IbcKeeper } from '../../../../src/node/modules/ibc/module.js';
import { moduleAddress, parseAccAddress } from '../../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, msgSend, pack, startChain, testKey, type Chain } from '../../app/helpers.js';

const alice = testKey('ica-alice');
const bob = testKey('ica-bob');
const owner = testKey('ica-owner-on-controller');
const CONTROLLER_PORT = `icacontroller-${owner.bech32}`;
const DENOM = 'attotoken';

let chain: Chain;

/** x/capability as the ScopedKeeper contract describes it: capabilities by identity, owners by (module, name). */
class CapabilityTable {
  private nextIndex = 1n;
  private readonly owned = new Map<string, Capability>();
  private readonly ports = new Set<string>();

  create(): Capability {
    return { index: this.nextIndex++ };
  }

  scoped(module: string): ScopedKeeper {
    const key = (name: string) => `${module}\u0000${name}`;
    return {
      newCapability: (_ctx, name) => {
        const capability = this.create();
        this.owned.set(key(name), capability);
        return capability;
      },
      getCapability: (_ctx, name) => this.owned.get(key(name)),
      claimCapability: (_ctx, capability, name) => {
        if (this.owned.has(key(name))) throw new Error(`${module} owns ${name} already`);
        this.owned.set(key(name), capability);
      },
      authenticateCapability: (_ctx, capability, name) => this.owned.get(key(name)) === capability,
    };
  }

  bindPort(portId: string): Capability {
    if (this.ports.has(portId)) throw new Error(`port ${portId} is already bound`);
    this.ports.add(portId);
    return this.create();
  }

  isBound(portId: string): boolean {
    return this.ports.has(portId);
  }
}

function testCore(table: CapabilityTable): IcaIbcCore {
  const ibc = chain.app.manager.keeper<IbcKeeper>('ibc');
  return {
    connections: ibc.connectionKeeper,
    channels: { getChannel: (ctx, portId, channelId) => Channels.get(ctx, [portId, channelId]) },
    ics4: {
      sendPacket: () => {
        throw new Error('a host sends no packets');
      },
      writeAcknowledgement: () => {},
      getAppVersion: (ctx, portId, channelId) => Channels.get(ctx, [portId, channelId])?.version,
    },
    ports: { bindPort: (_ctx, portId) => table.bindPort(portId), isBound: (_ctx, portId) => table.isBound(portId) },
    scoped: (module) => table.scoped(module),
  };
}

function blockContext(): Context {
  return new Context({ mode: 'block', multiStore: chain.store.branch(), header: { ...emptyHeader(chain.app.currentChainId, chain.height + 1, new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000)), appHash: new Uint8Array(32).fill(7) } });
}

const connection = {
  id: 'connection-0',
  client_id: '07-tendermint-0',
  versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
  state: 'STATE_OPEN',
  counterparty: { client_id: '07-tendermint-3', connection_id: 'connection-7', prefix: { key_prefix: Buffer.from('ibc').toString('base64') } },
  delay_period: '0',
};
const hostChannel = {
  state: 'STATE_OPEN',
  ordering: 'ORDER_ORDERED',
  counterparty: { port_id: CONTROLLER_PORT, channel_id: 'channel-3' },
  connection_hops: ['connection-0'],
  version: metadataToVersion(defaultMetadata('connection-7', 'connection-0')),
  port_id: 'icahost',
  channel_id: 'channel-0',
};
const seq = (sequence: string) => ({ port_id: 'icahost', channel_id: 'channel-0', sequence });

beforeAll(async () => {
  const ibc = defaultIbcGenesis() as Record<string, any>;
  ibc['connection_genesis'] = { ...ibc['connection_genesis'], connections: [connection], client_connection_paths: [{ client_id: '07-tendermint-0', paths: ['connection-0'] }], next_connection_sequence: '1' };
  ibc['channel_genesis'] = { ...ibc['channel_genesis'], channels: [hostChannel], send_sequences: [seq('1')], recv_sequences: [seq('1')], ack_sequences: [seq('1')], next_channel_sequence: '1' };
  chain = await startChain({ ...buildAppState({ accounts: [[alice, 1000n * TOKEN]], validator: alice, selfDelegation: 100n * TOKEN }), ibc });
  await chain.block([]);
});

afterAll(async () => {
  await chain?.close();
});

function executeTxPacket(sequence: bigint, messages: Any[]): Packet {
  const data = create(InterchainAccountPacketDataSchema, { type: Type.EXECUTE_TX, data: toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages })) });
  return create(PacketSchema, { sequence, sourcePort: CONTROLLER_PORT, sourceChannel: 'channel-3', destinationPort: 'icahost', destinationChannel: 'channel-0', data: packetDataBytes(data) });
}

/** A host with an interchain account opened for CONTROLLER_PORT over connection-0 and funded with 100 tokens by alice. */
async function openedHost(): Promise<{ ctx: Context; host: HostKeeper; module: HostIbcModule; ica: Uint8Array; icaBech32: string; table: CapabilityTable }> {
  const table = new CapabilityTable();
  const host = new HostKeeper(testCore(table), chain.app.manager.keeper<AccountKeeper>('auth'), chain.app.manager.router);
  const module = new HostIbcModule(host);
  const ctx = blockContext();
  host.bindPort(ctx, 'icahost');
  const version = module.onChanOpenTry(ctx, Order.ORDERED, ['connection-0'], 'icahost', 'channel-0', table.create(), create(CounterpartySchema, { portId: CONTROLLER_PORT, channelId: 'channel-3' }), hostChannel.version);
  module.onChanOpenConfirm(ctx, 'icahost', 'channel-0');
  const icaBech32 = metadataFromVersion(version).address;
  const parsed = parseAccAddress(icaBech32);
  if (!parsed.ok) throw new Error(parsed.error);
  await chain.app.manager.router.dispatch(ctx, msgSend(alice.bech32, icaBech32, 100n * TOKEN), [alice.address]);
  return { ctx, host, module, ica: parsed.bytes, icaBech32, table };
}

const utf8 = new TextDecoder();

describe('ICA host', () => {
  test('OpenTry creates an InterchainAccount (32-byte address) owned by the controller port and puts its address into the version', async () => {
    const { ctx, host, ica, icaBech32 } = await openedHost();
    const account = chain.app.manager.keeper<AccountKeeper>('auth').getAccount(ctx, ica)!;
    expect([account.kind, account.accountOwner, account.pubKey, ica.length]).toEqual(['interchain', CONTROLLER_PORT, undefined, 32]);
    expect(host.getInterchainAccountAddress(ctx, 'connection-0', CONTROLLER_PORT)).toBe(icaBech32);
    expect(host.getActiveChannelId(ctx, 'connection-0', CONTROLLER_PORT)).toBe('channel-0');
  });

  test('a controller MsgSend from the interchain account executes: result ack with the MsgSendResponse, exact balances', async () => {
    const { ctx, module, ica, icaBech32 } = await openedHost();
    const bank = chain.app.manager.keeper<BankKeeper>('bank');
    const ack = await module.onRecvPacket(ctx, executeTxPacket(1n, [msgSend(icaBech32, bob.bech32, 40n * TOKEN)]), alice.bech32);
    expect(ack.success).toBe(true);
    const json = JSON.parse(utf8.decode(ack.bytes)) as { result: string };
    expect(Object.keys(json)).toEqual(['result']);
    const txMsgData = fromBinary(TxMsgDataSchema, Buffer.from(json.result, 'base64'));
    expect(txMsgData.msgResponses.map((any) => any.typeUrl)).toEqual([`/${MsgSendResponseSchema.typeName}`]);
    expect(bank.getBalance(ctx, ica, DENOM)).toBe(60n * TOKEN);
    expect(bank.getBalance(ctx, bob.address, DENOM)).toBe(40n * TOKEN);
    const event = ctx.events.events.find((e) => e.type === 'ics27_packet')!;
    expect(Object.fromEntries(event.attributes.map((a) => [a.key, a.value]))).toEqual({ module: 'interchainaccounts', host_channel_id: 'channel-0', success: 'true' });
    expect(ctx.events.events.some((e) => e.type === 'transfer' && e.attributes.some((a) => a.key === 'recipient' && a.value === bob.bech32))).toBe(true);
  });

  test('a message type outside allow_messages: error ack with ABCI code 4 only, the reason in the event, nothing moved', async () => {
    const { ctx, host, module, ica, icaBech32 } = await openedHost();
    host.setParams(ctx, { ...host.getParams(ctx), allowMessages: ['/cosmos.staking.v1beta1.MsgDelegate'] });
    const bank = chain.app.manager.keeper<BankKeeper>('bank');
    const ack = await module.onRecvPacket(ctx, executeTxPacket(1n, [msgSend(icaBech32, bob.bech32, 40n * TOKEN)]), alice.bech32);
    expect(ack.success).toBe(false);
    expect(utf8.decode(ack.bytes)).toBe('{"error":"ABCI code: 4: error handling packet: see events for details"}');
    const event = ctx.events.events.find((e) => e.type === 'ics27_packet')!;
    expect(Object.fromEntries(event.attributes.map((a) => [a.key, a.value]))).toEqual({
      module: 'interchainaccounts',
      host_channel_id: 'channel-0',
      success: 'false',
      error: 'message type not allowed: /cosmos.bank.v1beta1.MsgSend: unauthorized',
    });
    expect([bank.getBalance(ctx, ica, DENOM), bank.getBalance(ctx, bob.address, DENOM)]).toEqual([100n * TOKEN, 0n]);
  });

  test('a message signed by anyone but the interchain account, or one that fails, leaves every message of the packet undone', async () => {
    const { ctx, module, ica, icaBech32 } = await openedHost();
    const bank = chain.app.manager.keeper<BankKeeper>('bank');
    const foreign = await module.onRecvPacket(ctx, executeTxPacket(1n, [msgSend(alice.bech32, bob.bech32, 1n)]), alice.bech32);
    expect(utf8.decode(foreign.bytes)).toBe('{"error":"ABCI code: 4: error handling packet: see events for details"}');
    const failing = await module.onRecvPacket(ctx, executeTxPacket(2n, [msgSend(icaBech32, bob.bech32, 30n * TOKEN), msgSend(icaBech32, bob.bech32, 80n * TOKEN)]), alice.bech32);
    expect(utf8.decode(failing.bytes)).toBe('{"error":"ABCI code: 5: error handling packet: see events for details"}');
    expect([bank.getBalance(ctx, ica, DENOM), bank.getBalance(ctx, bob.address, DENOM)]).toEqual([100n * TOKEN, 0n]);
  });

  test('the host disabled, bad packet data, and a packet arriving at the controller: error acks', async () => {
    const { ctx, host, module } = await openedHost();
    const garbage = create(PacketSchema, { ...executeTxPacket(1n, []), data: new TextEncoder().encode('not json') });
    expect(utf8.decode((await module.onRecvPacket(ctx, garbage, alice.bech32)).bytes)).toBe('{"error":"ABCI code: 2: error handling packet: see events for details"}');
    host.setParams(ctx, { ...host.getParams(ctx), hostEnabled: false });
    expect(utf8.decode((await module.onRecvPacket(ctx, executeTxPacket(1n, []), alice.bech32)).bytes)).toBe('{"error":"ABCI code: 2: error handling packet: see events for details"}');
    const controller = new ControllerIbcModule(new ControllerKeeper(testCore(new CapabilityTable()), chain.app.manager.router, moduleAddress('interchainaccounts')));
    expect(utf8.decode(controller.onRecvPacket(ctx, executeTxPacket(1n, []), alice.bech32).bytes)).toBe('{"error":"ABCI code: 5: error handling packet: see events for details"}');
  });

  test('OpenTry refuses an unordered channel, a wrong host port, metadata of other connections, and a second OPEN channel for the same owner', async () => {
    const { ctx, module, table } = await openedHost();
    const counterparty = create(CounterpartySchema, { portId: CONTROLLER_PORT, channelId: 'channel-4' });
    const version = hostChannel.version;
    expect(() => module.onChanOpenTry(ctx, Order.UNORDERED, ['connection-0'], 'icahost', 'channel-1', table.create(), counterparty, version)).toThrow('expected ORDERED channel, got UNORDERED: invalid channel ordering');
    expect(() => module.onChanOpenTry(ctx, Order.ORDERED, ['connection-0'], 'transfer', 'channel-1', table.create(), counterparty, version)).toThrow('expected icahost, got transfer: invalid host port');
    expect(() => module.onChanOpenTry(ctx, Order.ORDERED, ['connection-0'], 'icahost', 'channel-1', table.create(), counterparty, metadataToVersion(defaultMetadata('connection-9', 'connection-0')))).toThrow('expected connection-7, got connection-9: invalid connection');
    expect(() => module.onChanOpenTry(ctx, Order.ORDERED, ['connection-0'], 'icahost', 'channel-1', table.create(), counterparty, '{"version":"ics27-1"')).toThrow('cannot unmarshal ICS-27 interchain accounts metadata: unknown data type');
    expect(() => module.onChanOpenTry(ctx, Order.ORDERED, ['connection-0'], 'icahost', 'channel-1', table.create(), counterparty, version)).toThrow('existing active channel channel-0 for portID icahost is already OPEN: active channel already set for this owner');
  });
});

describe('ICA params and genesis', () => {
  test('params over ABCI: controller enabled; host enabled with every message allowed', async () => {
    const controller = await abciQuery(chain.app, '/ibc.applications.interchain_accounts.controller.v1.Query/Params', toBinary(ControllerParamsRequestSchema, create(ControllerParamsRequestSchema)), ControllerParamsResponseSchema);
    expect(controller.value!.params!.controllerEnabled).toBe(true);
    const host = await abciQuery(chain.app, '/ibc.applications.interchain_accounts.host.v1.Query/Params', toBinary(HostParamsRequestSchema, create(HostParamsRequestSchema)), HostParamsResponseSchema);
    expect([host.value!.params!.hostEnabled, host.value!.params!.allowMessages]).toEqual([true, ['*']]);
  });

  test('export after opening an account validates and re-imports to the same state', async () => {
    const { ctx, host, table } = await openedHost();
    const controller = new ControllerKeeper(testCore(table), chain.app.manager.router, moduleAddress('interchainaccounts'));
    controller.setActiveChannelId(ctx, 'connection-2', CONTROLLER_PORT, 'channel-5');
    controller.setMiddlewareEnabled(ctx, CONTROLLER_PORT, 'connection-2', true);
    controller.setInterchainAccountAddress(ctx, 'connection-2', CONTROLLER_PORT, 'token1remote');
    controller.recordPort(ctx, CONTROLLER_PORT);
    const exported = await exportIcaGenesis(ctx, controller, host);
    expect(validateIcaGenesis(exported)).toEqual([]);
    const state = exported as any;
    expect(state.controller_genesis_state).toEqual({
      active_channels: [{ connection_id: 'connection-2', port_id: CONTROLLER_PORT, channel_id: 'channel-5', is_middleware_enabled: true }],
      interchain_accounts: [{ connection_id: 'connection-2', port_id: CONTROLLER_PORT, account_address: 'token1remote' }],
      ports: [CONTROLLER_PORT],
      params: { controller_enabled: true },
    });
    expect(state.host_genesis_state.active_channels).toEqual([{ connection_id: 'connection-0', port_id: CONTROLLER_PORT, channel_id: 'channel-0', is_middleware_enabled: false }]);
    expect(state.host_genesis_state.port).toBe('icahost');

    const fresh = blockContext();
    initIcaGenesis(fresh, controller, host, exported);
    expect(await exportIcaGenesis(fresh, controller, host)).toEqual(exported);
  });

  test('validation names each problem', () => {
    const bad = {
      controller_genesis_state: { active_channels: [{ connection_id: 'connection-0', port_id: 'p', channel_id: 'channel-0', is_middleware_enabled: false }], interchain_accounts: [], ports: ['icacontroller-x'], params: { controller_enabled: true } },
      host_genesis_state: { active_channels: [], interchain_accounts: [{ connection_id: 'connection-0', port_id: 'icacontroller-x', account_address: 'token1/bad' }], port: 'icahost', params: { host_enabled: true, allow_messages: ['  '] } },
    } as JsonObject;
    expect(validateIcaGenesis(bad)).toEqual([
      expect.stringContaining('controller active channel 0: identifier p has invalid length'),
      expect.stringContaining('host interchain account 0: address must contain strictly alphanumeric characters'),
      'host params: parameter must not contain empty strings: [  ]',
    ]);
  });
});

describe('ICA controller Msgs refuse bad input with ibc-go’s errors', () => {
  test('MsgSendTx: invalid connection id, empty packet data, zero timeout, no active channel; MsgRegisterInterchainAccount: bad connection id', async () => {
    const ctx = blockContext();
    const router = chain.app.manager.router;
    const data = create(InterchainAccountPacketDataSchema, { type: Type.EXECUTE_TX, data: toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages: [msgSend(alice.bech32, bob.bech32, 1n)] })) });
    const sendTx = (init: Partial<{ connectionId: string; packetData: typeof data; relativeTimeout: bigint }>) =>
      router.dispatch(ctx, pack(MsgSendTxSchema, { owner: alice.bech32, connectionId: 'connection-0', packetData: data, relativeTimeout: 60_000_000_000n, ...init }), [alice.address]);
    await expect(sendTx({ connectionId: 'c0' })).rejects.toThrow('invalid connection ID: identifier c0 has invalid length: 2, must be between 10-64 characters: invalid identifier');
    await expect(sendTx({ packetData: create(InterchainAccountPacketDataSchema, { type: Type.EXECUTE_TX }) })).rejects.toThrow('invalid interchain account packet data: packet data cannot be empty: invalid outgoing data');
    await expect(sendTx({ relativeTimeout: 0n })).rejects.toThrow('relative timeout cannot be zero: invalid request');
    await expect(sendTx({})).rejects.toThrow(`failed to retrieve active channel on connection connection-0 for port icacontroller-${alice.bech32}: no active channel for this owner`);
    await expect(router.dispatch(ctx, pack(MsgRegisterInterchainAccountSchema, { owner: alice.bech32, connectionId: 'conn', version: '' }), [alice.address])).rejects.toThrow('invalid connection ID');
    await expect(router.dispatch(ctx, pack(MsgSubmitTxSchema, { owner: alice.bech32, connectionId: 'connection-0', msg: msgSend(alice.bech32, bob.bech32, 1n) }), [alice.address])).rejects.toThrow(
      `failed to retrieve active channel for port icacontroller-${alice.bech32}: no active channel for this owner`,
    );
  });
});

describe('ICA x/params subspaces', () => {
  test('icacontroller ControllerEnabled and icahost HostEnabled/AllowMessages read as amino JSON and change through the subspace, validated', () => {
    const ctx = blockContext();
    const spaces = chain.app.manager.paramSpaces;
    expect([spaces.get('icacontroller')!.keys, spaces.get('icahost')!.keys]).toEqual([['ControllerEnabled'], ['HostEnabled', 'AllowMessages']]);
    expect([spaces.get('icacontroller')!.get(ctx, 'ControllerEnabled'), spaces.get('icahost')!.get(ctx, 'AllowMessages')]).toEqual(['true', '["*"]']);
    spaces.get('icahost')!.set(ctx, [{ key: 'AllowMessages', value: '["/cosmos.bank.v1beta1.MsgSend","/cosmos.staking.v1beta1.MsgDelegate"]' }]);
    const host = chain.app.manager.keeper<{ host: HostKeeper }>('interchainaccounts').host;
    expect(host.getParams(ctx).allowMessages).toEqual(['/cosmos.bank.v1beta1.MsgSend', '/cosmos.staking.v1beta1.MsgDelegate']);
    expect(() => spaces.get('icahost')!.set(ctx, [{ key: 'AllowMessages', value: '[""]' }])).toThrow('parameter must not contain empty strings');
    spaces.get('icacontroller')!.set(ctx, [{ key: 'ControllerEnabled', value: 'false' }]);
    expect(spaces.get('icacontroller')!.get(ctx, 'ControllerEnabled')).toBe('false');
  });
});
