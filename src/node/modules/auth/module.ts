/**
 * The auth module: accounts, account numbers, module accounts, auth params. No Msg handlers yet
 * (MsgUpdateParams needs the gov authority); the ante chain in src/node/app uses the keeper.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ValidatorUpdate } from '../../abci/types.js';
import type { Context } from '../shared/context.js';
import type { AppModule, MsgRoute, QueryServiceImpl } from '../shared/module.js';
import { defaultAuthGenesis, exportAuthGenesis, initAuthGenesis, validateAuthGenesis } from './genesis.js';
import type { AccountKeeper } from './keeper.js';
import { MODULE_NAME, STORE_KEY } from './keys.js';
import { authQueryService } from './queryServer.js';

export class AuthModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly storeKeys = [STORE_KEY];
  readonly msgRoutes: readonly MsgRoute[] = [];
  readonly queryServices: readonly QueryServiceImpl[];

  constructor(readonly keeper: AccountKeeper) {
    this.queryServices = [authQueryService(keeper)];
  }

  defaultGenesis(): JsonObject {
    return defaultAuthGenesis();
  }

  validateGenesis(genesis: JsonValue | undefined): string[] {
    return validateAuthGenesis(genesis);
  }

  async initGenesis(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[]> {
    initAuthGenesis(ctx, this.keeper, genesis);
    return [];
  }

  exportGenesis(ctx: Context): Promise<JsonObject> {
    return exportAuthGenesis(ctx, this.keeper);
  }
}
