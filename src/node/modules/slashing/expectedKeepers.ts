/** What slashing needs of staking. */
import type { Delegation, Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { Context } from '../shared/context.js';
import type { Dec } from '../shared/dec.js';

export interface SlashingStakingKeeper {
  getValidator(ctx: Context, valAddr: Uint8Array): Validator | undefined;
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined;
  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Delegation | undefined;
  getAllValidators(ctx: Context): Promise<Validator[]>;
  tokensFromShares(validator: Validator, shares: Dec): Dec;
  slash(ctx: Context, consAddr: Uint8Array, infractionHeight: number, power: bigint, fraction: Dec): Promise<bigint>;
  jail(ctx: Context, consAddr: Uint8Array): void;
  unjail(ctx: Context, consAddr: Uint8Array): void;
  consAddress(validator: Validator): Uint8Array;
}
