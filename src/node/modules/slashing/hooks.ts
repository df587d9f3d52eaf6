/** Slashing's implementation of StakingHooks: a bonded validator gets a signing record. */
import type { StakingHooks } from '../staking/hooks.js';
import type { SlashingKeeper } from './keeper.js';

export function slashingStakingHooks(keeper: SlashingKeeper): Partial<StakingHooks> {
  return {
    afterValidatorBonded: async (ctx, consAddr) => keeper.afterValidatorBonded(ctx, consAddr),
  };
}
