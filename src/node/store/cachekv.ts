/**
 * CacheKVStore: a write cache over a parent KVStore (the SDK's cachekv), used for every branch:
 * the block branch, the per-tx ante and message branches, the CheckTx state.
 *
 * Writes (sets and deletes) are kept in a Map keyed by the key's latin1 string; reads fall
 * through to the parent when the cache has no entry (reads are not cached: the bottom layer
 * caches decoded buckets, so a miss costs a few Map lookups). `write()` replays the entries
 * into the parent; `discard()` drops them.
 *
 * Iteration merges the cache's entries in the range (sorted when the iterator starts) with the
 * parent's entries, array by array (`chunks.ts`); a cached delete hides the parent's entry, a
 * cached set replaces it.
 */
import { compareBytes, compareBytesFrom, keyString } from './bytes.js';
import { flatten, scanStore, storeChunks, type ScanVisitor } from './chunks.js';
import { StoreError } from './errors.js';
import type { CacheKVStore, IteratorOptions, KVEntry, KVStore, KVStoreReader } from './interface.js';

interface CachedWrite {
  key: Uint8Array;
  /** undefined = deleted */
  value: Uint8Array | undefined;
}

export function assertValidKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length === 0) {
    throw new StoreError('INVALID_KEY', 'store key must be non-empty bytes');
  }
}

export function assertValidValue(value: Uint8Array): void {
  if (!(value instanceof Uint8Array)) {
    throw new StoreError('INVALID_VALUE', 'store value must be bytes (use delete to remove a key)');
  }
}

export class CacheKVStoreImpl implements CacheKVStore {
  private readonly writes = new Map<string, CachedWrite>();

  constructor(private readonly parent: KVStore) {}

  get size(): number {
    return this.writes.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const cached = this.writes.get(keyString(key));
    if (cached !== undefined) return cached.value;
    return this.parent.get(key);
  }

  has(key: Uint8Array): boolean {
    const cached = this.writes.get(keyString(key));
    if (cached !== undefined) return cached.value !== undefined;
    return this.parent.has(key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    assertValidKey(key);
    assertValidValue(value);
    this.writes.set(keyString(key), { key, value });
  }

  delete(key: Uint8Array): void {
    assertValidKey(key);
    this.writes.set(keyString(key), { key, value: undefined });
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  write(): void {
    for (const { key, value } of this.writes.values()) {
      if (value === undefined) this.parent.delete(key);
      else this.parent.set(key, value);
    }
    this.writes.clear();
  }

  discard(): void {
    this.writes.clear();
  }

  /** The cached writes (for the commit path, which reads the working layer directly). */
  entries(): IterableIterator<CachedWrite> {
    return this.writes.values();
  }

  iterator(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry> {
    return flatten(this.chunks(start, end, options));
  }

  chunks(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry[]> {
    return mergeChunks(() => this.sortedRange(start, end, options.reverse ?? false), this.parent, start, end, options);
  }

  /** `chunks` to a synchronous callback (`chunks.ts` scanStore): the same merge, entry by entry. */
  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    const cached = this.sortedRange(start, end, options.reverse ?? false);
    if (cached.length === 0) return scanStore(this.parent, start, end, options, visit);
    return mergeScan(cached, this.parent, start, end, options, visit);
  }

  private sortedRange(start: Uint8Array | undefined, end: Uint8Array | undefined, reverse: boolean): CachedWrite[] {
    const lo = start === undefined ? undefined : keyString(start);
    const hi = end === undefined ? undefined : keyString(end);
    const picked: [string, CachedWrite][] = [];
    for (const entry of this.writes) {
      const ks = entry[0];
      if (lo !== undefined && ks < lo) continue;
      if (hi !== undefined && ks >= hi) continue;
      picked.push(entry);
    }
    picked.sort(reverse ? (a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0) : (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return picked.map((entry) => entry[1]);
  }
}

/**
 * Merge a sorted snapshot of cached writes with the parent's entries over the same range, in
 * arrays (`chunks.ts`). `snapshot` runs at the first `next()`, so the iterator sees the cache as
 * of that moment.
 */
export async function* mergeChunks(
  snapshot: () => CachedWrite[],
  parent: KVStoreReader,
  start: Uint8Array | undefined,
  end: Uint8Array | undefined,
  options: IteratorOptions,
): AsyncIterableIterator<KVEntry[]> {
  const reverse = options.reverse ?? false;
  const cached = snapshot();
  let i = 0;
  for await (const chunk of storeChunks(parent, start, end, options)) {
    if (i === cached.length) {
      yield chunk;
      continue;
    }
    const out: KVEntry[] = [];
    for (const entry of chunk) {
      // Cached writes that come before this entry; one at the same key replaces (or hides) it.
      let replaced = false;
      while (i < cached.length) {
        const mine = cached[i]!;
        let order = compareBytes(entry[0], mine.key);
        if (reverse) order = -order;
        if (order < 0) break;
        i++;
        if (mine.value !== undefined) out.push([mine.key, mine.value]);
        if (order === 0) {
          replaced = true;
          break;
        }
      }
      if (!replaced) out.push(entry);
    }
    if (out.length > 0) yield out;
  }
  const rest: KVEntry[] = [];
  for (; i < cached.length; i++) {
    const mine = cached[i]!;
    if (mine.value !== undefined) rest.push([mine.key, mine.value]);
  }
  if (rest.length > 0) yield rest;
}

/** `mergeChunks` to a synchronous callback: `cached` (sorted in iteration order) over the parent's scan. */
async function mergeScan(
  cached: readonly CachedWrite[],
  parent: KVStoreReader,
  start: Uint8Array | undefined,
  end: Uint8Array | undefined,
  options: IteratorOptions,
  visit: ScanVisitor,
): Promise<void> {
  const reverse = options.reverse ?? false;
  let i = 0;
  let stopped = false;
  await scanStore(parent, start, end, options, (key, keyAt, value, valueAt) => {
    // Cached writes that come before this entry; one at the same key replaces (or hides) it.
    while (i < cached.length) {
      const mine = cached[i]!;
      let order = compareBytesFrom(key, keyAt, mine.key);
      if (reverse) order = -order;
      if (order < 0) break;
      i++;
      if (mine.value !== undefined && visit(mine.key, 0, mine.value, 0) === false) {
        stopped = true;
        return false;
      }
      if (order === 0) return;
    }
    if (visit(key, keyAt, value, valueAt) === false) {
      stopped = true;
      return false;
    }
  });
  if (stopped) return;
  for (; i < cached.length; i++) {
    const mine = cached[i]!;
    if (mine.value !== undefined && visit(mine.key, 0, mine.value, 0) === false) return;
  }
}
