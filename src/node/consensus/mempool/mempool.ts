/**
 * The mempool (mempool/clist_mempool.go): CheckTx-gated FIFO of pending txs with a dedup cache.
 *
 * - `checkTx` refuses oversize txs, a full pool and txs seen recently (with CometBFT's error texts,
 *   which the RPC returns verbatim), then asks the app (CheckTx 'new'); a tx with code 0 is
 *   appended. FIFO order keeps each sender's txs in submission order.
 * - All app calls (CheckTx, and the engine's Commit + update) are serialized by one lock, so the
 *   app never sees CheckTx while it commits, and rechecks run before new txs.
 * - After a block: committed txs are removed, the rest re-checked (CheckTx 'recheck').
 */
import type { Application, ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import { PriorityGate, TimeSlicer, TurnSlicer } from '../../../util/slices.js';
import { ConsensusError } from '../errors.js';
import { nullLogger, type Logger } from '../../logger.js';
import { defaultMempoolOptions, type MempoolOptions } from '../options.js';
import { protoSizeOfTx, txHash } from '../types/block.js';
import { toHexUpper } from '../types/bytes.js';
import type { Eviction, MempoolStore } from './store.js';

export interface MempoolTx {
  tx: Uint8Array;
  key: string;
  /** Height at which the tx was admitted. */
  height: number;
  gasWanted: bigint;
  sender?: string;
  /** Admission order (the mempool reactor's cursor). */
  seq: number;
  /** Peers that sent us this tx (never sent back to them). */
  senders: Set<string>;
  removed: boolean;
}

/** What the RPC layer reads and calls. */
export interface MempoolReader {
  /** Number of txs in the pool. */
  size(): number;
  /** Total bytes of the txs in the pool. */
  sizeBytes(): number;
  /** Up to `limit` txs in FIFO order (all when negative). */
  reapMaxTxs(limit: number): Uint8Array[];
  /** CheckTx-gated insertion; throws the CometBFT refusals (cache, full, too large) as ConsensusError. */
  checkTx(tx: Uint8Array, options?: CheckTxOptions): Promise<ResponseCheckTx>;
  has(hash: Uint8Array): boolean;
  /** Why a tx that got code 0 was evicted from the (durable) mempool, if it was. */
  evictionOf?(hash: Uint8Array): Eviction | undefined;
  /** Txs admitted so far (only grows). */
  admittedCount?(): number;
}

export interface CheckTxOptions {
  /** The peer the tx came from (it is not gossiped back to it). */
  sender?: string;
}

/** A small LRU set of tx keys (mempool.LRUTxCache). */
class TxCache {
  private readonly keys = new Map<string, true>();

  constructor(private readonly capacity: number) {}

  /** Returns false if already present (and refreshes it). */
  push(key: string): boolean {
    if (this.capacity <= 0) return true;
    if (this.keys.has(key)) {
      this.keys.delete(key);
      this.keys.set(key, true);
      return false;
    }
    if (this.keys.size >= this.capacity) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    this.keys.set(key, true);
    return true;
  }

  remove(key: string): void {
    this.keys.delete(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}

/** What the mempool needs of the app: CheckTx, and optionally work it can start before CheckTx. */
export type MempoolApp = Pick<Application, 'checkTx' | 'precheckTx'>;

/** Longest stretch of re-checking before the event loop gets a turn. */
const RECHECK_SLICE_MS = 4;
/**
 * Longest chain of CheckTx calls in one event-loop turn: txs whose signatures a worker verified in
 * one batch all become ready at once and would otherwise run back to back, holding off queries
 * and sockets for the whole batch.
 */
const CHECK_TURN_MS = 4;

/** A minimal async mutex (FIFO). */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const prev = this.tail;
    this.tail = prev.then(() => next);
    await prev;
    return release;
  }
}

export class Mempool implements MempoolReader {
  private readonly txs = new Map<string, MempoolTx>();
  private totalBytes = 0;
  private readonly cache: TxCache;
  private readonly options: MempoolOptions;
  private readonly lock = new Mutex();
  private readonly checkTurn = new TurnSlicer(CHECK_TURN_MS);
  /**
   * Consensus before admission: while the engine waits for its WAL or signer to reach the disk
   * (`priority.during(fsync)`), CheckTx of new txs waits; queries and sockets are served.
   */
  readonly priority = new PriorityGate();
  private height = 0;
  private notifiedTxsAvailable = false;
  private txsAvailableListener: (() => void) | undefined;
  private closed = false;
  private refusal: string | undefined;
  /** Entries in admission order (removed ones are skipped, compacted now and then). */
  private order: MempoolTx[] = [];
  private removedInOrder = 0;
  private nextSeq = 1;
  private newTxWaiters: (() => void)[] = [];

  constructor(
    private readonly app: MempoolApp,
    options: Partial<MempoolOptions> = {},
    private readonly logger: Logger = nullLogger,
    /** The durable mempool's records (mempool/store.ts); absent: memory only, as in CometBFT. */
    private readonly store?: MempoolStore,
  ) {
    this.options = { ...defaultMempoolOptions, ...options };
    this.cache = new TxCache(this.options.cacheSize);
  }

  /** Txs admitted since the pool was created (a counter that only grows: the memory releaser's load signal). */
  admittedCount(): number {
    return this.nextSeq;
  }

  size(): number {
    return this.txs.size;
  }

  sizeBytes(): number {
    return this.totalBytes;
  }

  has(hash: Uint8Array): boolean {
    return this.txs.has(toHexUpper(hash));
  }

  evictionOf(hash: Uint8Array): Eviction | undefined {
    return this.txs.has(toHexUpper(hash)) ? undefined : this.store?.eviction(hash);
  }

  /**
   * At start (the app at its latest state): re-check the txs the durable mempool kept, in their
   * admission order; those still valid are admitted again (and so gossiped again), the others are
   * recorded as evicted with the reason.
   */
  async restore(): Promise<{ restored: number; evicted: number }> {
    if (!this.store) return { restored: 0, evicted: 0 };
    const kept = await this.store.load();
    const evictions: { key: string; height: number; reason: string }[] = [];
    let restored = 0;
    for (const stored of kept) {
      if (this.txs.has(stored.key)) continue;
      let res: ResponseCheckTx;
      try {
        res = await this.app.checkTx({ tx: stored.tx, type: 'new' });
      } catch (err) {
        evictions.push({ key: stored.key, height: this.height, reason: `re-check at start failed: ${(err as Error).message}` });
        continue;
      }
      if (res.code !== 0) {
        evictions.push({ key: stored.key, height: this.height, reason: `re-check at start failed: code ${res.code}${res.codespace ? ` (${res.codespace})` : ''}: ${res.log}` });
        continue;
      }
      if (this.fullError(stored.tx.length)) {
        evictions.push({ key: stored.key, height: this.height, reason: 'mempool full at restart (size / max_txs_bytes)' });
        continue;
      }
      this.cache.push(stored.key);
      this.admit(stored.tx, stored.key, res);
      restored++;
    }
    await this.store.evict(evictions);
    await this.store.pruneEvictions();
    if (restored + evictions.length > 0) this.logger.info('durable mempool restored', { restored, evicted: evictions.length });
    return { restored, evicted: evictions.length };
  }

  private admit(tx: Uint8Array, key: string, res: ResponseCheckTx, sender?: string): MempoolTx {
    const entry: MempoolTx = { tx, key, height: this.height, gasWanted: res.gasWanted, seq: this.nextSeq++, senders: new Set(), removed: false };
    if (sender) entry.senders.add(sender);
    if (res.sender !== undefined) entry.sender = res.sender;
    this.txs.set(key, entry);
    this.order.push(entry);
    this.totalBytes += tx.length;
    this.notifyTxsAvailable();
    const waiters = this.newTxWaiters;
    this.newTxWaiters = [];
    for (const w of waiters) w();
    return entry;
  }

  /** Called (at most once per height) when the pool becomes non-empty (TxsAvailable). */
  onTxsAvailable(listener: () => void): void {
    this.txsAvailableListener = listener;
  }

  /** The first pool entry admitted after `seq` (0 = from the start), for gossip cursors. */
  nextAfter(seq: number): MempoolTx | undefined {
    const order = this.order;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < order.length; i++) if (!order[i]!.removed) return order[i];
    return undefined;
  }

  /** Resolves when a tx is admitted (or after `timeoutMs`). */
  waitForNewTx(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.newTxWaiters = this.newTxWaiters.filter((w) => w !== done);
        resolve();
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.newTxWaiters.push(done);
    });
  }

  private removeEntry(entry: MempoolTx): void {
    this.txs.delete(entry.key);
    this.totalBytes -= entry.tx.length;
    entry.removed = true;
    this.removedInOrder++;
    if (this.removedInOrder > 64 && this.removedInOrder * 2 > this.order.length) {
      this.order = this.order.filter((e) => !e.removed);
      this.removedInOrder = 0;
    }
  }

  setHeight(height: number): void {
    this.height = height;
  }

  close(): void {
    this.closed = true;
  }

  /**
   * Refuse every new tx with `reason` (the node cannot commit: a storage fault). Txs already in
   * the pool stay; nothing accepted now could be committed.
   */
  refuseNewTxs(reason: string): void {
    this.refusal ??= reason;
  }

  private notifyTxsAvailable(): void {
    if (this.txs.size === 0 || this.notifiedTxsAvailable || !this.txsAvailableListener) return;
    this.notifiedTxsAvailable = true;
    this.txsAvailableListener();
  }

  private fullError(txSize: number): ConsensusError | undefined {
    if (this.txs.size >= this.options.size || txSize + this.totalBytes > this.options.maxTxsBytes) {
      return new ConsensusError(
        'MEMPOOL_FULL',
        `mempool is full: number of txs ${this.txs.size} (max: ${this.options.size}), total txs bytes ${this.totalBytes} (max: ${this.options.maxTxsBytes})`,
      );
    }
    return undefined;
  }

  async checkTx(tx: Uint8Array, options: CheckTxOptions = {}): Promise<ResponseCheckTx> {
    if (this.closed) throw new ConsensusError('MEMPOOL_CLOSED', 'mempool is closed');
    if (this.refusal !== undefined) throw new ConsensusError('MEMPOOL_CLOSED', `node cannot commit blocks, not accepting txs: ${this.refusal}`);
    const full = this.fullError(tx.length);
    if (full) throw full;
    if (tx.length > this.options.maxTxBytes) {
      throw new ConsensusError('MEMPOOL_TX_TOO_LARGE', `Tx too large. Max size is ${this.options.maxTxBytes}, but got ${tx.length}`);
    }
    const key = toHexUpper(txHash(tx));
    if (!this.cache.push(key)) {
      // Remember every peer that sent it, so that it is not sent back to them.
      if (options.sender) this.txs.get(key)?.senders.add(options.sender);
      throw new ConsensusError('MEMPOOL_TX_IN_CACHE', 'tx already exists in cache');
    }

    // Signatures go to the worker threads now, batched with other arrivals, while CheckTx of
    // earlier txs holds the app; CheckTx then finds them verified.
    if (this.app.precheckTx !== undefined) await this.app.precheckTx(tx);
    const release = await this.lock.acquire();
    if (this.priority.closed) await this.priority.passage();
    if (this.checkTurn.due()) await this.checkTurn.pause();
    let persisted: Promise<void> | undefined;
    let admitted: MempoolTx | undefined;
    let res: ResponseCheckTx;
    try {
      try {
        res = await this.app.checkTx({ tx, type: 'new' });
      } catch (err) {
        this.cache.remove(key);
        throw err;
      }
      if (res.code === 0) {
        const fullNow = this.fullError(tx.length);
        if (fullNow) {
          // Never answer code 0 for a tx that is not kept.
          this.cache.remove(key);
          throw fullNow;
        }
        if (!this.txs.has(key)) {
          admitted = this.admit(tx, key, res, options.sender);
          persisted = this.store?.add(key, admitted.seq, this.height, tx);
        }
      } else if (!this.options.keepInvalidTxsInCache) {
        this.cache.remove(key);
      }
    } finally {
      release();
    }
    // Code 0 is answered only once the tx is on disk (durable mempool).
    if (persisted) {
      try {
        await persisted;
      } catch (err) {
        if (admitted && !admitted.removed) this.removeEntry(admitted);
        this.cache.remove(key);
        throw err;
      }
    }
    return res;
  }

  /** Txs for a proposal in FIFO order, within `maxBytes` of Data encoding (-1 = no limit) and `maxGas` (-1 = no limit). */
  reapMaxBytesMaxGas(maxBytes: number, maxGas: bigint): Uint8Array[] {
    const out: Uint8Array[] = [];
    let runningSize = 0;
    let totalGas = 0n;
    for (const entry of this.txs.values()) {
      const size = protoSizeOfTx(entry.tx);
      if (maxBytes > -1 && runningSize + size > maxBytes) break;
      const gas = totalGas + entry.gasWanted;
      if (maxGas > -1n && gas > maxGas) break;
      runningSize += size;
      totalGas = gas;
      out.push(entry.tx);
    }
    return out;
  }

  reapMaxTxs(limit: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const entry of this.txs.values()) {
      if (limit >= 0 && out.length >= limit) break;
      out.push(entry.tx);
    }
    return out;
  }

  /** Take the lock around the app's Commit and `update` (BlockExecutor.Commit). */
  acquire(): Promise<() => void> {
    return this.lock.acquire();
  }

  /**
   * After a block is committed (call while holding the lock): drop the block's txs, keep valid
   * ones in the cache, and re-check the remaining txs against the new state.
   */
  async update(height: number, txs: readonly Uint8Array[], results: readonly ExecTxResult[]): Promise<void> {
    this.height = height;
    this.notifiedTxsAvailable = false;
    const committed: string[] = [];
    txs.forEach((tx, i) => {
      const key = toHexUpper(txHash(tx));
      if (results[i]?.code === 0) this.cache.push(key);
      else if (!this.options.keepInvalidTxsInCache) this.cache.remove(key);
      const entry = this.txs.get(key);
      if (entry) {
        this.removeEntry(entry);
        committed.push(key);
      }
    });
    // Not awaited: a record left behind by a crash is re-checked at start (and fails: committed).
    if (this.store && committed.length > 0) void this.store.remove(committed).catch((err: Error) => this.logger.error('durable mempool: cannot forget committed txs', { err: err.message }));
    if (this.options.recheck && this.txs.size > 0) await this.recheck();
    if (this.txs.size > 0) this.notifyTxsAvailable();
  }

  private async recheck(): Promise<void> {
    const evictions: { key: string; height: number; reason: string }[] = [];
    const slicer = new TimeSlicer(RECHECK_SLICE_MS);
    for (const entry of [...this.txs.values()]) {
      // A large pool takes a while: let queries and sockets in every few milliseconds (new
      // CheckTx waits for the lock this runs under).
      if (slicer.due()) await slicer.pause();
      if (entry.removed) continue;
      let res: ResponseCheckTx;
      try {
        res = await this.app.checkTx({ tx: entry.tx, type: 'recheck' });
      } catch (err) {
        this.logger.error('recheck failed; dropping tx', { tx: entry.key, err: (err as Error).message });
        res = { code: 1, data: new Uint8Array(0), log: `recheck failed: ${(err as Error).message}`, info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' };
      }
      if (res.code !== 0) {
        this.removeEntry(entry);
        if (!this.options.keepInvalidTxsInCache) this.cache.remove(entry.key);
        evictions.push({ key: entry.key, height: this.height, reason: `re-check after block ${this.height} failed: code ${res.code}${res.codespace ? ` (${res.codespace})` : ''}: ${res.log}` });
      }
    }
    if (this.store && evictions.length > 0) void this.store.evict(evictions).catch((err: Error) => this.logger.error('durable mempool: cannot record evictions', { err: err.message }));
  }

  /** Remove everything (unsafe_flush_mempool). */
  flush(): void {
    if (this.store && this.txs.size > 0) {
      const evictions = [...this.txs.keys()].map((key) => ({ key, height: this.height, reason: 'removed by unsafe_flush_mempool' }));
      void this.store.evict(evictions).catch((err: Error) => this.logger.error('durable mempool: cannot record evictions', { err: err.message }));
    }
    for (const entry of this.txs.values()) entry.removed = true;
    this.txs.clear();
    this.order = [];
    this.removedInOrder = 0;
    this.totalBytes = 0;
  }
}
