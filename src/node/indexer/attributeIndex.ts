/**
 * The ordinal attribute index shared by the tx and block indexers.
 *
 * For every (composite key, value) pair — "transfer.recipient" = "token1…" — the items carrying it
 * are numbered 0, 1, 2, … in the order they were indexed, which is (height, index) order because
 * blocks are indexed in height order. Entries live at attrKey ‖ seq and a counter at attrKey, so:
 *
 *   - the number of matches of an equality condition is one read,
 *   - page P of the matches is P's seq range read directly (no scan over earlier pages),
 *   - a height bound becomes a seq bound by binary search (heights grow with seq).
 *
 * The indexer is the only writer, so a small counter cache stays coherent. The cache is an LRU of
 * a fixed size (IndexerOptions.countCacheSize) and never holds a counter of 1: most attribute
 * values are unique to one tx (tx.signature, tx.acc_seq, …) and their counters are never read
 * again, so caching them only grows the heap; a value seen a second time costs one read and is
 * cached from then on.
 */
import type { BatchOp, Database } from '../store/db/database.js';
import type { Bucket } from '../store/db/buckets.js';
import { runToEnd } from '../../util/slices.js';
import { attrKey, compositePrefix, entryKeyFromCountKey, prefixEnd, readU64, seqKey, valueOfAttrKey, writeU64 } from './keys.js';

/** Counters kept in memory by default (a few hundred bytes each with their keys). */
export const DEFAULT_COUNT_CACHE_SIZE = 20_000;

/** The cache key of an attribute value. */
export function attributeId(compositeKey: string, value: string): string {
  return `${compositeKey}\u0000${value}`;
}

/** Counters touched by one block, written with the block's batch and cached after it lands. */
export type StagedCounts = Map<string, { key: Uint8Array; count: number }>;

export class AttributeIndex {
  /** Counters by attribute id, least recently used first (a Map keeps insertion order). */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly db: Database,
    readonly eventBucket: Bucket,
    readonly countBucket: Bucket,
    private readonly cacheSize = DEFAULT_COUNT_CACHE_SIZE,
  ) {}

  /** Counters held in memory now (at most the cache size). */
  get cachedCounters(): number {
    return this.counts.size;
  }

  private remember(id: string, count: number): void {
    this.counts.delete(id);
    // A counter of 0 or 1 is not kept: unique values would fill the cache with counters never read again.
    if (count <= 1 || this.cacheSize <= 0) return;
    this.counts.set(id, count);
    if (this.counts.size > this.cacheSize) this.counts.delete(this.counts.keys().next().value!);
  }

  private countOf(countKey: Uint8Array, id: string): number {
    const cached = this.counts.get(id);
    if (cached !== undefined) {
      this.counts.delete(id);
      this.counts.set(id, cached);
      return cached;
    }
    const raw = this.db.getSync(countKey);
    const n = raw && raw.length === 8 ? readU64(raw) : 0;
    this.remember(id, n);
    return n;
  }

  /** Items carrying compositeKey = value. */
  count(compositeKey: string, value: string): number {
    return this.countOf(attrKey(this.countBucket, compositeKey, value), attributeId(compositeKey, value));
  }

  /** The entry-key base (attrKey in the event bucket) of an attribute value. */
  entryBase(compositeKey: string, value: string): Uint8Array {
    return attrKey(this.eventBucket, compositeKey, value);
  }

  /**
   * Stage the entry of one item for compositeKey = value (`id` = attributeId(compositeKey, value);
   * callers dedupe per item).
   */
  stage(staged: StagedCounts, compositeKey: string, value: string, id: string, position: Uint8Array, ops: BatchOp[]): void {
    let entry = staged.get(id);
    if (!entry) {
      const countKey = attrKey(this.countBucket, compositeKey, value);
      entry = { key: countKey, count: this.countOf(countKey, id) };
      staged.set(id, entry);
    }
    ops.push({ type: 'put', key: entryKeyFromCountKey(entry.key, this.eventBucket, entry.count), value: position });
    entry.count++;
  }

  /** The counter writes of a staged block. */
  countOps(staged: StagedCounts, ops: BatchOp[]): void {
    runToEnd(this.countOpsSteps(staged, ops, 0));
  }

  /**
   * `countOps` as steps, pausing after every `every` counters (0 = never): a block of 500 sends
   * stages about ten counters a tx, thousands in all.
   */
  *countOpsSteps(staged: StagedCounts, ops: BatchOp[], every: number): Generator<void, void, void> {
    let n = 0;
    for (const { key, count } of staged.values()) {
      const value = new Uint8Array(8);
      writeU64(value, 0, count);
      ops.push({ type: 'put', key, value });
      if (every > 0 && ++n % every === 0) yield;
    }
  }

  /** After the batch landed: make the new counters visible to readers. */
  commit(staged: StagedCounts): void {
    for (const [id, { count }] of staged) this.remember(id, count);
  }

  /** The position stored at `seq` (undefined past the end). */
  entry(base: Uint8Array, seq: number): Uint8Array | undefined {
    return this.db.getSync(seqKey(base, seq));
  }

  /** First seq in [0, count) whose position's height is ≥ `height` (count if none). */
  lowerBoundByHeight(base: Uint8Array, count: number, height: number): number {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const pos = this.entry(base, mid);
      if (pos !== undefined && readU64(pos, 0) < height) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Positions at seq in [from, to), ascending. */
  async *entries(base: Uint8Array, from: number, to: number): AsyncIterable<Uint8Array> {
    if (from >= to) return;
    for await (const [, value] of this.db.entries({ gte: seqKey(base, from), lt: seqKey(base, to) })) yield value;
  }

  /** Every distinct value of a composite key with its count. */
  async *values(compositeKey: string): AsyncIterable<{ value: string; count: number }> {
    const prefix = compositePrefix(this.countBucket, compositeKey);
    for await (const [key, raw] of this.db.entries({ gte: prefix, lt: prefixEnd(prefix) })) {
      yield { value: valueOfAttrKey(key), count: raw.length === 8 ? readU64(raw) : 0 };
    }
  }
}
