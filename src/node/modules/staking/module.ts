/**
 * The staking module: validators, delegations, the bonded/not-bonded pools, MsgCreateValidator,
 * MsgUpdateParams (gov authority), the begin-block historical info and the end-block
 * validator-set update.
 */
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
import { stakingQueryService } from './queryServer.js';

export const stakingModule = defineModule<StakingKeeper>({
  name: MODULE_NAME,
  storeKeys: [stakingStoreKey],
  msgService: Msg,
  queryServices: [Query],
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
    return {
      keeper,
      msgRoutes: stakingMsgRoutes(keeper, deps.authority),
      queryServices: [stakingQueryService(keeper)],
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
        return { validatorUpdates };
      },
    };
  },
});
