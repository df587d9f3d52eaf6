/**
 * The account keeper (x/auth/keeper): accounts by address, the global account-number counter,
 * module accounts and params. Other modules see it through the narrow interfaces in their
 * expectedKeepers.ts.
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { ParamsSchema } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { moduleAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { DecodeMemo } from '../shared/memo.js';
import { bytesEqual, readU64be, u64be } from '../shared/keys.js';
import { decodeAccount, encodeAccount, newEthAccount, newModuleAccount, type Account } from './account.js';
import { ACCOUNTS_PREFIX, GLOBAL_ACCOUNT_NUMBER_KEY, PARAMS_KEY, STORE_KEY, accountKey, accountNumberKey } from './keys.js';
import { defaultAuthParams, type AuthParams } from './params.js';
import type { KVStore } from '../../store/index.js';

const paramsMemo = new DecodeMemo<AuthParams>((bytes) => fromBinary(ParamsSchema, bytes));

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

  private store(ctx: Context): KVStore {
    return ctx.kv(STORE_KEY);
  }

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): AuthParams {
    const bytes = this.store(ctx).get(PARAMS_KEY);
    if (bytes === undefined) return defaultAuthParams();
    return paramsMemo.get(bytes);
  }

  setParams(ctx: Context, params: AuthParams): void {
    this.store(ctx).set(PARAMS_KEY, toBinary(ParamsSchema, params));
  }

  // ------------------------------------------------------------------ accounts

  getAccount(ctx: Context, address: Uint8Array): Account | undefined {
    const bytes = this.store(ctx).get(accountKey(address));
    return bytes === undefined ? undefined : decodeAccount(bytes);
  }

  hasAccount(ctx: Context, address: Uint8Array): boolean {
    return this.store(ctx).has(accountKey(address));
  }

  /** Writes the account and its account-number index entry. */
  setAccount(ctx: Context, account: Account): void {
    const store = this.store(ctx);
    store.set(accountKey(account.address), encodeAccount(account));
    const indexKey = accountNumberKey(account.accountNumber);
    const indexed = store.get(indexKey);
    if (indexed === undefined || !bytesEqual(indexed, account.address)) store.set(indexKey, account.address);
  }

  /**
   * Writes an existing account whose number did not change (sequence, key): no index update.
   * Throws if the number changed (use setAccount).
   */
  updateAccount(ctx: Context, previous: Account, account: Account): void {
    if (previous.accountNumber !== account.accountNumber) throw new Error('updateAccount cannot change the account number');
    this.store(ctx).set(accountKey(account.address), encodeAccount(account));
  }

  /** Hands out the next account number (collections.Sequence.Next). */
  nextAccountNumber(ctx: Context): bigint {
    const store = this.store(ctx);
    const bytes = store.get(GLOBAL_ACCOUNT_NUMBER_KEY);
    const next = bytes === undefined ? 0n : readU64be(bytes);
    store.set(GLOBAL_ACCOUNT_NUMBER_KEY, u64be(next + 1n));
    return next;
  }

  /** The next number without consuming it. */
  peekAccountNumber(ctx: Context): bigint {
    const bytes = this.store(ctx).get(GLOBAL_ACCOUNT_NUMBER_KEY);
    return bytes === undefined ? 0n : readU64be(bytes);
  }

  /** A new keyed account (EthAccount, as Ethermint's ProtoAccount) with the next number; not stored. */
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account {
    return newEthAccount(address, this.nextAccountNumber(ctx));
  }

  addressByAccountNumber(ctx: Context, accountNumber: bigint): Uint8Array | undefined {
    return this.store(ctx).get(accountNumberKey(accountNumber));
  }

  /** Every account in address order. */
  async *iterateAccounts(ctx: Context): AsyncIterableIterator<Account> {
    const store = this.store(ctx);
    for await (const [, value] of store.iterator(ACCOUNTS_PREFIX, Uint8Array.of(ACCOUNTS_PREFIX[0]! + 1))) yield decodeAccount(value);
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
