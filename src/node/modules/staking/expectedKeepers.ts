/** What the staking module needs from auth and bank. */
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export interface StakingAccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
  getModuleAddress(name: string): Uint8Array | undefined;
}

export interface StakingBankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]>;
  delegateCoinsFromAccountToModule(ctx: Context, delegator: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToModule(ctx: Context, fromModule: string, toModule: string, coins: readonly Coin[]): void;
  undelegateCoinsFromModuleToAccount(ctx: Context, module: string, delegator: Uint8Array, coins: readonly Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
}
