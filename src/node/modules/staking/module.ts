/**
 * The staking module: validators, delegations, pools, MsgCreateValidator, the begin-block
 * historical info and the end-block validator-set update.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ValidatorUpdate } from '../../abci/types.js';
import type { Context } from '../shared/context.js';
import type { AppModule, GenesisDefaults, MsgRoute, QueryServiceImpl } from '../shared/module.js';
import { defaultStakingGenesis, exportStakingGenesis, initStakingGenesis, validateStakingGenesis } from './genesis.js';
import type { StakingKeeper } from './keeper.js';
import { MODULE_NAME, STORE_KEY } from './keys.js';
import { stakingMsgRoutes } from './msgServer.js';
import { stakingQueryService } from './queryServer.js';

export class StakingModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly storeKeys = [STORE_KEY];
  readonly msgRoutes: readonly MsgRoute[];
  readonly queryServices: readonly QueryServiceImpl[];

  constructor(readonly keeper: StakingKeeper) {
    this.msgRoutes = stakingMsgRoutes(keeper);
    this.queryServices = [stakingQueryService(keeper)];
  }

  defaultGenesis(defaults: GenesisDefaults): JsonObject {
    return defaultStakingGenesis(defaults);
  }

  validateGenesis(genesis: JsonValue | undefined): string[] {
    return validateStakingGenesis(genesis);
  }

  initGenesis(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[]> {
    return initStakingGenesis(ctx, this.keeper, genesis);
  }

  exportGenesis(ctx: Context): Promise<JsonObject> {
    return exportStakingGenesis(ctx, this.keeper);
  }

  async beginBlock(ctx: Context): Promise<void> {
    await this.keeper.trackHistoricalInfo(ctx);
  }

  async endBlock(ctx: Context): Promise<ValidatorUpdate[]> {
    const updates = await this.keeper.applyAndReturnValidatorSetUpdates(ctx);
    await this.keeper.unbondMatureValidators(ctx);
    return updates;
  }
}
