/** What the bank module needs from the auth module. */
import type { Account } from '../auth/account.js';
import type { Context } from '../shared/context.js';

export interface BankAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  hasAccount(ctx: Context, address: Uint8Array): boolean;
  setAccount(ctx: Context, account: Account): void;
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account;
  getModuleAccount(ctx: Context, name: string): Account | undefined;
  getModuleAddress(name: string): Uint8Array | undefined;
}
