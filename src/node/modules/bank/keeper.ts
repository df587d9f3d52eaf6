/**
 * The bank keeper (x/bank/keeper): balances, supply, send-enabled flags, denom metadata and the
 * coin movements other modules use (send, module transfers, delegation, mint/burn), emitting the
 * SDK's events in the SDK's order:
 *
 *   sendCoins:  coin_spent{spender, amount}, coin_received{receiver, amount},
 *               transfer{recipient, sender, amount}, message{sender}
 *
 * Amounts are bigint; balances are stored as decimal text and zero balances are deleted.
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { MetadataSchema, ParamsSchema, type Metadata } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import type { Account } from '../auth/account.js';
import type { KVStore } from '../../store/index.js';
import { accString } from '../shared/address.js';
import { addCoins, coinToString, coinsToString, isValidCoins, parseInt256, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DecodeMemo } from '../shared/memo.js';
import { SdkErrors } from '../shared/errors.js';
import { INDEX_MARKER, asciiBytes, fromUtf8, prefixEndBytes, readLengthPrefixed } from '../shared/keys.js';
import { BankErrors } from './errors.js';
import { coinReceivedEvent, coinSpentEvent, messageSenderEvent, transferEvent } from './events.js';
import type { BankAccountKeeper } from './expectedKeepers.js';
import {
  BALANCES_PREFIX,
  DENOM_METADATA_PREFIX,
  PARAMS_KEY,
  SEND_ENABLED_PREFIX,
  STORE_KEY,
  SUPPLY_PREFIX,
  balanceKey,
  balancesPrefix,
  denomMetadataKey,
  denomOwnerKey,
  sendEnabledKey,
  supplyKey,
} from './keys.js';
import { defaultBankParams, type BankParams } from './params.js';

const paramsMemo = new DecodeMemo<BankParams>((bytes) => fromBinary(ParamsSchema, bytes));
const amountCache = new WeakMap<Uint8Array, bigint>();

function decodeAmount(bytes: Uint8Array): bigint {
  let amount = amountCache.get(bytes);
  if (amount === undefined) {
    amount = parseInt256(fromUtf8(bytes)) ?? 0n;
    amountCache.set(bytes, amount);
  }
  return amount;
}

function encodeAmount(amount: bigint): Uint8Array {
  const bytes = asciiBytes(amount.toString());
  amountCache.set(bytes, amount);
  return bytes;
}

/** Addresses whose denom list is kept in memory for fast AllBalances queries. */
export const DENOM_CACHE_LIMIT = 100_000;

export class BankKeeper {
  private readonly blocked: Set<string>;
  /**
   * Query-side cache: the denoms an address holds at the latest committed height, in key order,
   * so AllBalances can answer with synchronous point reads instead of an async range scan. Not
   * state: balances are still read from the store; the list only says which keys to read.
   * An address that gains a denom in the block being executed is never cached until Commit, and
   * its entry is dropped at Commit (`onCommit`). A denom whose balance drops to zero may stay
   * listed; its read then finds nothing and it is skipped.
   */
  private readonly denomCache = new Map<string, string[]>();
  private readonly gainedDenom = new Set<string>();
  private committedHeight = -1;

  /** `blockedAddresses`: addresses that may not receive funds via MsgSend/MsgMultiSend. */
  constructor(
    private readonly accountKeeper: BankAccountKeeper,
    blockedAddresses: readonly Uint8Array[] = [],
  ) {
    this.blocked = new Set(blockedAddresses.map((address) => Buffer.from(address).toString('latin1')));
  }

  private store(ctx: Context): KVStore {
    return ctx.kv(STORE_KEY);
  }

  blockedAddr(address: Uint8Array): boolean {
    return this.blocked.has(Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('latin1'));
  }

  // ------------------------------------------------------------------ params, send enabled

  getParams(ctx: Context): BankParams {
    const bytes = this.store(ctx).get(PARAMS_KEY);
    if (bytes === undefined) return defaultBankParams();
    return paramsMemo.get(bytes);
  }

  setParams(ctx: Context, params: BankParams): void {
    this.store(ctx).set(PARAMS_KEY, toBinary(ParamsSchema, params));
  }

  /** The per-denom flag, if one is stored. */
  getSendEnabled(ctx: Context, denom: string): boolean | undefined {
    const bytes = this.store(ctx).get(sendEnabledKey(denom));
    return bytes === undefined ? undefined : bytes[0] === 1;
  }

  setSendEnabled(ctx: Context, denom: string, enabled: boolean): void {
    this.store(ctx).set(sendEnabledKey(denom), Uint8Array.of(enabled ? 1 : 0));
  }

  /** Removes the per-denom flag (the denom follows default_send_enabled again). */
  deleteSendEnabled(ctx: Context, denom: string): void {
    this.store(ctx).delete(sendEnabledKey(denom));
  }

  async *iterateSendEnabled(ctx: Context): AsyncIterableIterator<[string, boolean]> {
    for await (const [key, value] of this.store(ctx).iterator(SEND_ENABLED_PREFIX, prefixEndBytes(SEND_ENABLED_PREFIX))) {
      yield [fromUtf8(key.subarray(1)), value[0] === 1];
    }
  }

  isSendEnabledDenom(ctx: Context, denom: string): boolean {
    return this.getSendEnabled(ctx, denom) ?? this.getParams(ctx).defaultSendEnabled;
  }

  /** ErrSendDisabled "<denom> transfers are currently disabled" for the first disabled coin. */
  checkSendEnabled(ctx: Context, coins: readonly Coin[]): void {
    for (const coin of coins) {
      if (!this.isSendEnabledDenom(ctx, coin.denom)) throw BankErrors.SendDisabled.wrap(`${coin.denom} transfers are currently disabled`);
    }
  }

  // ------------------------------------------------------------------ balances

  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint {
    const bytes = this.store(ctx).get(balanceKey(address, denom));
    return bytes === undefined ? 0n : decodeAmount(bytes);
  }

  async getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]> {
    const prefix = balancesPrefix(address);
    const coins: Coin[] = [];
    for await (const [key, value] of this.store(ctx).iterator(prefix, prefixEndBytes(prefix))) {
      coins.push({ denom: fromUtf8(key.subarray(prefix.length)), amount: decodeAmount(value) });
    }
    return coins;
  }

  /** Every (address, balances) pair in key order. */
  async *iterateAllBalances(ctx: Context): AsyncIterableIterator<[Uint8Array, Coin[]]> {
    let current: Uint8Array | undefined;
    let coins: Coin[] = [];
    for await (const [key, value] of this.store(ctx).iterator(BALANCES_PREFIX, prefixEndBytes(BALANCES_PREFIX))) {
      const [address, denomBytes] = readLengthPrefixed(key, 1);
      if (current !== undefined && Buffer.compare(current, address) !== 0) {
        yield [current, coins];
        coins = [];
      }
      current = address.slice();
      coins.push({ denom: fromUtf8(denomBytes), amount: decodeAmount(value) });
    }
    if (current !== undefined) yield [current, coins];
  }

  /** Stores a balance (deleting zero), keeping the denom-owners index in step. */
  setBalance(ctx: Context, address: Uint8Array, denom: string, amount: bigint, previous?: bigint): void {
    if (amount < 0n) throw SdkErrors.InvalidCoins.wrap(`${amount}${denom}`);
    const store = this.store(ctx);
    const before = previous ?? this.getBalance(ctx, address, denom);
    if (amount === 0n) {
      if (before !== 0n) {
        store.delete(balanceKey(address, denom));
        store.delete(denomOwnerKey(denom, address));
      }
      return;
    }
    store.set(balanceKey(address, denom), encodeAmount(amount));
    if (before === 0n) {
      store.set(denomOwnerKey(denom, address), INDEX_MARKER);
      // CheckTx/simulate branches are never committed: only block execution changes what queries see.
      if (ctx.mode !== 'check' && ctx.mode !== 'recheck' && ctx.mode !== 'simulate' && ctx.mode !== 'query') {
        const cacheKey = Buffer.from(address).toString('latin1');
        this.gainedDenom.add(cacheKey);
        this.denomCache.delete(cacheKey);
      }
    }
  }

  /** The app calls this after every Commit (and once at open) with the committed height. */
  onCommit(height: number): void {
    for (const cacheKey of this.gainedDenom) this.denomCache.delete(cacheKey);
    this.gainedDenom.clear();
    this.committedHeight = height;
  }

  /** Cached denoms of `address` for a query at the latest committed height, else undefined. */
  cachedDenoms(ctx: Context, address: Uint8Array): readonly string[] | undefined {
    if (ctx.mode !== 'query' || ctx.blockHeight !== this.committedHeight) return undefined;
    const cacheKey = Buffer.from(address).toString('latin1');
    if (this.gainedDenom.has(cacheKey)) return undefined;
    const denoms = this.denomCache.get(cacheKey);
    if (denoms !== undefined) {
      // Least recently used goes first out: move to the back.
      this.denomCache.delete(cacheKey);
      this.denomCache.set(cacheKey, denoms);
    }
    return denoms;
  }

  /** Remember the complete denom list read at `height`, if that is still the latest committed one. */
  rememberDenoms(height: number, address: Uint8Array, denoms: string[]): void {
    const cacheKey = Buffer.from(address).toString('latin1');
    // A commit may have landed while the list was being read: then it may be stale.
    if (height !== this.committedHeight || this.gainedDenom.has(cacheKey)) return;
    this.denomCache.set(cacheKey, denoms);
    if (this.denomCache.size > DENOM_CACHE_LIMIT) this.denomCache.delete(this.denomCache.keys().next().value as string);
  }

  /** subUnlockedCoins: ErrInsufficientFunds "spendable balance X is smaller than Y"; emits coin_spent. */
  subUnlockedCoins(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void {
    if (!isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
    for (const coin of coins) {
      const balance = this.getBalance(ctx, address, coin.denom);
      if (balance < coin.amount) {
        throw SdkErrors.InsufficientFunds.wrap(`spendable balance ${balance}${coin.denom} is smaller than ${coinToString(coin)}`);
      }
      this.setBalance(ctx, address, coin.denom, balance - coin.amount, balance);
    }
    ctx.events.emit(coinSpentEvent(accString(address), coins));
  }

  /** addCoins: emits coin_received. */
  addCoins(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void {
    if (!isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
    for (const coin of coins) {
      const balance = this.getBalance(ctx, address, coin.denom);
      this.setBalance(ctx, address, coin.denom, balance + coin.amount, balance);
    }
    ctx.events.emit(coinReceivedEvent(accString(address), coins));
  }

  /** SendCoins: moves coins, creates the recipient account if missing, emits transfer + message. */
  sendCoins(ctx: Context, from: Uint8Array, to: Uint8Array, coins: readonly Coin[]): void {
    this.subUnlockedCoins(ctx, from, coins);
    this.addCoins(ctx, to, coins);
    this.ensureAccount(ctx, to);
    const sender = accString(from);
    ctx.events.emit(transferEvent(accString(to), sender, coins));
    ctx.events.emit(messageSenderEvent(sender));
  }

  /** Creates the account if the address has none (new recipients). */
  ensureAccount(ctx: Context, address: Uint8Array): void {
    if (!this.accountKeeper.hasAccount(ctx, address)) this.accountKeeper.setAccount(ctx, this.accountKeeper.newAccountWithAddress(ctx, address));
  }

  private moduleAccount(ctx: Context, name: string): Account {
    const account = this.accountKeeper.getModuleAccount(ctx, name);
    if (account === undefined) throw SdkErrors.UnknownAddress.wrap(`module account ${name} does not exist`);
    return account;
  }

  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void {
    this.sendCoins(ctx, from, this.moduleAccount(ctx, module).address, coins);
  }

  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void {
    if (this.blockedAddr(to)) throw SdkErrors.Unauthorized.wrap(`${accString(to)} is not allowed to receive funds`);
    this.sendCoins(ctx, this.moduleAccount(ctx, module).address, to, coins);
  }

  sendCoinsFromModuleToModule(ctx: Context, fromModule: string, toModule: string, coins: readonly Coin[]): void {
    this.sendCoins(ctx, this.moduleAccount(ctx, fromModule).address, this.moduleAccount(ctx, toModule).address, coins);
  }

  /**
   * DelegateCoinsFromAccountToModule: "failed to delegate; B is smaller than A: insufficient
   * funds"; emits coin_spent then coin_received (no transfer event, as the SDK).
   */
  delegateCoinsFromAccountToModule(ctx: Context, delegator: Uint8Array, module: string, coins: readonly Coin[]): void {
    const moduleAccount = this.moduleAccount(ctx, module);
    if (!isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
    for (const coin of coins) {
      const balance = this.getBalance(ctx, delegator, coin.denom);
      if (balance < coin.amount) {
        throw SdkErrors.InsufficientFunds.wrap(`failed to delegate; ${balance}${coin.denom} is smaller than ${coinsToString(coins)}`);
      }
      this.setBalance(ctx, delegator, coin.denom, balance - coin.amount, balance);
    }
    ctx.events.emit(coinSpentEvent(accString(delegator), coins));
    this.addCoins(ctx, moduleAccount.address, coins);
  }

  /** Mints into a module account (needs the minter permission); emits coin_received + coinbase. */
  mintCoins(ctx: Context, module: string, coins: readonly Coin[]): void {
    const account = this.moduleAccount(ctx, module);
    if (!account.permissions.includes('minter')) throw SdkErrors.Unauthorized.wrap(`module account ${module} does not have permissions to mint tokens`);
    this.addCoins(ctx, account.address, coins);
    for (const coin of coins) this.setSupply(ctx, coin.denom, this.getSupply(ctx, coin.denom) + coin.amount);
  }

  /** Burns from a module account (needs the burner permission). */
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void {
    const account = this.moduleAccount(ctx, module);
    if (!account.permissions.includes('burner')) throw SdkErrors.Unauthorized.wrap(`module account ${module} does not have permissions to burn tokens`);
    this.subUnlockedCoins(ctx, account.address, coins);
    for (const coin of coins) this.setSupply(ctx, coin.denom, this.getSupply(ctx, coin.denom) - coin.amount);
  }

  // ------------------------------------------------------------------ supply

  getSupply(ctx: Context, denom: string): bigint {
    const bytes = this.store(ctx).get(supplyKey(denom));
    return bytes === undefined ? 0n : decodeAmount(bytes);
  }

  setSupply(ctx: Context, denom: string, amount: bigint): void {
    if (amount === 0n) this.store(ctx).delete(supplyKey(denom));
    else this.store(ctx).set(supplyKey(denom), encodeAmount(amount));
  }

  async getTotalSupply(ctx: Context): Promise<Coin[]> {
    const coins: Coin[] = [];
    for await (const [key, value] of this.store(ctx).iterator(SUPPLY_PREFIX, prefixEndBytes(SUPPLY_PREFIX))) {
      coins.push({ denom: fromUtf8(key.subarray(1)), amount: decodeAmount(value) });
    }
    return addCoins(coins, []);
  }

  // ------------------------------------------------------------------ metadata

  getDenomMetadata(ctx: Context, denom: string): Metadata | undefined {
    const bytes = this.store(ctx).get(denomMetadataKey(denom));
    return bytes === undefined ? undefined : fromBinary(MetadataSchema, bytes);
  }

  setDenomMetadata(ctx: Context, metadata: Metadata): void {
    this.store(ctx).set(denomMetadataKey(metadata.base), toBinary(MetadataSchema, metadata));
  }

  async getAllDenomMetadata(ctx: Context): Promise<Metadata[]> {
    const all: Metadata[] = [];
    for await (const [, value] of this.store(ctx).iterator(DENOM_METADATA_PREFIX, prefixEndBytes(DENOM_METADATA_PREFIX))) {
      all.push(fromBinary(MetadataSchema, value));
    }
    return all;
  }
}

export { decodeAmount as decodeStoredAmount };
