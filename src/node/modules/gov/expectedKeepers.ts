/** What gov needs of auth, bank and staking (only the methods it calls). */
import type { Delegation, Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Dec } from '../shared/dec.js';
import type { Context } from '../shared/context.js';

export interface GovAccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
}

export interface GovBankKeeper {
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
}

/**
 * A delegation during a scan (staking's DelegationCursor): the delegator and validator addresses
 * are key[delegatorAt, +delegatorLength) and key[validatorAt, +validatorLength) (read only, valid
 * during the visit); `shares()` parses the shares (undefined if malformed).
 */
export interface DelegationView {
  readonly key: Uint8Array;
  readonly delegatorAt: number;
  readonly delegatorLength: number;
  readonly validatorAt: number;
  readonly validatorLength: number;
  shares(): Dec | undefined;
}

export interface GovStakingKeeper {
  getAllValidators(ctx: Context): Promise<Validator[]>;
  getDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Promise<Delegation[]>;
  /** Every delegation, in delegator order, until `visit` returns false: one cursor moved from delegation to delegation. */
  scanDelegations(ctx: Context, visit: (delegation: DelegationView) => boolean | void): Promise<void>;
  bondDenom(ctx: Context): string;
}
