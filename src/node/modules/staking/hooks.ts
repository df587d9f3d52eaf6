/**
 * StakingHooks (x/staking/types/expected_keepers.go, SDK 0.46): what distribution and slashing
 * observe of staking. Observers register implementations under 'staking' in their module
 * instance; the keeper calls the fan-out (every registered implementation, module-list order).
 */
import type { Context } from '../shared/context.js';
import type { Dec } from '../shared/dec.js';

export interface StakingHooks {
  afterValidatorCreated(ctx: Context, valAddr: Uint8Array): Promise<void>;
  beforeValidatorModified(ctx: Context, valAddr: Uint8Array): Promise<void>;
  afterValidatorRemoved(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  afterValidatorBonded(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  afterValidatorBeginUnbonding(ctx: Context, consAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  beforeDelegationCreated(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  beforeDelegationSharesModified(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  beforeDelegationRemoved(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  afterDelegationModified(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<void>;
  beforeValidatorSlashed(ctx: Context, valAddr: Uint8Array, fraction: Dec): Promise<void>;
}

/** No observers (keepers built outside the app, e.g. in tests). */
export const NO_STAKING_HOOKS: StakingHooks = {
  afterValidatorCreated: async () => undefined,
  beforeValidatorModified: async () => undefined,
  afterValidatorRemoved: async () => undefined,
  afterValidatorBonded: async () => undefined,
  afterValidatorBeginUnbonding: async () => undefined,
  beforeDelegationCreated: async () => undefined,
  beforeDelegationSharesModified: async () => undefined,
  beforeDelegationRemoved: async () => undefined,
  afterDelegationModified: async () => undefined,
  beforeValidatorSlashed: async () => undefined,
};
