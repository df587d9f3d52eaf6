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
import { ConsensusError } from '../errors.js';
import { nullLogger, type Logger } from '../logger.js';
import { defaultMempoolOptions, type MempoolOptions } from '../options.js';
import { protoSizeOfTx, txHash } from '../types/block.js';
import { toHexUpper } from '../types/bytes.js';

interface MempoolTx {
  tx: Uint8Array;
  key: string;
  /** Height at which the tx was admitted. */
  height: number;
  gasWanted: bigint;
  sender?: string;
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
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  has(hash: Uint8Array): boolean;
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
  private height = 0;
  private notifiedTxsAvailable = false;
  private txsAvailableListener: (() => void) | undefined;
  private txAdmittedListener: ((tx: Uint8Array) => void) | undefined;
  private closed = false;

  constructor(
    private readonly app: Pick<Application, 'checkTx'>,
    options: Partial<MempoolOptions> = {},
    private readonly logger: Logger = nullLogger,
  ) {
    this.options = { ...defaultMempoolOptions, ...options };
    this.cache = new TxCache(this.options.cacheSize);
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

  /** Called (at most once per height) when the pool becomes non-empty (TxsAvailable). */
  onTxsAvailable(listener: () => void): void {
    this.txsAvailableListener = listener;
  }

  /** Called for every tx admitted to the pool (the engine gossips it to peers). */
  onTxAdmitted(listener: (tx: Uint8Array) => void): void {
    this.txAdmittedListener = listener;
  }

  setHeight(height: number): void {
    this.height = height;
  }

  close(): void {
    this.closed = true;
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

  async checkTx(tx: Uint8Array): Promise<ResponseCheckTx> {
    if (this.closed) throw new ConsensusError('MEMPOOL_CLOSED', 'mempool is closed');
    const full = this.fullError(tx.length);
    if (full) throw full;
    if (tx.length > this.options.maxTxBytes) {
      throw new ConsensusError('MEMPOOL_TX_TOO_LARGE', `Tx too large. Max size is ${this.options.maxTxBytes}, but got ${tx.length}`);
    }
    const key = toHexUpper(txHash(tx));
    if (!this.cache.push(key)) throw new ConsensusError('MEMPOOL_TX_IN_CACHE', 'tx already exists in cache');

    const release = await this.lock.acquire();
    try {
      let res: ResponseCheckTx;
      try {
        res = await this.app.checkTx({ tx, type: 'new' });
      } catch (err) {
        this.cache.remove(key);
        throw err;
      }
      if (res.code === 0) {
        const fullNow = this.fullError(tx.length);
        if (fullNow) {
          this.cache.remove(key);
          this.logger.debug('mempool full after CheckTx; dropping tx', { tx: key });
          return res;
        }
        if (!this.txs.has(key)) {
          const entry: MempoolTx = { tx, key, height: this.height, gasWanted: res.gasWanted };
          if (res.sender !== undefined) entry.sender = res.sender;
          this.txs.set(key, entry);
          this.totalBytes += tx.length;
          this.notifyTxsAvailable();
          this.txAdmittedListener?.(tx);
        }
      } else if (!this.options.keepInvalidTxsInCache) {
        this.cache.remove(key);
      }
      return res;
    } finally {
      release();
    }
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
    txs.forEach((tx, i) => {
      const key = toHexUpper(txHash(tx));
      if (results[i]?.code === 0) this.cache.push(key);
      else if (!this.options.keepInvalidTxsInCache) this.cache.remove(key);
      const entry = this.txs.get(key);
      if (entry) {
        this.txs.delete(key);
        this.totalBytes -= entry.tx.length;
      }
    });
    if (this.options.recheck && this.txs.size > 0) await this.recheck();
    if (this.txs.size > 0) this.notifyTxsAvailable();
  }

  private async recheck(): Promise<void> {
    for (const entry of [...this.txs.values()]) {
      let res: ResponseCheckTx;
      try {
        res = await this.app.checkTx({ tx: entry.tx, type: 'recheck' });
      } catch (err) {
        this.logger.error('recheck failed; dropping tx', { tx: entry.key, err: (err as Error).message });
        res = { code: 1, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' };
      }
      if (res.code !== 0) {
        this.txs.delete(entry.key);
        this.totalBytes -= entry.tx.length;
        if (!this.options.keepInvalidTxsInCache) this.cache.remove(entry.key);
      }
    }
  }

  /** Remove everything (unsafe_flush_mempool). */
  flush(): void {
    this.txs.clear();
    this.totalBytes = 0;
  }
}
