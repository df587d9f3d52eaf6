/**
 * The group module (SDK 0.47 x/group): groups with weighted members, group policy accounts with
 * threshold or percentage decision policies, proposals executed through the message router as
 * the policy account. Config (no params in the SDK): DEFAULT_GROUP_CONFIG — max execution period
 * 2 weeks, max metadata length 255.
 */
import { PercentageDecisionPolicySchema, ThresholdDecisionPolicySchema } from '../../../gen/cosmos/group/v1/types_pb.js';
import { Query } from '../../../gen/cosmos/group/v1/query_pb.js';
import { Msg } from '../../../gen/cosmos/group/v1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { groupCli } from './cli.js';
import { GroupErrors, GroupOrmErrors } from './errors.js';
import type { GroupAccountKeeper } from './expectedKeepers.js';
import { defaultGroupGenesis, exportGroupGenesis, initGroupGenesis, validateGroupGenesis } from './genesis.js';
import { GroupKeeper } from './keeper.js';
import { MODULE_NAME, groupStoreKey } from './keys.js';
import { groupMsgRoutes } from './msgServer.js';
import { groupQueryService } from './queryServer.js';

export const groupModule = defineModule<GroupKeeper>({
  name: MODULE_NAME,
  storeKeys: [groupStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [ThresholdDecisionPolicySchema, PercentageDecisionPolicySchema],
  errors: { ...GroupErrors, ...GroupOrmErrors },
  cli: groupCli,
  consensusVersion: 2,
  requires: ['auth'],
  create(deps) {
    const keeper = new GroupKeeper(deps.keeper<GroupAccountKeeper>('auth'), deps.router, () => deps.registry);
    return {
      keeper,
      msgRoutes: groupMsgRoutes(keeper),
      queryServices: [groupQueryService(keeper)],
      genesis: {
        default: () => defaultGroupGenesis(),
        validate: (json) => validateGroupGenesis(json),
        init: (ctx, json) => initGroupGenesis(ctx, json),
        export: (ctx) => exportGroupGenesis(ctx),
      },
      endBlock: async (ctx) => {
        await keeper.endBlock(ctx);
      },
    };
  },
});
