/**
 * The module manager (the SDK's module.Manager): takes the app's module list and hook orders,
 * checks them against each other, creates every module in list order, and runs them — genesis,
 * PreBlock/BeginBlock/EndBlock, after-commit, migrations. Everything an app derives from the
 * declarations (stores, Any registry, Msg routes, Query services, module accounts, amino names,
 * codespaces) is read from here.
 */
import { ParamSpaces } from './params.js';
import { type DescMessage, type DescService, type JsonObject, type JsonValue, type Registry } from '@bufbuild/protobuf';
import type { FeeGrantKeeper } from '../app/ante/expectedKeepers.js';
import type { AnteChain, AnteInsertion, SignatureFallback, SignaturePrecheck } from '../app/ante/types.js';
import type { ValidatorUpdate } from '../abci/types.js';
import { moduleAddress } from '../modules/shared/address.js';
import type { Context } from '../modules/shared/context.js';
import type { RegisteredError } from '../modules/shared/errors.js';
import type { QueryServiceImpl } from '../modules/shared/module.js';
import type { StoreKey } from '../store/storeKey.js';
import { ContentRouter } from './content.js';
import { HookRegistry } from './hooks.js';
import type { AppServices, EndBlockResult, GenesisDefaults, ModuleDeclaration, ModuleDeps, ModuleInstance, ModuleOrders, ModulePermission } from './module.js';
import { MsgRouter, type SignersOf } from './router.js';
import type { ModuleMigrator, VersionMap } from './upgrades.js';

/** The module whose account is the default authority (x/gov). */
export const GOV_MODULE_NAME = 'gov';

export interface ModuleManagerOptions {
  modules: readonly ModuleDeclaration[];
  orders: ModuleOrders;
  /** The Any registry, holding every type the modules declare (see `declaredTypes`). */
  registry: Registry;
  signersOf: SignersOf;
  app: AppServices;
  /** Authority of MsgUpdateParams-style messages; default the gov module account. */
  authority?: Uint8Array;
  /** The default genesis parameters a module new in an upgrade starts from; default denom attotoken. */
  genesisDefaults?: GenesisDefaults;
}

/** A module: its declaration and what `create` returned. */
export interface ManagedModule {
  readonly declaration: ModuleDeclaration;
  readonly instance: ModuleInstance;
}

export type { VersionMap };

export class ModuleManager {
  readonly modules: ReadonlyMap<string, ManagedModule>;
  readonly orders: ModuleOrders;
  readonly router: MsgRouter;
  readonly contentRouter = new ContentRouter();
  readonly paramSpaces = new ParamSpaces();
  readonly registry: Registry;
  readonly hooks = new HookRegistry();
  readonly authority: Uint8Array;
  readonly moduleAccounts: ReadonlyMap<string, readonly ModulePermission[]>;
  /** What x/upgrade gets: this manager's versions and migrations. */
  readonly migrator: ModuleMigrator;

  constructor(options: ModuleManagerOptions) {
    const declarations = options.modules;
    checkDeclarations(declarations, options.orders);
    this.orders = options.orders;
    this.authority = options.authority ?? moduleAddress(GOV_MODULE_NAME);
    this.registry = options.registry;
    const registry = this.registry;
    this.router = new MsgRouter(() => registry, options.signersOf);
    const genesisDefaults = options.genesisDefaults ?? { denom: 'attotoken' };
    this.migrator = {
      versionMap: () => this.versionMap(),
      runMigrations: (ctx, from) => this.runMigrations(ctx, from, genesisDefaults),
    };

    const accounts = new Map<string, readonly ModulePermission[]>();
    for (const declaration of declarations) {
      for (const [name, permissions] of Object.entries(declaration.moduleAccounts ?? {})) {
        if (accounts.has(name)) throw new Error(`module account ${name} is declared twice (again by ${declaration.name})`);
        accounts.set(name, permissions);
      }
    }
    this.moduleAccounts = accounts;

    const created = new Map<string, ManagedModule>();
    for (const declaration of declarations) {
      const deps = this.depsFor(declaration, created, options.app);
      const instance = declaration.create(deps);
      created.set(declaration.name, { declaration, instance });
    }
    for (const { declaration, instance } of created.values()) {
      this.router.register(instance.msgRoutes ?? [], declaration.name);
      this.contentRouter.register(instance.legacyContent ?? [], declaration.name);
      if (instance.paramSpace !== undefined) this.paramSpaces.register(declaration.name, instance.paramSpace);
      for (const [subspace, space] of Object.entries(instance.paramSubspaces ?? {})) this.paramSpaces.register(subspace, space);
      for (const [target, hooks] of Object.entries(instance.hooks ?? {})) {
        if (!created.has(target)) throw new Error(`module ${declaration.name} registers hooks on unknown module ${target}`);
        this.hooks.register(target, declaration.name, hooks);
      }
    }
    this.router.seal();
    this.contentRouter.seal();
    this.modules = created;
    checkInstances(created, options.orders);
  }

  private depsFor(declaration: ModuleDeclaration, created: ReadonlyMap<string, ManagedModule>, app: AppServices): ModuleDeps {
    const requires = new Set(declaration.requires ?? []);
    const hooks = this.hooks;
    return {
      name: declaration.name,
      keeper<T>(module: string): T {
        if (!requires.has(module)) throw new Error(`module ${declaration.name} asks for the ${module} keeper without declaring it in requires`);
        const entry = created.get(module);
        if (entry === undefined) throw new Error(`module ${declaration.name} requires ${module}, which is not earlier in the module list`);
        return entry.instance.keeper as T;
      },
      hooks<T extends object>(): T {
        return hooks.fanOut<T>(declaration.name);
      },
      router: this.router,
      contentRouter: this.contentRouter,
      paramSpaces: this.paramSpaces,
      authority: this.authority,
      moduleAccounts: this.moduleAccounts,
      registry: this.registry,
      migrator: this.migrator,
      app,
    };
  }

  /** Modules in list order. */
  list(): ManagedModule[] {
    return [...this.modules.values()];
  }

  get(name: string): ManagedModule | undefined {
    return this.modules.get(name);
  }

  keeper<T>(name: string): T {
    const entry = this.modules.get(name);
    if (entry === undefined) throw new Error(`no module ${name}`);
    return entry.instance.keeper as T;
  }

  /** Every store of every module. */
  storeKeys(): StoreKey[] {
    return this.list().flatMap(({ declaration }) => [...(declaration.storeKeys ?? [])]);
  }

  queryServices(): QueryServiceImpl[] {
    return this.list().flatMap(({ instance }) => [...(instance.queryServices ?? [])]);
  }

  /** Resolves when every module's `ready` has. */
  async ready(): Promise<void> {
    await Promise.all(this.list().map(({ instance }) => instance.ready?.()));
  }

  /** The ante chains modules declare, by extension option type URL. */
  anteChains(): [string, AnteChain][] {
    return this.list().flatMap(({ instance }) => Object.entries(instance.anteChains ?? {}));
  }

  /** The decorators modules add to the default ante chain, in module order. */
  anteDecorators(): AnteInsertion[] {
    return this.list().flatMap(({ instance }) => [...(instance.anteDecorators ?? [])]);
  }

  /** Amino JSON names declared by modules (for messages whose proto has none). */
  /** The fee-granter hook a module offers to the ante chain (feegrant), if any; two offering it is a wiring error. */
  feeGrantKeeper(): FeeGrantKeeper | undefined {
    const offered = this.list().filter((module) => module.instance.feeGrantKeeper !== undefined);
    if (offered.length > 1) throw new Error(`modules ${offered.map((module) => module.declaration.name).join(', ')} all offer a fee-grant keeper`);
    return offered[0]?.instance.feeGrantKeeper;
  }

  /** The signature fallback a module offers to the ante chain (the evm module's EIP-712), if any; two is a wiring error. */
  signatureFallback(): SignatureFallback | undefined {
    const offered = this.list().filter((module) => module.instance.signatureFallback !== undefined);
    if (offered.length > 1) throw new Error(`modules ${offered.map((module) => module.declaration.name).join(', ')} all offer a signature fallback`);
    return offered[0]?.instance.signatureFallback;
  }

  /** The modules' pre-checks of signatures (App.precheckTx), in module order. */
  signaturePrechecks(): SignaturePrecheck[] {
    return this.list().flatMap(({ instance }) => (instance.signaturePrecheck === undefined ? [] : [instance.signaturePrecheck]));
  }

  aminoNames(): Map<string, string> {
    const names = new Map<string, string>();
    for (const { declaration } of this.list()) for (const [typeName, name] of Object.entries(declaration.aminoNames ?? {})) names.set(typeName, name);
    return names;
  }

  /** Every module's error table. */
  errors(): { module: string; errors: RegisteredError[] }[] {
    return this.list().map(({ declaration }) => ({ module: declaration.name, errors: Object.values(declaration.errors ?? {}) }));
  }

  versionMap(): VersionMap {
    const map: VersionMap = {};
    for (const { declaration } of this.list()) map[declaration.name] = declaration.consensusVersion;
    return map;
  }

  // ------------------------------------------------------------------ genesis

  defaultGenesis(defaults: GenesisDefaults): Record<string, JsonValue> {
    const appState: Record<string, JsonValue> = {};
    for (const { declaration, instance } of this.list()) if (instance.genesis) appState[declaration.name] = instance.genesis.default(defaults);
    return appState;
  }

  /** Every module's problems, "<module>: <problem>". */
  validateGenesis(appState: Record<string, JsonValue>): string[] {
    const problems: string[] = [];
    for (const { declaration, instance } of this.list()) {
      if (!instance.genesis) continue;
      for (const problem of instance.genesis.validate(appState[declaration.name])) problems.push(`${declaration.name}: ${problem}`);
    }
    return problems;
  }

  /** InitGenesis in the declared order; the validator set comes from one module at most. */
  async initGenesis(ctx: Context, appState: Record<string, JsonValue>): Promise<ValidatorUpdate[]> {
    let validators: ValidatorUpdate[] = [];
    let from: string | undefined;
    for (const name of this.orders.initGenesis) {
      const genesis = this.modules.get(name)!.instance.genesis;
      if (genesis === undefined) continue;
      const updates = (await genesis.init(ctx, appState[name])) ?? [];
      if (updates.length > 0) {
        if (from !== undefined) throw new Error(`validator InitGenesis updates already set by module ${from}, again by ${name}`);
        validators = updates;
        from = name;
      }
    }
    return validators;
  }

  async exportGenesis(ctx: Context): Promise<Record<string, JsonObject>> {
    const appState: Record<string, JsonObject> = {};
    for (const name of this.orders.exportGenesis) {
      const genesis = this.modules.get(name)!.instance.genesis;
      if (genesis !== undefined) appState[name] = await genesis.export(ctx);
    }
    return appState;
  }

  // ------------------------------------------------------------------ blocks

  /** PreBlock hooks in order; true if any changed the consensus params. */
  async preBlock(ctx: (module: string) => Context): Promise<boolean> {
    let changed = false;
    for (const name of this.orders.preBlock) {
      if ((await this.modules.get(name)!.instance.preBlock!(ctx(name))) === true) changed = true;
    }
    return changed;
  }

  async beginBlock(ctx: (module: string) => Context): Promise<void> {
    for (const name of this.orders.beginBlock) await this.modules.get(name)!.instance.beginBlock!(ctx(name));
  }

  /** EndBlock hooks in order: one module at most may return validator updates (as the SDK). */
  async endBlock(ctx: (module: string) => Context): Promise<EndBlockResult> {
    const result: EndBlockResult = {};
    let from: string | undefined;
    for (const name of this.orders.endBlock) {
      const out = (await this.modules.get(name)!.instance.endBlock!(ctx(name))) ?? {};
      if (out.validatorUpdates !== undefined && out.validatorUpdates.length > 0) {
        if (from !== undefined) throw new Error(`validator EndBlock updates already set by module ${from}, again by ${name}`);
        result.validatorUpdates = out.validatorUpdates;
        from = name;
      }
      if (out.consensusParamUpdates !== undefined) result.consensusParamUpdates = out.consensusParamUpdates;
    }
    return result;
  }

  afterCommit(height: number): void {
    for (const { instance } of this.list()) instance.afterCommit?.(height);
  }

  // ------------------------------------------------------------------ migrations

  /**
   * Runs every module's migrations from the versions in `from` up to its consensus version
   * (x/upgrade calls this from an upgrade handler). A module missing from `from` is new: its
   * InitGenesis runs with its default genesis instead. Returns the new version map.
   */
  async runMigrations(ctx: Context, from: VersionMap, defaults: GenesisDefaults): Promise<VersionMap> {
    for (const name of this.orders.initGenesis) {
      const { declaration, instance } = this.modules.get(name)!;
      const fromVersion = from[name];
      if (fromVersion === undefined) {
        if (instance.genesis) await instance.genesis.init(ctx, instance.genesis.default(defaults));
        continue;
      }
      if (fromVersion > declaration.consensusVersion) {
        throw new Error(`module ${name} is at consensus version ${fromVersion}, newer than this binary's ${declaration.consensusVersion}`);
      }
      for (let version = fromVersion; version < declaration.consensusVersion; version++) {
        const migration = declaration.migrations?.[version];
        if (migration === undefined) throw new Error(`no migration of module ${name} from consensus version ${version} to ${version + 1}`);
        await migration(ctx);
      }
    }
    return this.versionMap();
  }
}

/** A declaration's Msg services, as a list. */
export function msgServicesOf(declaration: ModuleDeclaration): readonly DescService[] {
  const entry = declaration.msgService;
  if (entry === undefined) return [];
  return 'methods' in entry ? [entry] : entry;
}

/** Every type a declaration puts into Anys. */
export function declaredTypes(declaration: ModuleDeclaration): DescMessage[] {
  const types: DescMessage[] = [...(declaration.interfaces ?? [])];
  for (const service of msgServicesOf(declaration)) for (const method of service.methods) types.push(method.input, method.output);
  return types;
}

/** Names unique, requires earlier in the list, orders naming known modules once each. */
function checkDeclarations(declarations: readonly ModuleDeclaration[], orders: ModuleOrders): void {
  const seen = new Set<string>();
  const storeNames = new Map<string, string>();
  for (const declaration of declarations) {
    if (seen.has(declaration.name)) throw new Error(`module ${declaration.name} is listed twice`);
    for (const required of declaration.requires ?? []) {
      if (!seen.has(required)) throw new Error(`module ${declaration.name} requires ${required}, which must come earlier in the module list`);
    }
    for (const key of declaration.storeKeys ?? []) {
      const owner = storeNames.get(key.name);
      if (owner !== undefined) throw new Error(`store ${key.name} is declared by both ${owner} and ${declaration.name}`);
      storeNames.set(key.name, declaration.name);
    }
    seen.add(declaration.name);
  }
  for (const [order, names] of Object.entries(orders) as [keyof ModuleOrders, readonly string[]][]) {
    const inOrder = new Set<string>();
    for (const name of names) {
      if (!seen.has(name)) throw new Error(`order ${order} names ${name}, which is not in the module list`);
      if (inOrder.has(name)) throw new Error(`order ${order} names ${name} twice`);
      inOrder.add(name);
    }
  }
  for (const order of ['initGenesis', 'exportGenesis'] as const) {
    for (const name of seen) if (!orders[order].includes(name)) throw new Error(`module ${name} is missing from order ${order}`);
  }
}

/** A module with a block hook must be in that hook's order, and only such modules may be. */
function checkInstances(modules: ReadonlyMap<string, ManagedModule>, orders: ModuleOrders): void {
  const hooks = [
    ['preBlock', 'preBlock'],
    ['beginBlock', 'beginBlock'],
    ['endBlock', 'endBlock'],
  ] as const;
  for (const [order, method] of hooks) {
    for (const [name, { instance }] of modules) {
      const has = typeof instance[method] === 'function';
      const listed = orders[order].includes(name);
      if (has && !listed) throw new Error(`module ${name} has a ${method} hook but is missing from order ${order}`);
      if (!has && listed) throw new Error(`order ${order} names ${name}, which has no ${method} hook`);
    }
  }
}
