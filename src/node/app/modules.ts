/**
 * The app's modules and the orders of their hooks — this file is the app (a Cosmos SDK app.go):
 * adding a module is one folder under src/node/modules plus its line here (and its name in the
 * orders of the hooks it has; the manager refuses a module missing from an order it needs).
 *
 * Everything else is derived from the declarations: stores, the Any registry, Msg routes, Query
 * services (gRPC, REST, ABCI, CLI), module accounts, amino names, error codespaces.
 */
import type { Registry } from '@bufbuild/protobuf';
import { registerTypes, registry } from '../codec/registry.js';
import { aiozrc20Module } from '../modules/netrc20/module.js';
import { authModule } from '../modules/auth/module.js';
import { authzModule } from '../modules/authz/module.js';
import { bech32ibcModule } from '../modules/bech32ibc/module.js';
import { bankModule } from '../modules/bank/module.js';
import { bonusModule } from '../modules/bonus/module.js';
import { capabilityModule } from '../modules/capability/module.js';
import { distributionModule } from '../modules/distribution/module.js';
import { evidenceModule } from '../modules/evidence/module.js';
import { evmModule } from '../modules/evm/module.js';
import { feegrantModule } from '../modules/feegrant/module.js';
import { feemarketModule } from '../modules/feemarket/module.js';
import { genutilModule } from '../modules/genutil/module.js';
import { ibcModule } from '../modules/ibc/module.js';
import { icaModule } from '../modules/ibc/apps/ica/module.js';
import { icamauthModule } from '../modules/icamauth/module.js';
import { feeModule } from '../modules/ibc/apps/fee/module.js';
import { groupModule } from '../modules/group/module.js';
import { govModule } from '../modules/gov/module.js';
import { mintModule } from '../modules/mint/module.js';
import { paramsModule } from '../modules/params/module.js';
import { slashingModule } from '../modules/slashing/module.js';
import { stakingModule } from '../modules/staking/module.js';
import { transferModule } from '../modules/ibc/apps/transfer/module.js';
import { upgradeModule } from '../modules/upgrade/module.js';
import { ModuleManager, declaredTypes, type ModuleManagerOptions } from '../platform/manager.js';
import type { ModuleCli } from '../platform/cli.js';
import type { AppServices, ModuleDeclaration, ModuleOrders } from '../platform/module.js';
import { StoreKey } from '../store/storeKey.js';
import { messageSigners } from './tx.js';

/** The modules, in creation order (a module comes after the modules it requires). */
export const APP_MODULES: readonly ModuleDeclaration[] = [
  authModule,
  bankModule,
  capabilityModule,
  stakingModule,
  distributionModule,
  slashingModule,
  evidenceModule,
  mintModule,
  bonusModule,
  feemarketModule,
  evmModule,
  aiozrc20Module,
  authzModule,
  feegrantModule,
  groupModule,
  govModule,
  paramsModule,
  genutilModule,
  upgradeModule,
  ibcModule,
  feeModule,
  transferModule,
  icaModule,
  icamauthModule,
  bech32ibcModule,
];

/** Hook orders (SetOrderPreBlockers / BeginBlockers / EndBlockers / InitGenesis / ExportGenesis). */
export const MODULE_ORDERS: ModuleOrders = {
  preBlock: ['upgrade'],
  beginBlock: ['capability', 'feemarket', 'mint', 'bonus', 'distribution', 'slashing', 'evidence', 'staking', 'ibc', 'authz'],
  endBlock: ['gov', 'staking', 'feegrant', 'evm', 'feemarket', 'group'],
  initGenesis: ['capability', 'auth', 'bank', 'distribution', 'staking', 'slashing', 'evidence', 'gov', 'params', 'mint', 'bonus', 'feemarket', 'evm', 'aiozrc20', 'authz', 'feegrant', 'group', 'genutil', 'upgrade', 'ibc', 'transfer', 'interchainaccounts', 'icamauth', 'feeibc', 'bech32ibc'],
  exportGenesis: ['capability', 'auth', 'bank', 'distribution', 'staking', 'slashing', 'evidence', 'gov', 'params', 'mint', 'bonus', 'feemarket', 'evm', 'aiozrc20', 'authz', 'feegrant', 'group', 'genutil', 'upgrade', 'ibc', 'transfer', 'interchainaccounts', 'icamauth', 'feeibc', 'bech32ibc'],
};

/** The modules' CLI descriptors, in module order: `query`/`tx` commands derive from them at build time. */
export const MODULE_CLI: readonly ModuleCli[] = APP_MODULES.flatMap((module) => (module.cli === undefined ? [] : [module.cli]));

/** Amino JSON names the modules declare for messages whose proto has no `(amino.name)`. */
export const AMINO_NAME_OVERRIDES: ReadonlyMap<string, string> = new Map(APP_MODULES.flatMap((module) => Object.entries(module.aminoNames ?? {})));

/** App-level store of the consensus params and chain id (x/consensus' "consensus" store). */
export const CONSENSUS_STORE_KEY = StoreKey.persistent('consensus');

registerTypes(APP_MODULES.flatMap(declaredTypes));

/** The Any registry: the base types (keys, tx) plus every declared Msg, response, account … */
export const appRegistry: Registry = registry;

/** Every store the app registers with the state store. */
export const APP_STORE_KEYS: readonly StoreKey[] = [...APP_MODULES.flatMap((module) => module.storeKeys ?? []), CONSENSUS_STORE_KEY];
export const APP_STORE_NAMES: readonly string[] = APP_STORE_KEYS.map((key) => key.name).sort();

const refuseDeliverTx: AppServices['deliverTx'] = async () => {
  throw new Error('txs can only be delivered by the app');
};

/** The app's modules, created and wired (a fresh set each call: keepers hold no state). */
export function createModuleManager(app: AppServices = { deliverTx: refuseDeliverTx }, overrides: Partial<ModuleManagerOptions> = {}): ModuleManager {
  if (overrides.modules !== undefined) registerTypes(overrides.modules.flatMap(declaredTypes));
  return new ModuleManager({
    modules: APP_MODULES,
    orders: MODULE_ORDERS,
    registry: appRegistry,
    signersOf: messageSigners,
    app,
    ...overrides,
  });
}
