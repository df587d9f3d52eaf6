/**
 * The network's bonus module (aioz.bonus.v1): a fixed amount per block from the pre-funded bonus
 * module account to the fee collector until the pool is empty (README.md in ../mint).
 */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/aioz/bonus/v1/params_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateBonusParams } from './params.js';
import { Query } from '../../../gen/aioz/bonus/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/bonus/v1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { bonusCli } from './cli.js';
import type { BonusAccountKeeper, BonusBankKeeper } from './expectedKeepers.js';
import { defaultBonusGenesis, exportBonusGenesis, initBonusGenesis, validateBonusGenesis } from './genesis.js';
import { BonusKeeper } from './keeper.js';
import { BONUS_POOL_NAME, MODULE_NAME, bonusStoreKey } from './keys.js';
import { bonusMsgRoutes } from './msgServer.js';
import { bonusQueryService } from './queryServer.js';

export const bonusModule = defineModule<BonusKeeper>({
  name: MODULE_NAME,
  storeKeys: [bonusStoreKey],
  msgService: Msg,
  queryServices: [Query],
  moduleAccounts: { [BONUS_POOL_NAME]: [] },
  cli: bonusCli,
  consensusVersion: 1,
  requires: ['auth', 'bank'],
  create(deps) {
    const keeper = new BonusKeeper(deps.keeper<BonusAccountKeeper>('auth'), deps.keeper<BonusBankKeeper>('bank'));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateBonusParams }),
      msgRoutes: bonusMsgRoutes(keeper, deps.authority),
      queryServices: [bonusQueryService(keeper)],
      genesis: {
        default: (defaults) => defaultBonusGenesis(defaults),
        validate: (json) => validateBonusGenesis(json),
        init: async (ctx, json) => initBonusGenesis(ctx, keeper, json),
        export: (ctx) => exportBonusGenesis(ctx, keeper),
      },
      beginBlock: async (ctx) => {
        keeper.beginBlock(ctx);
      },
    };
  },
});
