/**
 * The app's modules and keepers, wired once (the composition of app.go): auth → bank → staking →
 * genutil, which is also the InitGenesis and export order. Keepers are stateless beyond their
 * configuration, so exporting or validating genesis can build a fresh set.
 */
import { AccountKeeper } from '../modules/auth/keeper.js';
import { MODULE_ACCOUNT_PERMISSIONS } from '../modules/auth/keys.js';
import { AuthModule } from '../modules/auth/module.js';
import { BankKeeper } from '../modules/bank/keeper.js';
import { BankModule } from '../modules/bank/module.js';
import { GenutilModule, type DeliverGenTx } from '../modules/genutil/module.js';
import type { AppModule, MsgRoute } from '../modules/shared/module.js';
import { StakingKeeper } from '../modules/staking/keeper.js';
import { StakingModule } from '../modules/staking/module.js';

/** App-level store of the consensus params and chain id (x/consensus' "consensus" store). */
export const CONSENSUS_STORE_KEY = 'consensus';

export interface AppModules {
  readonly accountKeeper: AccountKeeper;
  readonly bankKeeper: BankKeeper;
  readonly stakingKeeper: StakingKeeper;
  /** In InitGenesis / export order. */
  readonly list: readonly AppModule[];
  readonly msgRoutes: ReadonlyMap<string, MsgRoute>;
}

const refuseGenTx: DeliverGenTx = async () => {
  throw new Error('gentxs can only be delivered by the app at InitChain');
};

export function createModules(deliverGenTx: DeliverGenTx = refuseGenTx): AppModules {
  const accountKeeper = new AccountKeeper(MODULE_ACCOUNT_PERMISSIONS);
  // Module accounts cannot receive funds through MsgSend/MsgMultiSend (gov would be the exception).
  const blocked = accountKeeper.moduleAccountNames().map((name) => accountKeeper.getModuleAddress(name)!);
  const bankKeeper = new BankKeeper(accountKeeper, blocked);
  const stakingKeeper = new StakingKeeper(accountKeeper, bankKeeper);
  const list: AppModule[] = [new AuthModule(accountKeeper), new BankModule(bankKeeper), new StakingModule(stakingKeeper), new GenutilModule(stakingKeeper, deliverGenTx)];
  const msgRoutes = new Map<string, MsgRoute>();
  for (const module of list) {
    for (const route of module.msgRoutes) {
      if (msgRoutes.has(route.typeUrl)) throw new Error(`message ${route.typeUrl} is routed twice`);
      msgRoutes.set(route.typeUrl, route);
    }
  }
  return { accountKeeper, bankKeeper, stakingKeeper, list, msgRoutes };
}

/** Every store the app registers with the state store. */
export const APP_STORE_NAMES: readonly string[] = [...new Set([...createModules().list.flatMap((module) => module.storeKeys), CONSENSUS_STORE_KEY])].sort();
