/** The slashing module (SDK 0.46 x/slashing): liveness from the last-commit votes, downtime jail, double-sign punishment for evidence, MsgUnjail. */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/cosmos/slashing/v1beta1/slashing_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateSlashingParams } from './params.js';
import { Query } from '../../../gen/cosmos/slashing/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/slashing/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { slashingCli } from './cli.js';
import { SlashingErrors } from './errors.js';
import type { SlashingStakingKeeper } from './expectedKeepers.js';
import { defaultSlashingGenesis, exportSlashingGenesis, initSlashingGenesis, validateSlashingGenesis } from './genesis.js';
import { slashingStakingHooks } from './hooks.js';
import { SlashingKeeper } from './keeper.js';
import { MODULE_NAME, slashingStoreKey } from './keys.js';
import { slashingMsgRoutes } from './msgServer.js';
import { slashingQueryService } from './queryServer.js';

export const slashingModule = defineModule<SlashingKeeper>({
  name: MODULE_NAME,
  storeKeys: [slashingStoreKey],
  msgService: Msg,
  queryServices: [Query],
  errors: SlashingErrors,
  cli: slashingCli,
  consensusVersion: 2,
  requires: ['staking'],
  create(deps) {
    const keeper = new SlashingKeeper(deps.keeper<SlashingStakingKeeper>('staking'));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateSlashingParams }),
      msgRoutes: slashingMsgRoutes(keeper),
      queryServices: [slashingQueryService(keeper)],
      genesis: {
        default: () => defaultSlashingGenesis(),
        validate: (json) => validateSlashingGenesis(json),
        init: (ctx, json) => initSlashingGenesis(ctx, keeper, json),
        export: (ctx) => exportSlashingGenesis(ctx, keeper),
      },
      beginBlock: (ctx) => keeper.beginBlock(ctx),
      hooks: { staking: slashingStakingHooks(keeper) },
    };
  },
});
