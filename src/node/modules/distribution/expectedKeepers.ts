/** What distribution needs of auth, bank and staking (only the methods it calls). */
import type { Delegation, Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import type { Dec } from '../shared/dec.js';

export interface DistributionAccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
  getModuleAddress(name: string): Uint8Array | undefined;
}

export interface DistributionBankKeeper {
  getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]>;
  sendCoinsFromModuleToModule(ctx: Context, fromModule: string, toModule: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  blockedAddr(address: Uint8Array): boolean;
}

export interface DistributionStakingKeeper {
  getValidator(ctx: Context, valAddr: Uint8Array): Validator | undefined;
  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined;
  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Delegation | undefined;
  getDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Promise<Delegation[]>;
  getAllValidators(ctx: Context): Promise<Validator[]>;
  tokensFromShares(validator: Validator, shares: Dec): Dec;
  bondDenom(ctx: Context): string;
}
