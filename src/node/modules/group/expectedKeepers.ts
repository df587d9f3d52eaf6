/** What the group module needs of auth (policy accounts) and of the app (the message router). */
import type { Account } from '../auth/account.js';
import type { Context } from '../shared/context.js';

export interface GroupAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  setAccount(ctx: Context, account: Account): void;
  nextAccountNumber(ctx: Context): bigint;
}
