/**
 * The module contract (GUIDE §3, the Cosmos SDK's module.Manager / appmodule): ONE declaration
 * per module says everything the app derives from it — stores, the types it puts into Anys, its
 * Msg and Query services, genesis, block hooks, module accounts, error codespace, consensus
 * version and migrations, the hooks it offers to and takes from other modules. `create` builds
 * the module's keeper and handlers from what it needs of other modules (`ModuleDeps`), which it
 * sees only through its own expected-keeper interfaces.
 *
 * The app's module list and the orders of its hooks are one file (src/node/app/modules.ts);
 * `ModuleManager` (manager.ts) checks the declarations against each other and runs them.
 */
import type { DescMessage, DescService, JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { Registry } from '@bufbuild/protobuf';
import type { CommitInfo, ConsensusParams, Misbehavior, ValidatorUpdate } from '../abci/types.js';
import type { FeeGrantKeeper } from '../app/ante/expectedKeepers.js';
import type { AnteChain, AnteInsertion, SignatureFallback, SignaturePrecheck } from '../app/ante/types.js';
import type { Context } from '../modules/shared/context.js';
import type { RegisteredError } from '../modules/shared/errors.js';
import type { GenesisDefaults, MsgRoute, QueryServiceImpl } from '../modules/shared/module.js';
import type { StoreKey } from '../store/storeKey.js';
import type { ModuleCli } from './cli.js';
import type { ContentRoute, ContentRouter } from './content.js';
import type { ParamSpace, ParamSpaces } from './params.js';
import type { MsgRouter } from './router.js';
import type { ModuleMigrator, UpgradeSettings } from './upgrades.js';

export type { CommitInfo, Misbehavior };

export type { GenesisDefaults };

/** Permissions of a module account (x/auth: minter, burner, staking). */
export type ModulePermission = 'minter' | 'burner' | 'staking';

/** A module's genesis: default, static validation, InitGenesis and ExportGenesis. */
export interface ModuleGenesis {
  /** The module's default app_state entry (SDK genesis JSON, snake_case). */
  default(defaults: GenesisDefaults): JsonObject;
  /** Problems of the module's app_state entry, each naming what is wrong; [] when valid. */
  validate(genesis: JsonValue | undefined): string[];
  /** Writes the genesis state; may return the initial validator set (one module at most). */
  init(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[] | void>;
  export(ctx: Context): Promise<JsonObject>;
}

/** What an EndBlocker may hand to consensus (applied at H+2 for validators, as CometBFT does). */
export interface EndBlockResult {
  validatorUpdates?: ValidatorUpdate[];
  consensusParamUpdates?: ConsensusParams;
}

/** A migration of a module's state from one consensus version to the next. */
export type Migration = (ctx: Context) => Promise<void>;

/** What a module's `create` gets: the app's wiring, never another module's internals. */
export interface ModuleDeps {
  /** This module's name. */
  readonly name: string;
  /**
   * The keeper of module `module`, typed as the caller's own expected-keeper interface. Only
   * modules named in the declaration's `requires` can be asked for (they are created first).
   */
  keeper<T>(module: string): T;
  /**
   * The hooks other modules registered on this one, as one object of the hook interface this
   * module defines: calling a method calls every registered implementation in module-list order.
   * Safe to call only at run time (registrations complete after every module is created).
   */
  hooks<T extends object>(): T;
  /** The app's message router: dispatch Msgs as the tx path does (authz, gov, group, ICA host). */
  readonly router: MsgRouter;
  /** Who carries out each v1beta1 proposal content type (gov asks it; owners declare `legacyContent`). */
  readonly contentRouter: ContentRouter;
  /** Every module's parameter space by subspace (x/params); complete once all modules are created. */
  readonly paramSpaces: ParamSpaces;
  /** The account that may send this module's MsgUpdateParams-style messages (the gov module account). */
  readonly authority: Uint8Array;
  /** Every module account name → permissions (x/auth's maccPerms). */
  readonly moduleAccounts: ReadonlyMap<string, readonly ModulePermission[]>;
  /** The app's Any registry (every declared interface). */
  readonly registry: Registry;
  /** This binary's module versions and the migrations between them (x/upgrade runs them). */
  readonly migrator: ModuleMigrator;
  /** Services the app itself offers to modules (genutil delivers gentxs through the tx path). */
  readonly app: AppServices;
}

/** Things only the app can do, offered to modules. */
export interface AppServices {
  /** Runs one tx in the given (genesis) context through the normal finalize path. */
  deliverTx(ctx: Context, txBytes: Uint8Array): Promise<{ code: number; log: string }>;
  /** This binary's upgrade handlers, skipped heights and home (x/upgrade); unset: none, none, no file. */
  readonly upgrades?: UpgradeSettings;
}

/** A created module: its keeper and everything the app calls. */
export interface ModuleInstance<K = unknown> {
  /** What other modules may receive through `deps.keeper(name)`. */
  readonly keeper: K;
  readonly msgRoutes?: readonly MsgRoute[];
  /** v1beta1 proposal contents this module carries out when a proposal passes (types go in `interfaces`). */
  readonly legacyContent?: readonly ContentRoute[];
  /** The module's x/params subspace (named after the module): its keys, read and changed by proposals. */
  readonly paramSpace?: ParamSpace;
  /**
   * x/params subspaces named otherwise than the module, for a module of submodules with one
   * subspace each (ibc-go's interchain accounts: "icacontroller" and "icahost").
   */
  readonly paramSubspaces?: Readonly<Record<string, ParamSpace>>;
  readonly queryServices?: readonly QueryServiceImpl[];
  readonly genesis?: ModuleGenesis;
  /** Runs before BeginBlock (the upgrade module's place). Returns true when consensus params changed. */
  preBlock?(ctx: Context): Promise<boolean | void>;
  beginBlock?(ctx: Context): Promise<void>;
  endBlock?(ctx: Context): Promise<EndBlockResult | void>;
  /** After the block is committed, with its height (caches that follow committed state). */
  afterCommit?(height: number): void;
  /**
   * Hooks this module implements for other modules: target module name → an object with
   * some of the methods of that module's hook interface.
   */
  readonly hooks?: Readonly<Record<string, object>>;
  /**
   * Ante chains for txs whose first extension option has the given type URL (Ethermint's
   * ExtensionOptionsEthereumTx → the EVM chain); the app registers them with its ante router.
   */
  readonly anteChains?: Readonly<Record<string, AnteChain>>;
  /** Decorators this module adds to the default (Cosmos) ante chain, each before a named one or at the end. */
  readonly anteDecorators?: readonly AnteInsertion[];
  /**
   * The fee-granter hook of the default ante chain (x/feegrant's keeper): DeductFee asks it to
   * pay a tx's fee from the fee granter's allowance. At most one module offers it.
   */
  readonly feeGrantKeeper?: FeeGrantKeeper;
  /**
   * A second way for a signature of the default ante chain to verify when it does not over its
   * sign bytes (the evm module's EIP-712 typed data). At most one module offers it.
   */
  readonly signatureFallback?: SignatureFallback;
  /**
   * Signature work of this module's txs that the app may do ahead of CheckTx on its worker
   * threads (the evm module: Ethereum sender recovery), see PrecheckedSignature.
   */
  readonly signaturePrecheck?: SignaturePrecheck;
  /**
   * Loads what the module needs before the app serves anything (heavy libraries kept off the
   * import graph of the CLI); the app awaits it when it opens.
   */
  ready?(): Promise<void>;
}

/** One module, declared. */
export interface ModuleDeclaration<K = unknown> {
  /** The module name: app_state key, codespace owner, CLI topic. */
  readonly name: string;
  /** Stores this module owns. */
  readonly storeKeys?: readonly StoreKey[];
  /**
   * The Msg service whose methods the module handles (its inputs/outputs go into the registry);
   * a module with submodules (ibc) lists each submodule's service.
   */
  readonly msgService?: DescService | readonly DescService[];
  /** Query services the module answers (gRPC, REST, ABCI and CLI derive from them). */
  readonly queryServices?: readonly DescService[];
  /**
   * Other types this module puts into Anys: accounts, public keys, proposal contents,
   * authorizations, allowances, evidence …
   */
  readonly interfaces?: readonly DescMessage[];
  /** Amino JSON names for messages whose proto carries no `(amino.name)` option. */
  readonly aminoNames?: Readonly<Record<string, string>>;
  /** Module accounts this module owns, with their permissions. */
  readonly moduleAccounts?: Readonly<Record<string, readonly ModulePermission[]>>;
  /** The module's error table (registered under its codespace). */
  readonly errors?: Readonly<Record<string, RegisteredError>>;
  /** Bumped with every state-breaking change; migrations lead from each older version. */
  readonly consensusVersion: number;
  /** Migration from version v to v+1, keyed by v. */
  readonly migrations?: Readonly<Record<number, Migration>>;
  /**
   * The module's CLI (src/node/modules/<name>/cli.ts, generated code only): `query <module> …`
   * and `tx <module> …` are derived from it at build time.
   */
  readonly cli?: ModuleCli;
  /** Modules whose keepers `create` asks for (they must come earlier in the module list). */
  readonly requires?: readonly string[];
  create(deps: ModuleDeps): ModuleInstance<K>;
}

/** Identity function that checks a declaration's type. */
export function defineModule<K>(declaration: ModuleDeclaration<K>): ModuleDeclaration<K> {
  return declaration;
}

/** The explicit hook orders of the app (a Cosmos SDK app.go's SetOrder* calls). */
export interface ModuleOrders {
  readonly preBlock: readonly string[];
  readonly beginBlock: readonly string[];
  readonly endBlock: readonly string[];
  readonly initGenesis: readonly string[];
  readonly exportGenesis: readonly string[];
}
