/** What the bonus module needs from auth and bank. */
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export interface BonusAccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
  getModuleAddress(name: string): Uint8Array | undefined;
}

export interface BonusBankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  sendCoinsFromModuleToModule(ctx: Context, fromModule: string, toModule: string, coins: readonly Coin[]): void;
}
