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
import type { Metadata } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import type { Account } from '../auth/account.js';
import { accString } from '../shared/address.js';
import { addCoins, coinToString, coinsToString, isValidCoins, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { BankErrors } from './errors.js';
import { coinReceivedEvent, coinSpentEvent, messageSenderEvent, transferEvent } from './events.js';
import type { BankAccountKeeper } from './expectedKeepers.js';
import { Balances, DenomMetadata, Params, SendEnabled, Supply } from './keys.js';
import { defaultBankParams, type BankParams } from './params.js';

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

  blockedAddr(address: Uint8Array): boolean {
    return this.blocked.has(Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('latin1'));
  }

  // ------------------------------------------------------------------ params, send enabled

  getParams(ctx: Context): BankParams {
    return Params.get(ctx) ?? defaultBankParams();
  }

  setParams(ctx: Context, params: BankParams): void {
    Params.set(ctx, params);
  }

  /** The per-denom flag, if one is stored. */
  getSendEnabled(ctx: Context, denom: string): boolean | undefined {
    return SendEnabled.get(ctx, denom);
  }

  setSendEnabled(ctx: Context, denom: string, enabled: boolean): void {
    SendEnabled.set(ctx, denom, enabled);
  }

  /** Removes the per-denom flag (the denom follows default_send_enabled again). */
  deleteSendEnabled(ctx: Context, denom: string): void {
    SendEnabled.remove(ctx, denom);
  }

  iterateSendEnabled(ctx: Context): AsyncIterableIterator<[string, boolean]> {
    return SendEnabled.iterate(ctx);
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
    return Balances.get(ctx, [address, denom]) ?? 0n;
  }

  async getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]> {
    const coins: Coin[] = [];
    for await (const [[, denom], amount] of Balances.iterate(ctx, { prefix: [address] })) coins.push({ denom, amount });
    return coins;
  }

  /** Every (address, balances) pair in key order. */
  async *iterateAllBalances(ctx: Context): AsyncIterableIterator<[Uint8Array, Coin[]]> {
    let current: Uint8Array | undefined;
    let coins: Coin[] = [];
    for await (const [[address, denom], amount] of Balances.iterate(ctx)) {
      if (current !== undefined && Buffer.compare(current, address) !== 0) {
        yield [current, coins];
        coins = [];
      }
      current = address;
      coins.push({ denom, amount });
    }
    if (current !== undefined) yield [current, coins];
  }

  /**
   * Stores a balance (removing a zero one); the collection keeps the denom-owners index in step.
   * `previous`: the balance the caller has just read (saves a read).
   */
  setBalance(ctx: Context, address: Uint8Array, denom: string, amount: bigint, previous?: bigint): void {
    if (amount < 0n) throw SdkErrors.InvalidCoins.wrap(`${amount}${denom}`);
    const before = previous ?? this.getBalance(ctx, address, denom);
    Balances.update(ctx, [address, denom], before === 0n ? undefined : before, amount === 0n ? undefined : amount);
    if (amount !== 0n && before === 0n) {
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
    if (ctx.events.enabled) ctx.events.emit(coinSpentEvent(accString(address), coins));
  }

  /** addCoins: emits coin_received. */
  addCoins(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void {
    if (!isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
    for (const coin of coins) {
      const balance = this.getBalance(ctx, address, coin.denom);
      this.setBalance(ctx, address, coin.denom, balance + coin.amount, balance);
    }
    if (ctx.events.enabled) ctx.events.emit(coinReceivedEvent(accString(address), coins));
  }

  /** SendCoins: moves coins, creates the recipient account if missing, emits transfer + message. */
  sendCoins(ctx: Context, from: Uint8Array, to: Uint8Array, coins: readonly Coin[]): void {
    this.subUnlockedCoins(ctx, from, coins);
    this.addCoins(ctx, to, coins);
    this.ensureAccount(ctx, to);
    if (!ctx.events.enabled) return;
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
    if (ctx.events.enabled) ctx.events.emit(coinSpentEvent(accString(delegator), coins));
    this.addCoins(ctx, moduleAccount.address, coins);
  }

  /**
   * UndelegateCoinsFromModuleToAccount: tokens leaving a staking pool for the delegator (module
   * account needs the staking permission); emits coin_spent then coin_received.
   */
  undelegateCoinsFromModuleToAccount(ctx: Context, module: string, delegator: Uint8Array, coins: readonly Coin[]): void {
    const moduleAccount = this.moduleAccount(ctx, module);
    if (!moduleAccount.permissions.includes('staking')) throw SdkErrors.Unauthorized.wrap(`module account ${module} does not have permissions to undelegate coins`);
    this.subUnlockedCoins(ctx, moduleAccount.address, coins);
    this.addCoins(ctx, delegator, coins);
    this.ensureAccount(ctx, delegator);
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
    return Supply.get(ctx, denom) ?? 0n;
  }

  setSupply(ctx: Context, denom: string, amount: bigint): void {
    if (amount === 0n) Supply.remove(ctx, denom);
    else Supply.set(ctx, denom, amount);
  }

  async getTotalSupply(ctx: Context): Promise<Coin[]> {
    const coins: Coin[] = [];
    for await (const [denom, amount] of Supply.iterate(ctx)) coins.push({ denom, amount });
    return addCoins(coins, []);
  }

  // ------------------------------------------------------------------ metadata

  getDenomMetadata(ctx: Context, denom: string): Metadata | undefined {
    return DenomMetadata.get(ctx, denom);
  }

  setDenomMetadata(ctx: Context, metadata: Metadata): void {
    DenomMetadata.set(ctx, metadata.base, metadata);
  }

  async getAllDenomMetadata(ctx: Context): Promise<Metadata[]> {
    const all: Metadata[] = [];
    for await (const metadata of DenomMetadata.values(ctx)) all.push(metadata);
    return all;
  }
}
