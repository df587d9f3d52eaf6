/** What the feegrant module needs from the auth and bank modules. */
import type { Account } from '../auth/account.js';
import type { Context } from '../shared/context.js';

export interface FeegrantAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account;
  setAccount(ctx: Context, account: Account): void;
}

export interface FeegrantBankKeeper {
  blockedAddr(address: Uint8Array): boolean;
}
