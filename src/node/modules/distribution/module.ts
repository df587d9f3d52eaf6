/**
 * The distribution module (SDK 0.46 x/distribution): per-block allocation of collected fees,
 * F1 rewards, commission, withdraw addresses and the community pool. Observes staking through
 * StakingHooks.
 */
import { CommunityPoolSpendProposalSchema } from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { contentRoute } from '../../platform/content.js';
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateDistributionParams } from './params.js';
import { Query } from '../../../gen/cosmos/distribution/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/distribution/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { distributionCli } from './cli.js';
import { DistributionErrors } from './errors.js';
import type { DistributionAccountKeeper, DistributionBankKeeper, DistributionStakingKeeper } from './expectedKeepers.js';
import { defaultDistributionGenesis, exportDistributionGenesis, initDistributionGenesis, validateDistributionGenesis } from './genesis.js';
import { distributionStakingHooks } from './hooks.js';
import { DistributionKeeper } from './keeper.js';
import { MODULE_NAME, distributionStoreKey } from './keys.js';
import { communityPoolSpend, distributionMsgRoutes } from './msgServer.js';
import { distributionQueryService } from './queryServer.js';

export const distributionModule = defineModule<DistributionKeeper>({
  name: MODULE_NAME,
  storeKeys: [distributionStoreKey],
  msgService: Msg,
  queryServices: [Query],
  errors: DistributionErrors,
  interfaces: [CommunityPoolSpendProposalSchema],
  moduleAccounts: { [MODULE_NAME]: [] },
  cli: distributionCli,
  consensusVersion: 3,
  requires: ['auth', 'bank', 'staking'],
  create(deps) {
    const keeper = new DistributionKeeper(deps.keeper<DistributionAccountKeeper>('auth'), deps.keeper<DistributionBankKeeper>('bank'), deps.keeper<DistributionStakingKeeper>('staking'));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateDistributionParams, keyNames: { community_tax: 'communitytax', base_proposer_reward: 'baseproposerreward', bonus_proposer_reward: 'bonusproposerreward', withdraw_addr_enabled: 'withdrawaddrenabled' } }),
      msgRoutes: distributionMsgRoutes(keeper, deps.authority),
      legacyContent: [contentRoute(CommunityPoolSpendProposalSchema, async (ctx, proposal) => communityPoolSpend(keeper, ctx, proposal.recipient, proposal.amount))],
      queryServices: [distributionQueryService(keeper)],
      genesis: {
        default: () => defaultDistributionGenesis(),
        validate: (json) => validateDistributionGenesis(json),
        init: (ctx, json) => initDistributionGenesis(ctx, keeper, json),
        export: (ctx) => exportDistributionGenesis(ctx, keeper),
      },
      beginBlock: (ctx) => keeper.beginBlock(ctx),
      hooks: { staking: distributionStakingHooks(keeper) },
    };
  },
});
