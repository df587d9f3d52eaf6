/** What the mint module needs from auth and bank. */
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export interface MintAccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
}

export interface MintBankKeeper {
  getSupply(ctx: Context, denom: string): bigint;
  mintCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToModule(ctx: Context, fromModule: string, toModule: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
}
