/**
 * The staking module: validators, delegations, unbonding delegations and redelegations, the
 * bonded/not-bonded pools, every cosmos.staking.v1beta1 Msg, the network's
 * aioz.staking.v1beta1 params query, the begin-block historical info, and the end-block
 * validator-set update and queue maturation. Distribution and slashing observe it through
 * StakingHooks (hooks.ts).
 */
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
import { stakingMsgRoutes } from './msgServer.js';
import { netStakingQueryService, stakingQueryService } from './queryServer.js';
import type { StakingHooks } from './hooks.js';

export const stakingModule = defineModule<StakingKeeper>({
  name: MODULE_NAME,
  storeKeys: [stakingStoreKey],
  msgService: Msg,
  queryServices: [Query, NetQuery],
  errors: StakingErrors,
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
      msgRoutes: stakingMsgRoutes(keeper, deps.authority),
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
