/**
 * The module manager on small declarations: it refuses inconsistent module lists and orders,
 * wires keepers only through `requires`, fans hooks out in module order, dispatches messages
 * through the router with signer checks, and runs migrations version by version.
 */
import { create } from '@bufbuild/protobuf';
import { MsgSendResponseSchema, MsgSendSchema, Msg as BankMsg } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { messageSigners } from '../../../src/node/app/tx.js';
import { registry } from '../../../src/node/codec/index.js';
import { accString, moduleAddress } from '../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { isSdkError } from '../../../src/node/modules/shared/errors.js';
import { msgRoute } from '../../../src/node/modules/shared/module.js';
import { contentRoute } from '../../../src/node/platform/content.js';
import { ModuleManager, type ModuleManagerOptions } from '../../../src/node/platform/manager.js';
import { defineModule, type ModuleDeclaration, type ModuleOrders } from '../../../src/node/platform/module.js';
import { MemKVStore } from '../../../src/node/store/index.js';
import { StoreKey } from '../../../src/node/store/storeKey.js';
import { msgSend, testKey } from '../app/helpers.js';

const NO_APP = { deliverTx: async (): Promise<{ code: number; log: string }> => ({ code: 0, log: '' }) };

function orders(partial: Partial<ModuleOrders>, names: string[]): ModuleOrders {
  return { preBlock: [], beginBlock: [], endBlock: [], initGenesis: names, exportGenesis: names, ...partial };
}

function manager(modules: ModuleDeclaration[], order: Partial<ModuleOrders> = {}, extra: Partial<ModuleManagerOptions> = {}): ModuleManager {
  return new ModuleManager({ modules, orders: orders(order, modules.map((m) => m.name)), registry, signersOf: messageSigners, app: NO_APP, ...extra });
}

function plain(name: string, extra: Partial<ModuleDeclaration> = {}): ModuleDeclaration {
  return defineModule({ name, consensusVersion: 1, create: () => ({ keeper: { name } }), ...extra });
}

function ctx(): Context {
  const store = new MemKVStore();
  return new Context({ mode: 'block', multiStore: { getStore: () => store, storeNames: () => ['x'], branch: () => { throw new Error('no branches'); } }, header: emptyHeader('test', 1) });
}

describe('ModuleManager: declarations and orders', () => {
  test('a module missing from the genesis orders is refused', () => {
    const a = plain('a');
    expect(() => new ModuleManager({ modules: [a], orders: { preBlock: [], beginBlock: [], endBlock: [], initGenesis: [], exportGenesis: ['a'] }, registry, signersOf: messageSigners, app: NO_APP })).toThrow(
      'module a is missing from order initGenesis',
    );
  });

  test('a block hook needs its order, and an order needs the hook', () => {
    const withBegin = defineModule({ name: 'a', consensusVersion: 1, create: () => ({ keeper: undefined, beginBlock: async () => {} }) });
    expect(() => manager([withBegin])).toThrow('module a has a beginBlock hook but is missing from order beginBlock');
    expect(() => manager([plain('a')], { endBlock: ['a'] })).toThrow('order endBlock names a, which has no endBlock hook');
    expect(() => manager([plain('a')], { beginBlock: ['b'] })).toThrow('order beginBlock names b, which is not in the module list');
  });

  test('duplicate modules, stores and module accounts, and late requirements are refused', () => {
    expect(() => manager([plain('a'), plain('a')])).toThrow('module a is listed twice');
    const store = StoreKey.persistent('s');
    expect(() => manager([plain('a', { storeKeys: [store] }), plain('b', { storeKeys: [StoreKey.persistent('s')] })])).toThrow('store s is declared by both a and b');
    expect(() => manager([plain('a', { moduleAccounts: { pool: [] } }), plain('b', { moduleAccounts: { pool: ['burner'] } })])).toThrow('module account pool is declared twice (again by b)');
    expect(() => manager([plain('a', { requires: ['b'] }), plain('b')])).toThrow('module a requires b, which must come earlier in the module list');
  });

  test('keepers are handed out only through requires', () => {
    const b = defineModule({ name: 'b', consensusVersion: 1, create: (deps) => ({ keeper: deps.keeper<{ name: string }>('a') }) });
    expect(() => manager([plain('a'), b])).toThrow('module b asks for the a keeper without declaring it in requires');
    const m = manager([plain('a'), { ...b, requires: ['a'] }]);
    expect(m.keeper<{ name: string }>('b')).toEqual({ name: 'a' });
  });

  test('module accounts of every declaration reach every module; the authority is the gov module account', () => {
    let seen: string[] = [];
    let authority: Uint8Array = new Uint8Array();
    const probe = defineModule({
      name: 'probe',
      consensusVersion: 1,
      moduleAccounts: { probe_pool: ['minter'] },
      create: (deps) => {
        seen = [...deps.moduleAccounts.keys()];
        authority = deps.authority;
        return { keeper: undefined };
      },
    });
    manager([plain('a', { moduleAccounts: { a_pool: ['burner'] } }), probe]);
    expect(seen).toEqual(['a_pool', 'probe_pool']);
    expect(accString(authority)).toBe(accString(moduleAddress('gov')));
  });
});

describe('ModuleManager: hooks', () => {
  interface CounterHooks {
    afterIncrement(by: number): Promise<void>;
    beforeReset(): Promise<void>;
  }

  test('every registered implementation runs in module order; absent methods are skipped', async () => {
    const calls: string[] = [];
    const counter = defineModule({
      name: 'counter',
      consensusVersion: 1,
      create: (deps) => ({ keeper: { hooks: (): CounterHooks => deps.hooks<CounterHooks>() } }),
    });
    const first = defineModule({ name: 'first', consensusVersion: 1, create: () => ({ keeper: undefined, hooks: { counter: { afterIncrement: async (by: number) => void calls.push(`first:${by}`) } } }) });
    const second = defineModule({
      name: 'second',
      consensusVersion: 1,
      create: () => ({ keeper: undefined, hooks: { counter: { afterIncrement: async (by: number) => void calls.push(`second:${by}`), beforeReset: async () => void calls.push('second:reset') } } }),
    });
    const m = manager([counter, first, second]);
    const hooks = m.keeper<{ hooks(): CounterHooks }>('counter').hooks();
    await hooks.afterIncrement(3);
    await hooks.beforeReset();
    expect(calls).toEqual(['first:3', 'second:3', 'second:reset']);
    expect(m.hooks.observersOf('counter')).toEqual(['first', 'second']);
  });

  test('an error in a hook reaches the caller', async () => {
    const counter = defineModule({ name: 'counter', consensusVersion: 1, create: (deps) => ({ keeper: deps.hooks<CounterHooks>() }) });
    const failing = defineModule({ name: 'failing', consensusVersion: 1, create: () => ({ keeper: undefined, hooks: { counter: { afterIncrement: async () => { throw new Error('refused by failing'); } } } }) });
    const m = manager([counter, failing]);
    await expect(m.keeper<CounterHooks>('counter').afterIncrement(1)).rejects.toThrow('refused by failing');
  });

  test('hooks on an unknown module are refused', () => {
    const stray = defineModule({ name: 'stray', consensusVersion: 1, create: () => ({ keeper: undefined, hooks: { nowhere: {} } }) });
    expect(() => manager([stray])).toThrow('module stray registers hooks on unknown module nowhere');
  });
});

describe('ModuleManager: message router', () => {
  const alice = testKey('alice');
  const bob = testKey('bob');
  const received: string[] = [];
  const bank = defineModule({
    name: 'bank',
    consensusVersion: 1,
    msgService: BankMsg,
    create: () => ({
      keeper: undefined,
      msgRoutes: [
        msgRoute(BankMsg.method.send, (_ctx, msg) => {
          received.push(`${msg.fromAddress}->${msg.toAddress}`);
          return create(MsgSendResponseSchema);
        }),
      ],
    }),
  });

  test('dispatch runs the handler when the message signer is authorized, and returns the packed response', async () => {
    const m = manager([bank]);
    const result = await m.router.dispatch(ctx(), msgSend(alice.bech32, bob.bech32, 1n), [alice.address]);
    expect(result.response.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSendResponse');
    expect(received).toContain(`${alice.bech32}->${bob.bech32}`);
  });

  test('dispatch refuses a message whose signer the caller does not hold', async () => {
    const m = manager([bank]);
    const err = await m.router.dispatch(ctx(), msgSend(alice.bech32, bob.bech32, 1n), [bob.address]).catch((e: unknown) => e);
    expect(isSdkError(err) && err.abciCode).toBe(4);
    expect((err as Error).message).toContain(`requires signer ${alice.bech32}`);
  });

  test('an unrouted message type is refused with code 6', async () => {
    const m = manager([plain('a')]);
    const err = await m.router.dispatch(ctx(), msgSend(alice.bech32, bob.bech32, 1n), [alice.address]).catch((e: unknown) => e);
    expect(isSdkError(err) && err.abciCode).toBe(6);
    expect((err as Error).message).toBe('unrecognized message route: /cosmos.bank.v1beta1.MsgSend: unknown request');
  });

  test('a type routed by two modules is refused', () => {
    expect(() => manager([bank, { ...bank, name: 'bank2' }])).toThrow('message /cosmos.bank.v1beta1.MsgSend is routed twice (again by module bank2)');
  });
});

describe('ModuleManager: legacy proposal contents', () => {
  const alice = testKey('alice');
  const bob = testKey('bob');
  // Any message serves as a content type here; real contents are TextProposal, ParameterChangeProposal …
  const owner = (seen: string[]): ModuleDeclaration =>
    plain('owner', { create: () => ({ keeper: undefined, legacyContent: [contentRoute(MsgSendSchema, async (_ctx, content) => void seen.push(content.toAddress))] }) });

  test('a content type is carried out by the module that declares it, seen by every module', async () => {
    const seen: string[] = [];
    const gov = defineModule({ name: 'gov', consensusVersion: 1, create: (deps) => ({ keeper: { has: (url: string) => deps.contentRouter.has(url) } }) });
    const m = manager([owner(seen), gov]);
    expect(m.contentRouter.typeUrls()).toEqual(['/cosmos.bank.v1beta1.MsgSend']);
    expect(m.keeper<{ has(url: string): boolean }>('gov').has('/cosmos.bank.v1beta1.MsgSend')).toBe(true);
    expect(m.contentRouter.owner('/cosmos.bank.v1beta1.MsgSend')).toBe('owner');
    const content = msgSend(alice.bech32, bob.bech32, 1n);
    await m.contentRouter.execute(ctx(), content);
    expect(seen).toEqual([bob.bech32]);
  });

  test('an unrouted content type is gov/9, undecodable bytes are a decode error, a type routed twice is refused', async () => {
    const m = manager([owner([])]);
    const unrouted = await m.contentRouter.execute(ctx(), { $typeName: 'google.protobuf.Any', typeUrl: '/cosmos.gov.v1beta1.TextProposal', value: new Uint8Array() }).catch((e: unknown) => e);
    expect(isSdkError(unrouted) && [unrouted.root.codespace, unrouted.abciCode]).toEqual(['gov', 9]);
    expect((unrouted as Error).message).toBe('/cosmos.gov.v1beta1.TextProposal: no handler exists for proposal type');
    const garbage = await m.contentRouter.execute(ctx(), { $typeName: 'google.protobuf.Any', typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: Uint8Array.of(0xff) }).catch((e: unknown) => e);
    expect(isSdkError(garbage) && garbage.abciCode).toBe(2);
    expect(() => manager([owner([]), { ...owner([]), name: 'owner2' }])).toThrow('proposal content /cosmos.bank.v1beta1.MsgSend is routed by owner and again by owner2');
  });
});

describe('ModuleManager: versions and migrations', () => {
  test('migrations run from the stored version up to the consensus version, in order', async () => {
    const steps: string[] = [];
    const evolving = plain('evolving', {
      consensusVersion: 3,
      migrations: { 1: async () => void steps.push('1->2'), 2: async () => void steps.push('2->3') },
    });
    const m = manager([evolving]);
    expect(await m.runMigrations(ctx(), { evolving: 1 }, { denom: 'attotoken' })).toEqual({ evolving: 3 });
    expect(steps).toEqual(['1->2', '2->3']);
  });

  test('a missing migration, or a state newer than the binary, is refused', async () => {
    const m = manager([plain('gap', { consensusVersion: 3, migrations: { 1: async () => {} } })]);
    await expect(m.runMigrations(ctx(), { gap: 1 }, { denom: 'attotoken' })).rejects.toThrow('no migration of module gap from consensus version 2 to 3');
    await expect(m.runMigrations(ctx(), { gap: 4 }, { denom: 'attotoken' })).rejects.toThrow('module gap is at consensus version 4, newer than this binary\'s 3');
  });

  test('a module new to the state gets its default genesis', async () => {
    const inits: unknown[] = [];
    const fresh = defineModule({
      name: 'fresh',
      consensusVersion: 1,
      create: () => ({
        keeper: undefined,
        genesis: { default: () => ({ value: 'default' }), validate: () => [], init: async (_ctx, json) => void inits.push(json), export: async () => ({}) },
      }),
    });
    await manager([fresh]).runMigrations(ctx(), {}, { denom: 'attotoken' });
    expect(inits).toEqual([{ value: 'default' }]);
  });
});
