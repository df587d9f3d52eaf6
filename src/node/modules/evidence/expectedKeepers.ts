/** What evidence needs of staking and slashing. */
import type { Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { Context } from '../shared/context.js';
import type { Dec } from '../shared/dec.js';

export interface EvidenceStakingKeeper {
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined;
}

export interface EvidenceSlashingKeeper {
  getSigningInfo(ctx: Context, consAddr: Uint8Array): object | undefined;
  isTombstoned(ctx: Context, consAddr: Uint8Array): boolean;
  slashFractionDoubleSign(ctx: Context): Dec;
  slashDoubleSign(ctx: Context, consAddr: Uint8Array, fraction: Dec, power: bigint, distributionHeight: number): Promise<void>;
  jail(ctx: Context, consAddr: Uint8Array): void;
  jailUntil(ctx: Context, consAddr: Uint8Array, ms: number): void;
  tombstone(ctx: Context, consAddr: Uint8Array): void;
}
