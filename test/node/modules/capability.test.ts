/**
 * x/capability: scoped keepers create, claim and authenticate capabilities by name; a capability
 * is its object (a copy with the same index does not authenticate); what a dropped branch did is
 * never believed; a fresh keeper over the same store finds every owner after InitMemStore; the
 * genesis is validated as the SDK's and exported as it was imported.
 */
import { describe, expect, test } from '@jest/globals';
import { CapabilityKeeper } from '../../../src/node/modules/capability/keeper.js';
import { defaultCapabilityGenesis, exportCapabilityGenesis, initCapabilityGenesis, validateCapabilityGenesis } from '../../../src/node/modules/capability/genesis.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/index.js';

async function openStore(): Promise<RootMultiStore> {
  return openCommitMultiStore(memoryDatabase(), { stores: ['capability'], syncCommits: false });
}

function contextOn(store: RootMultiStore) {
  const branch = store.branch();
  return { branch, ctx: new Context({ mode: 'block', multiStore: branch, header: emptyHeader('test-1', 1) }) };
}

describe('scoped keepers', () => {
  test('create, claim, authenticate, look up; names are per module; a copy of a capability is not it', async () => {
    const store = await openStore();
    const { ctx } = contextOn(store);
    const keeper = new CapabilityKeeper();
    await initCapabilityGenesis(ctx, keeper, defaultCapabilityGenesis());
    const ibc = keeper.scopeToModule('ibc');
    const transfer = keeper.scopeToModule('transfer');
    expect(() => keeper.scopeToModule('ibc')).toThrow('cannot create multiple scoped keepers for the same module name: ibc');

    const port = ibc.newCapability(ctx, 'ports/transfer');
    expect(port.index).toBe(1n);
    expect(() => ibc.newCapability(ctx, 'ports/transfer')).toThrow('module: ibc, name: ports/transfer: capability name already taken');
    expect(() => ibc.newCapability(ctx, ' ')).toThrow('capability name cannot be empty: capability name not valid');
    expect(transfer.getCapability(ctx, 'ports/transfer')).toBeUndefined();
    transfer.claimCapability(ctx, port, 'ports/transfer');
    expect(() => transfer.claimCapability(ctx, port, 'ports/transfer')).toThrow('given owner already claimed capability');
    expect(transfer.getCapability(ctx, 'ports/transfer')).toBe(port);
    expect(ibc.authenticateCapability(ctx, port, 'ports/transfer')).toBe(true);
    expect(transfer.authenticateCapability(ctx, port, 'ports/transfer')).toBe(true);
    expect(transfer.authenticateCapability(ctx, port, 'ports/other')).toBe(false);
    expect(ibc.authenticateCapability(ctx, { index: port.index }, 'ports/transfer')).toBe(false);
    expect(() => transfer.claimCapability(ctx, { index: 1n }, 'x')).toThrow('provided capability is nil');
    expect(ibc.lookupModules(ctx, 'ports/transfer')).toEqual({ modules: ['ibc', 'transfer'], capability: port });
    expect(() => ibc.lookupModules(ctx, 'ports/none')).toThrow('ports/none: capability not found');
    expect(keeper.getLatestIndex(ctx)).toBe(2n);
  });

  test('a capability made in a dropped branch is not believed; its index is made again', async () => {
    const store = await openStore();
    const keeper = new CapabilityKeeper();
    const ibc = keeper.scopeToModule('ibc');
    const setup = contextOn(store);
    await initCapabilityGenesis(setup.ctx, keeper, defaultCapabilityGenesis());
    setup.branch.write();

    const dropped = contextOn(store);
    const lost = ibc.newCapability(dropped.ctx, 'capabilities/ports/transfer/channels/channel-0');
    expect(lost.index).toBe(1n);
    dropped.branch.discard();

    const kept = contextOn(store);
    expect(ibc.getCapability(kept.ctx, 'capabilities/ports/transfer/channels/channel-0')).toBeUndefined();
    expect(ibc.authenticateCapability(kept.ctx, lost, 'capabilities/ports/transfer/channels/channel-0')).toBe(false);
    const other = ibc.newCapability(kept.ctx, 'ports/transfer');
    expect(other.index).toBe(1n);
    expect(other).not.toBe(lost);
    expect(ibc.getCapability(kept.ctx, 'ports/transfer')).toBe(other);
    // The name of the dropped capability is free again.
    expect(ibc.newCapability(kept.ctx, 'capabilities/ports/transfer/channels/channel-0').index).toBe(2n);
  });

  test('after a restart, InitMemStore finds every persisted owner', async () => {
    const store = await openStore();
    const first = new CapabilityKeeper();
    const setup = contextOn(store);
    await initCapabilityGenesis(setup.ctx, first, defaultCapabilityGenesis());
    const port = first.scopeToModule('ibc').newCapability(setup.ctx, 'ports/transfer');
    first.scopeToModule('transfer').claimCapability(setup.ctx, port, 'ports/transfer');
    setup.branch.write();
    await store.commit();

    const restarted = new CapabilityKeeper();
    const ibc = restarted.scopeToModule('ibc');
    const transfer = restarted.scopeToModule('transfer');
    const { ctx } = contextOn(store);
    expect(restarted.isInitialized()).toBe(false);
    expect(transfer.getCapability(ctx, 'ports/transfer')).toBeUndefined();
    await restarted.initMemStore(ctx);
    const found = transfer.getCapability(ctx, 'ports/transfer')!;
    expect(found.index).toBe(1n);
    expect(ibc.getCapability(ctx, 'ports/transfer')).toBe(found);
    expect(ibc.authenticateCapability(ctx, found, 'ports/transfer')).toBe(true);
    expect(await exportCapabilityGenesis(ctx, restarted)).toEqual({
      index: '2',
      owners: [{ index: '1', index_owners: { owners: [{ module: 'ibc', name: 'ports/transfer' }, { module: 'transfer', name: 'ports/transfer' }] } }],
    });
  });
});

describe('genesis', () => {
  test('the SDK’s checks, each with its message', () => {
    const owners = (index: string, list: { module: string; name: string }[]) => ({ index, index_owners: { owners: list } });
    expect(validateCapabilityGenesis(defaultCapabilityGenesis())).toEqual([]);
    expect(validateCapabilityGenesis({ index: '0', owners: [] })).toEqual(['capability: capability index must be non-zero']);
    expect(validateCapabilityGenesis({ index: '3', owners: [owners('1', [])] })).toEqual(['capability: empty owners in genesis']);
    expect(validateCapabilityGenesis({ index: '3', owners: [owners('3', [{ module: 'ibc', name: 'ports/transfer' }])] })).toEqual(['capability: owners exist for index 3 outside of valid range: 1-2']);
    expect(validateCapabilityGenesis({ index: '3', owners: [owners('1', [{ module: ' ', name: 'ports/transfer' }])] })).toEqual(["capability: owner's module cannot be blank: module:  \nname: ports/transfer\n"]);
    expect(validateCapabilityGenesis({ index: '3', owners: [owners('1', [{ module: 'ibc', name: '' }])] })).toEqual(["capability: owner's name cannot be blank: module: ibc\nname: \n"]);
    expect(validateCapabilityGenesis({ index: 'x' })[0]).toMatch(/^capability: /);
  });

  test('imported owners are exported unchanged', async () => {
    const store = await openStore();
    const keeper = new CapabilityKeeper();
    const { ctx } = contextOn(store);
    const genesis = { index: '5', owners: [{ index: '2', index_owners: { owners: [{ module: 'ibc', name: 'ports/transfer' }, { module: 'transfer', name: 'ports/transfer' }] } }] };
    await initCapabilityGenesis(ctx, keeper, genesis);
    expect(await exportCapabilityGenesis(ctx, keeper)).toEqual(genesis);
    expect(keeper.scopeToModule('transfer').getCapability(ctx, 'ports/transfer')!.index).toBe(2n);
    await expect(initCapabilityGenesis(ctx, new CapabilityKeeper(), { index: '0' })).rejects.toThrow('invalid capability genesis: capability: capability index must be non-zero');
  });
});
