/** What the authz module needs from the auth module. */
import type { Account } from '../auth/account.js';
import type { Context } from '../shared/context.js';

export interface AuthzAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account;
  setAccount(ctx: Context, account: Account): void;
}
