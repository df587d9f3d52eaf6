/**
 * The account keeper (x/auth/keeper): accounts by address, the global account-number counter,
 * module accounts and params. Other modules see it through the narrow interfaces in their
 * expectedKeepers.ts.
 */
import { moduleAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { newEthAccount, newModuleAccount, type Account } from './account.js';
import { Accounts, AccountsByNumber, GlobalAccountNumber, Params } from './keys.js';
import { defaultAuthParams, type AuthParams } from './params.js';

export class AccountKeeper {
  private readonly moduleAddresses = new Map<string, Uint8Array>();
  /** Module address (latin1) → name, for blocked-address checks. */
  private readonly moduleNamesByAddress = new Map<string, string>();

  /** `permissions`: every module account name with its permissions (from the module declarations). */
  constructor(readonly permissions: Readonly<Record<string, readonly string[]>>) {
    for (const name of Object.keys(permissions)) {
      const address = moduleAddress(name);
      this.moduleAddresses.set(name, address);
      this.moduleNamesByAddress.set(Buffer.from(address).toString('latin1'), name);
    }
  }

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): AuthParams {
    return Params.get(ctx) ?? defaultAuthParams();
  }

  setParams(ctx: Context, params: AuthParams): void {
    Params.set(ctx, params);
  }

  // ------------------------------------------------------------------ accounts

  getAccount(ctx: Context, address: Uint8Array): Account | undefined {
    return Accounts.get(ctx, address);
  }

  hasAccount(ctx: Context, address: Uint8Array): boolean {
    return Accounts.has(ctx, address);
  }

  /**
   * Writes the account; the collection keeps the account-number index in step (and refuses a
   * number another address holds).
   */
  setAccount(ctx: Context, account: Account): void {
    Accounts.set(ctx, account.address, account);
  }

  /**
   * Writes an existing account whose number did not change (sequence, key): the index needs no
   * write and the stored account no read. Throws if the number changed (use setAccount).
   */
  updateAccount(ctx: Context, previous: Account, account: Account): void {
    if (previous.accountNumber !== account.accountNumber) throw new Error('updateAccount cannot change the account number');
    Accounts.update(ctx, account.address, previous, account);
  }

  /** Hands out the next account number (collections.Sequence.Next). */
  nextAccountNumber(ctx: Context): bigint {
    return GlobalAccountNumber.next(ctx);
  }

  /** The next number without consuming it. */
  peekAccountNumber(ctx: Context): bigint {
    return GlobalAccountNumber.peek(ctx);
  }

  /** A new keyed account (EthAccount, as Ethermint's ProtoAccount) with the next number; not stored. */
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account {
    return newEthAccount(address, this.nextAccountNumber(ctx));
  }

  addressByAccountNumber(ctx: Context, accountNumber: bigint): Uint8Array | undefined {
    return AccountsByNumber.get(ctx, accountNumber);
  }

  /** Every account in address order. */
  iterateAccounts(ctx: Context): AsyncIterableIterator<Account> {
    return Accounts.values(ctx);
  }

  // ------------------------------------------------------------------ module accounts

  moduleAccountNames(): string[] {
    return [...this.moduleAddresses.keys()].sort();
  }

  /** The address of a module account the app knows; undefined for unknown names. */
  getModuleAddress(name: string): Uint8Array | undefined {
    return this.moduleAddresses.get(name);
  }

  /** The module name owning `address`, if it is a module account address. */
  moduleNameOf(address: Uint8Array): string | undefined {
    return this.moduleNamesByAddress.get(Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('latin1'));
  }

  /**
   * The module account `name`, created (with the next account number) if missing. Undefined for
   * names without registered permissions; throws if a non-module account sits at the address.
   */
  getModuleAccount(ctx: Context, name: string): Account | undefined {
    const address = this.moduleAddresses.get(name);
    if (address === undefined) return undefined;
    const existing = this.getAccount(ctx, address);
    if (existing !== undefined) {
      if (existing.kind !== 'module') throw new Error(`account ${name} is not a module account`);
      return existing;
    }
    const account = newModuleAccount(name, address, this.nextAccountNumber(ctx), this.permissions[name] ?? []);
    this.setAccount(ctx, account);
    return account;
  }
}
