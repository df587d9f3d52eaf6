/**
 * The durable mempool (beyond CometBFT, issue 14): every tx CheckTx accepted is written to the
 * node's database before its code 0 is answered, and deleted when it is committed or evicted, so
 * a tx that got code 0 survives `kill -9`: at start it is re-checked and re-admitted (and so
 * re-gossiped), or recorded as evicted with the reason. Evictions (re-check failure, pool full at
 * restart, unsafe_flush_mempool) are kept so that `tx` can say why a hash will never be found.
 *
 * Writes are not fsync'd: they reach the OS before code 0 is answered, which is what a killed
 * process needs; a power loss may lose the last ones (as the kv indexer). One record per tx:
 *   mempoolTx      hash → seq u64 ‖ height u64 ‖ tx
 *   mempoolEvicted hash → JSON {height, reason, timeMs}
 */
import type { BatchOp, Database } from '../../store/db/database.js';
import { Bucket, bucketKey } from '../../store/db/buckets.js';
import { fromHex, readUint64BE, toHexUpper, uint64BE } from '../../../util/bytes.js';

export interface StoredTx {
  key: string;
  seq: number;
  height: number;
  tx: Uint8Array;
}

export interface Eviction {
  height: number;
  reason: string;
  timeMs: number;
}

/** Eviction records kept (the oldest are dropped at start beyond this). */
export const MAX_EVICTION_RECORDS = 100_000;

export class MempoolStore {
  constructor(private readonly db: Database) {}

  private txKey(key: string): Uint8Array {
    return bucketKey(Bucket.mempoolTx, fromHex(key));
  }

  private evictedKey(key: string): Uint8Array {
    return bucketKey(Bucket.mempoolEvicted, fromHex(key));
  }

  /**
   * Keep an accepted tx (resolves once the write reached the database). The txs accepted within
   * one turn of the event loop go to the database as one batch (one native call, one log write).
   */
  add(key: string, seq: number, height: number, tx: Uint8Array): Promise<void> {
    const value = new Uint8Array(16 + tx.length);
    value.set(uint64BE(seq), 0);
    value.set(uint64BE(height), 8);
    value.set(tx, 16);
    this.pending.push({ type: 'put', key: this.txKey(key), value });
    this.flushing ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        const ops = this.pending;
        this.pending = [];
        this.flushing = undefined;
        this.db.batch(ops).then(resolve, reject);
      });
    });
    return this.flushing;
  }

  private pending: BatchOp[] = [];
  private flushing: Promise<void> | undefined;

  /** Forget txs that were committed. */
  async remove(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.batch(keys.map((key) => ({ type: 'del' as const, key: this.txKey(key) })));
  }

  /** Forget txs and record why they were evicted. */
  async evict(evictions: readonly { key: string; height: number; reason: string }[]): Promise<void> {
    if (evictions.length === 0) return;
    const now = Date.now();
    const enc = new TextEncoder();
    await this.db.batch(
      evictions.flatMap(({ key, height, reason }) => [
        { type: 'del' as const, key: this.txKey(key) },
        { type: 'put' as const, key: this.evictedKey(key), value: enc.encode(JSON.stringify({ height, reason, timeMs: now })) },
      ]),
    );
  }

  /** Every kept tx, in admission order. */
  async load(): Promise<StoredTx[]> {
    const out: StoredTx[] = [];
    const prefix = new Uint8Array([Bucket.mempoolTx]);
    for await (const [k, v] of this.db.entries({ gte: prefix, lt: new Uint8Array([Bucket.mempoolTx + 1]) })) {
      out.push({ key: toHexUpper(k.subarray(1)), seq: readUint64BE(v, 0), height: readUint64BE(v, 8), tx: v.slice(16) });
    }
    out.sort((a, b) => a.seq - b.seq);
    return out;
  }

  /** Why the tx with this hash was evicted, if it was. */
  eviction(hash: Uint8Array): Eviction | undefined {
    const raw = this.db.getSync(bucketKey(Bucket.mempoolEvicted, hash));
    if (!raw) return undefined;
    return JSON.parse(new TextDecoder().decode(raw)) as Eviction;
  }

  /** Drop the oldest eviction records beyond `keep`. */
  async pruneEvictions(keep = MAX_EVICTION_RECORDS): Promise<void> {
    const records: { key: Uint8Array; timeMs: number }[] = [];
    for await (const [k, v] of this.db.entries({ gte: new Uint8Array([Bucket.mempoolEvicted]), lt: new Uint8Array([Bucket.mempoolEvicted + 1]) })) {
      records.push({ key: k.slice(), timeMs: (JSON.parse(new TextDecoder().decode(v)) as Eviction).timeMs });
    }
    if (records.length <= keep) return;
    records.sort((a, b) => a.timeMs - b.timeMs);
    await this.db.batch(records.slice(0, records.length - keep).map((r) => ({ type: 'del' as const, key: r.key })));
  }
}
