/** The bank module: balances, supply, metadata, MsgSend/MsgMultiSend and its Query service. */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ValidatorUpdate } from '../../abci/types.js';
import type { Context } from '../shared/context.js';
import type { AppModule, GenesisDefaults, MsgRoute, QueryServiceImpl } from '../shared/module.js';
import { defaultBankGenesis, exportBankGenesis, initBankGenesis, validateBankGenesis } from './genesis.js';
import type { BankKeeper } from './keeper.js';
import { MODULE_NAME, STORE_KEY } from './keys.js';
import { bankMsgRoutes } from './msgServer.js';
import { bankQueryService } from './queryServer.js';

export class BankModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly storeKeys = [STORE_KEY];
  readonly msgRoutes: readonly MsgRoute[];
  readonly queryServices: readonly QueryServiceImpl[];

  constructor(readonly keeper: BankKeeper) {
    this.msgRoutes = bankMsgRoutes(keeper);
    this.queryServices = [bankQueryService(keeper)];
  }

  defaultGenesis(defaults: GenesisDefaults): JsonObject {
    return defaultBankGenesis(defaults);
  }

  validateGenesis(genesis: JsonValue | undefined): string[] {
    return validateBankGenesis(genesis);
  }

  async initGenesis(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[]> {
    initBankGenesis(ctx, this.keeper, genesis);
    return [];
  }

  exportGenesis(ctx: Context): Promise<JsonObject> {
    return exportBankGenesis(ctx, this.keeper);
  }
}
