/** Distribution's implementation of StakingHooks (x/distribution/keeper/hooks.go, SDK 0.46). */
import type { StakingHooks } from '../staking/hooks.js';
import type { DistributionKeeper } from './keeper.js';

export function distributionStakingHooks(keeper: DistributionKeeper): Partial<StakingHooks> {
  return {
    afterValidatorCreated: async (ctx, valAddr) => keeper.initializeValidator(ctx, valAddr),
    afterValidatorRemoved: async (ctx, _consAddr, valAddr) => keeper.afterValidatorRemoved(ctx, valAddr),
    beforeDelegationCreated: async (ctx, _delAddr, valAddr) => {
      keeper.incrementValidatorPeriod(ctx, keeper.stakingKeeper.getValidator(ctx, valAddr)!);
    },
    beforeDelegationSharesModified: async (ctx, delAddr, valAddr) => {
      await keeper.withdrawDelegationRewards(ctx, keeper.stakingKeeper.getValidator(ctx, valAddr)!, delAddr);
    },
    afterDelegationModified: async (ctx, delAddr, valAddr) => keeper.initializeDelegation(ctx, valAddr, delAddr),
    beforeValidatorSlashed: async (ctx, valAddr, fraction) => keeper.updateValidatorSlashFraction(ctx, valAddr, fraction),
  };
}
