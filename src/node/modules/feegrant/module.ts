/**
 * The feegrant module (cosmos.feegrant.v1beta1, SDK 0.47): fee allowances a granter gives a
 * grantee — basic, periodic and allowed-message — used by the ante chain's fee-granter hook
 * when a tx names a fee granter; expired allowances pruned in EndBlock and by MsgPruneAllowances.
 */
import { AllowedMsgAllowanceSchema, BasicAllowanceSchema, PeriodicAllowanceSchema } from '../../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { Query } from '../../../gen/cosmos/feegrant/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { feegrantCli } from './cli.js';
import { FeegrantErrors } from './errors.js';
import type { FeegrantAccountKeeper, FeegrantBankKeeper } from './expectedKeepers.js';
import { defaultFeegrantGenesis, exportFeegrantGenesis, initFeegrantGenesis, validateFeegrantGenesis } from './genesis.js';
import { END_BLOCK_PRUNE_LIMIT, FeegrantKeeper } from './keeper.js';
import { MODULE_NAME, feegrantStoreKey } from './keys.js';
import { feegrantMsgRoutes } from './msgServer.js';
import { feegrantQueryService } from './queryServer.js';

export const feegrantModule = defineModule<FeegrantKeeper>({
  name: MODULE_NAME,
  storeKeys: [feegrantStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [BasicAllowanceSchema, PeriodicAllowanceSchema, AllowedMsgAllowanceSchema],
  errors: FeegrantErrors,
  cli: feegrantCli,
  consensusVersion: 2,
  requires: ['auth', 'bank'],
  create(deps) {
    const keeper = new FeegrantKeeper(deps.keeper<FeegrantAccountKeeper>('auth'), deps.keeper<FeegrantBankKeeper>('bank'));
    return {
      keeper,
      msgRoutes: feegrantMsgRoutes(keeper),
      queryServices: [feegrantQueryService(keeper)],
      genesis: {
        default: () => defaultFeegrantGenesis(),
        validate: (json) => validateFeegrantGenesis(json),
        init: async (ctx, json) => initFeegrantGenesis(ctx, json),
        export: (ctx) => exportFeegrantGenesis(ctx, keeper),
      },
      endBlock: async (ctx) => {
        await keeper.removeExpiredAllowances(ctx, END_BLOCK_PRUNE_LIMIT);
      },
      feeGrantKeeper: keeper,
    };
  },
});
