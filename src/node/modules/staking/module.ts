/**
 * The staking module: validators, delegations, unbonding delegations and redelegations, the
 * bonded/not-bonded pools, every cosmos.staking.v1beta1 Msg, the network's
 * aioz.staking.v1beta1 params query, the begin-block historical info, and the end-block
 * validator-set update and queue maturation. Distribution and slashing observe it through
 * StakingHooks (hooks.ts).
 */
import { CreateValidatorProposalSchema } from '../../../gen/aioz/staking/v1beta1/staking_pb.js';
import { contentRoute } from '../../platform/content.js';
import { SdkErrors } from '../shared/errors.js';
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateStakingParams } from './params.js';
import { Query as NetQuery } from '../../../gen/aioz/staking/v1beta1/query_pb.js';
import { Query } from '../../../gen/cosmos/staking/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { stakingCli } from './cli.js';
import { StakingErrors } from './errors.js';
import type { StakingAccountKeeper, StakingBankKeeper } from './expectedKeepers.js';
import { defaultStakingGenesis, exportStakingGenesis, initStakingGenesis, validateStakingGenesis } from './genesis.js';
import { StakingKeeper } from './keeper.js';
import { BONDED_POOL_NAME, MODULE_NAME, NOT_BONDED_POOL_NAME, stakingStoreKey } from './keys.js';
import { createValidator, stakingMsgRoutes } from './msgServer.js';
import { netStakingQueryService, stakingQueryService } from './queryServer.js';
import type { StakingHooks } from './hooks.js';

export const stakingModule = defineModule<StakingKeeper>({
  name: MODULE_NAME,
  storeKeys: [stakingStoreKey],
  msgService: Msg,
  queryServices: [Query, NetQuery],
  errors: StakingErrors,
  interfaces: [CreateValidatorProposalSchema],
  moduleAccounts: {
    [BONDED_POOL_NAME]: ['burner', 'staking'],
    [NOT_BONDED_POOL_NAME]: ['burner', 'staking'],
  },
  cli: stakingCli,
  consensusVersion: 5,
  requires: ['auth', 'bank'],
  create(deps) {
    const keeper = new StakingKeeper(deps.keeper<StakingAccountKeeper>('auth'), deps.keeper<StakingBankKeeper>('bank'));
    keeper.setHooks(() => deps.hooks<StakingHooks>());
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateStakingParams }),
      msgRoutes: stakingMsgRoutes(keeper, deps.authority),
      // The network's validator admission (accept_all_validators = false): a passed proposal creates the validator.
      legacyContent: [
        contentRoute(CreateValidatorProposalSchema, async (ctx, proposal) => {
          if (proposal.validator === undefined) throw SdkErrors.InvalidRequest.wrap('create validator proposal without a validator');
          await createValidator(keeper, ctx, proposal.validator, true);
        }),
      ],
      queryServices: [stakingQueryService(keeper), netStakingQueryService(keeper)],
      genesis: {
        default: (defaults) => defaultStakingGenesis(defaults),
        validate: (json) => validateStakingGenesis(json),
        init: (ctx, json) => initStakingGenesis(ctx, keeper, json),
        export: (ctx) => exportStakingGenesis(ctx, keeper),
      },
      beginBlock: (ctx) => keeper.trackHistoricalInfo(ctx),
      endBlock: async (ctx) => {
        const validatorUpdates = await keeper.applyAndReturnValidatorSetUpdates(ctx);
        await keeper.unbondMatureValidators(ctx);
        await keeper.completeMatureQueues(ctx);
        return { validatorUpdates };
      },
    };
  },
});
