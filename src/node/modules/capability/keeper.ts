/**
 * The capability keeper (cosmos-sdk v0.46 x/capability/keeper): object capabilities that modules
 * create, claim and authenticate through their own ScopedKeeper. The persisted state is the next
 * index and, per index, the sorted set of owners (module, name). A capability is a JS object
 * compared by identity (the SDK's *Capability pointer); the keeper keeps one object per index.
 *
 * The SDK also keeps module/name → index in a memory store that follows the tx branch. Here the
 * name lookup lives in a plain map of candidate indices, rebuilt from the persisted owners at
 * genesis and at the first BeginBlock after a start (InitMemStore); every hit is checked against
 * the owners as the context's branch sees them. So an entry left behind by a message whose
 * writes were dropped is never believed, and lookups behave as if the maps were branched.
 */
import { create } from '@bufbuild/protobuf';
import { CapabilityOwnersSchema, OwnerSchema, type CapabilityOwners, type Owner } from '../../../gen/cosmos/capability/v1beta1/capability_pb.js';
import type { StoreProvider } from '../../collections/index.js';
import type { Capability, ScopedKeeper } from '../ibc/core/port/types.js';
import type { Context } from '../shared/context.js';
import { CapabilityErrors } from './errors.js';
import { CapabilityIndex, CapabilityOwnersByIndex } from './keys.js';

/** The SDK's DefaultIndex: the first capability gets index 1. */
export const DEFAULT_INDEX = 1n;

class CapabilityObject implements Capability {
  constructor(readonly index: bigint) {
    Object.freeze(this);
  }
}

function ownerKey(owner: Owner): string {
  return `${owner.module}/${owner.name}`;
}

/** The SDK's Owner.String (YAML). */
export function formatOwner(owner: Owner): string {
  return `module: ${owner.module}\nname: ${owner.name}\n`;
}

/** The position of `owner` in the sorted set, and whether it is there (CapabilityOwners.Get). */
function findOwner(owners: CapabilityOwners, owner: Owner): { at: number; found: boolean } {
  const key = ownerKey(owner);
  let lo = 0;
  let hi = owners.owners.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ownerKey(owners.owners[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return { at: lo, found: lo < owners.owners.length && ownerKey(owners.owners[lo]!) === key };
}

export class CapabilityKeeper {
  /** index → the capability object (the SDK's capMap). */
  private readonly capabilities = new Map<bigint, CapabilityObject>();
  /** module → name → candidate indices (checked against the persisted owners on every use). */
  private readonly names = new Map<string, Map<string, Set<bigint>>>();
  private readonly scoped = new Map<string, ScopedCapabilityKeeper>();
  private initialized = false;

  /** A module's view (ScopeToModule); one per module. */
  scopeToModule(module: string): ScopedCapabilityKeeper {
    if (module.trim() === '') throw new Error('cannot scope to an empty module name');
    if (this.scoped.has(module)) throw new Error(`cannot create multiple scoped keepers for the same module name: ${module}`);
    const keeper = new ScopedCapabilityKeeper(this, module);
    this.scoped.set(module, keeper);
    return keeper;
  }

  isInitialized(): boolean {
    return this.initialized;
  }

  getLatestIndex(ctx: StoreProvider): bigint {
    return CapabilityIndex.get(ctx) ?? 0n;
  }

  /** InitializeIndex: only once, with a non-zero index. */
  initializeIndex(ctx: StoreProvider, index: bigint): void {
    if (index === 0n) throw new Error('SetIndex requires index > 0');
    if (this.getLatestIndex(ctx) !== 0n) throw new Error('SetIndex requires index to not be set');
    CapabilityIndex.set(ctx, index);
  }

  getOwners(ctx: StoreProvider, index: bigint): CapabilityOwners | undefined {
    return CapabilityOwnersByIndex.get(ctx, index);
  }

  setOwners(ctx: StoreProvider, index: bigint, owners: CapabilityOwners): void {
    CapabilityOwnersByIndex.set(ctx, index, owners);
  }

  /** InitMemStore: the in-memory lookups from every persisted owner set. */
  async initMemStore(ctx: StoreProvider): Promise<void> {
    this.capabilities.clear();
    this.names.clear();
    for await (const [index, owners] of CapabilityOwnersByIndex.iterate(ctx)) {
      this.capabilityAt(index);
      for (const owner of owners.owners) this.remember(owner.module, owner.name, index);
    }
    this.initialized = true;
  }

  // ------------------------------------------------------------------ used by scoped keepers

  /** The object for `index`, made when none is known yet. */
  capabilityAt(index: bigint): CapabilityObject {
    let cap = this.capabilities.get(index);
    if (cap === undefined) {
      cap = new CapabilityObject(index);
      this.capabilities.set(index, cap);
    }
    return cap;
  }

  /** A fresh object for a newly created index (replacing one left by a dropped message). */
  freshCapability(index: bigint): CapabilityObject {
    const cap = new CapabilityObject(index);
    this.capabilities.set(index, cap);
    return cap;
  }

  isIssued(cap: Capability): boolean {
    return this.capabilities.get(cap.index) === cap;
  }

  remember(module: string, name: string, index: bigint): void {
    let byName = this.names.get(module);
    if (byName === undefined) {
      byName = new Map();
      this.names.set(module, byName);
    }
    let indices = byName.get(name);
    if (indices === undefined) {
      indices = new Set();
      byName.set(name, indices);
    }
    indices.add(index);
  }

  /** The index `module` owns under `name`, as the context's branch sees the owners. */
  lookupIndex(ctx: StoreProvider, module: string, name: string): bigint | undefined {
    const candidates = this.names.get(module)?.get(name);
    if (candidates === undefined) return undefined;
    const wanted = create(OwnerSchema, { module, name });
    for (const index of candidates) {
      const owners = this.getOwners(ctx, index);
      if (owners !== undefined && findOwner(owners, wanted).found) return index;
    }
    return undefined;
  }

  /** addOwner: `module` owns `cap` under `name` (ErrOwnerClaimed when it already does). */
  addOwner(ctx: StoreProvider, cap: Capability, module: string, name: string): void {
    const owners = this.getOwners(ctx, cap.index) ?? create(CapabilityOwnersSchema);
    const owner = create(OwnerSchema, { module, name });
    const { at, found } = findOwner(owners, owner);
    if (found) throw CapabilityErrors.OwnerClaimed.wrap(formatOwner(owner));
    owners.owners.splice(at, 0, owner);
    this.setOwners(ctx, cap.index, owners);
  }

  /** The name `module` owns `cap` under, if it does. */
  nameOf(ctx: StoreProvider, cap: Capability, module: string): string | undefined {
    return this.getOwners(ctx, cap.index)?.owners.find((owner) => owner.module === module)?.name;
  }
}

/** One module's capabilities (the SDK's ScopedKeeper). */
export class ScopedCapabilityKeeper implements ScopedKeeper {
  constructor(
    private readonly keeper: CapabilityKeeper,
    readonly module: string,
  ) {}

  /** NewCapability: a capability under a name this module does not use yet, owned by this module. */
  newCapability(ctx: Context, name: string): Capability {
    if (name.trim() === '') throw CapabilityErrors.InvalidCapabilityName.wrap('capability name cannot be empty');
    if (this.getCapability(ctx, name) !== undefined) throw CapabilityErrors.CapabilityTaken.wrap(`module: ${this.module}, name: ${name}`);
    const index = this.keeper.getLatestIndex(ctx);
    const cap = this.keeper.freshCapability(index);
    this.keeper.addOwner(ctx, cap, this.module, name);
    CapabilityIndex.set(ctx, index + 1n);
    this.keeper.remember(this.module, name, index);
    return cap;
  }

  /** AuthenticateCapability: `cap` is the capability this module owns under `name`. */
  authenticateCapability(ctx: Context, cap: Capability, name: string): boolean {
    if (name.trim() === '' || !this.keeper.isIssued(cap)) return false;
    return this.getCapabilityName(ctx, cap) === name;
  }

  /** ClaimCapability: this module becomes an owner of `cap` under `name`. */
  claimCapability(ctx: Context, cap: Capability, name: string): void {
    if (!this.keeper.isIssued(cap)) throw CapabilityErrors.NilCapability.wrap('cannot claim a capability this keeper did not issue');
    if (name.trim() === '') throw CapabilityErrors.InvalidCapabilityName.wrap('cannot claim capability with empty name');
    this.keeper.addOwner(ctx, cap, this.module, name);
    this.keeper.remember(this.module, name, cap.index);
  }

  getCapability(ctx: StoreProvider, name: string): Capability | undefined {
    if (name.trim() === '') return undefined;
    const index = this.keeper.lookupIndex(ctx, this.module, name);
    return index === undefined ? undefined : this.keeper.capabilityAt(index);
  }

  getCapabilityName(ctx: StoreProvider, cap: Capability): string | undefined {
    return this.keeper.nameOf(ctx, cap, this.module);
  }

  getOwners(ctx: StoreProvider, name: string): CapabilityOwners | undefined {
    const cap = this.getCapability(ctx, name);
    return cap === undefined ? undefined : this.keeper.getOwners(ctx, cap.index);
  }

  /** LookupModules: the modules owning the capability this module holds under `name`, and it. */
  lookupModules(ctx: StoreProvider, name: string): { modules: string[]; capability: Capability } {
    if (name.trim() === '') throw CapabilityErrors.InvalidCapabilityName.wrap('cannot lookup modules with empty capability name');
    const capability = this.getCapability(ctx, name);
    if (capability === undefined) throw CapabilityErrors.CapabilityNotFound.wrap(name);
    const owners = this.keeper.getOwners(ctx, capability.index);
    if (owners === undefined || owners.owners.length === 0) throw CapabilityErrors.CapabilityOwnersNotFound.wrap(name);
    return { modules: owners.owners.map((owner) => owner.module), capability };
  }
}
