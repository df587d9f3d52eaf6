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
import { compareBytesFrom, keyString } from './bytes.js';
import { flatten, scanStore, storeChunks, type ScanVisitor } from './chunks.js';
import { StoreError } from './errors.js';
import type { CacheKVStore, IteratorOptions, KVEntry, KVStore, KVStoreReader } from './interface.js';

export interface CachedWrite {
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
    return this.getKeyed(key, keyString(key));
  }

  /** `get` with the key's string (`keyString(key)`) made already: a read through a chain of caches makes it once. */
  getKeyed(key: Uint8Array, ks: string): Uint8Array | undefined {
    const cached = this.writes.get(ks);
    if (cached !== undefined) return cached.value;
    const parent = this.parent;
    return parent instanceof CacheKVStoreImpl ? parent.getKeyed(key, ks) : parent.get(key);
  }

  has(key: Uint8Array): boolean {
    return this.hasKeyed(key, keyString(key));
  }

  /** `has` with the key's string made already. */
  hasKeyed(key: Uint8Array, ks: string): boolean {
    const cached = this.writes.get(ks);
    if (cached !== undefined) return cached.value !== undefined;
    const parent = this.parent;
    return parent instanceof CacheKVStoreImpl ? parent.hasKeyed(key, ks) : parent.has(key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.setKeyed(key, keyString(key), value);
  }

  /** `set` with the key's string made already. */
  setKeyed(key: Uint8Array, ks: string, value: Uint8Array): void {
    assertValidKey(key);
    assertValidValue(value);
    this.putEntry(ks, { key, value });
  }

  delete(key: Uint8Array): void {
    this.deleteKeyed(key, keyString(key));
  }

  /** `delete` with the key's string made already. */
  deleteKeyed(key: Uint8Array, ks: string): void {
    assertValidKey(key);
    this.putEntry(ks, { key, value: undefined });
  }

  /**
   * Records a write (a set, or a delete when `value` is undefined) under its key string. Every
   * write of this cache goes through here, including those a child cache hands on in its
   * `write()`: entries are never changed once made, so they move up the chain as they are.
   */
  protected putEntry(ks: string, entry: CachedWrite): void {
    this.writes.set(ks, entry);
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  write(): void {
    const parent = this.parent;
    if (parent instanceof CacheKVStoreImpl) {
      for (const [ks, entry] of this.writes) parent.putEntry(ks, entry);
    } else {
      for (const { key, value } of this.writes.values()) {
        if (value === undefined) parent.delete(key);
        else parent.set(key, value);
      }
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
 * Cached writes (sorted in iteration order) merged into a parent's entries as they come: `before`
 * hands out the cached writes that come before a parent entry (a cached delete hides the
 * parent's entry, a cached set replaces it), `rest` those after the parent's last entry.
 */
class CachedMerge {
  private i = 0;

  constructor(
    private readonly cached: readonly CachedWrite[],
    private readonly reverse: boolean,
  ) {}

  get done(): boolean {
    return this.i === this.cached.length;
  }

  /**
   * Emits the cached sets that come before (or at) the parent's entry whose key is key[keyAt..];
   * returns STOPPED if `emit` returned false, REPLACED if a cached write has the same key (the
   * parent's entry is not to be emitted), else PASS.
   */
  before(key: Uint8Array, keyAt: number, emit: (key: Uint8Array, value: Uint8Array) => boolean | void): number {
    const cached = this.cached;
    while (this.i < cached.length) {
      const mine = cached[this.i]!;
      let order = compareBytesFrom(key, keyAt, mine.key);
      if (this.reverse) order = -order;
      if (order < 0) break;
      this.i++;
      if (mine.value !== undefined && emit(mine.key, mine.value) === false) return STOPPED;
      if (order === 0) return REPLACED;
    }
    return PASS;
  }

  /** Emits the cached sets not handed out yet, until `emit` returns false. */
  rest(emit: (key: Uint8Array, value: Uint8Array) => boolean | void): void {
    for (; this.i < this.cached.length; this.i++) {
      const mine = this.cached[this.i]!;
      if (mine.value !== undefined && emit(mine.key, mine.value) === false) return;
    }
  }
}

const PASS = 0;
const REPLACED = 1;
const STOPPED = 2;

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
  const merge = new CachedMerge(snapshot(), options.reverse ?? false);
  for await (const chunk of storeChunks(parent, start, end, options)) {
    if (merge.done) {
      yield chunk;
      continue;
    }
    const out: KVEntry[] = [];
    const push = (key: Uint8Array, value: Uint8Array): void => void out.push([key, value]);
    for (const entry of chunk) if (merge.before(entry[0], 0, push) === PASS) out.push(entry);
    if (out.length > 0) yield out;
  }
  const rest: KVEntry[] = [];
  merge.rest((key, value) => void rest.push([key, value]));
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
  const merge = new CachedMerge(cached, options.reverse ?? false);
  const emit = (key: Uint8Array, value: Uint8Array): boolean | void => visit(key, 0, value, 0);
  let stopped = false;
  await scanStore(parent, start, end, options, (key, keyAt, value, valueAt) => {
    const before = merge.before(key, keyAt, emit);
    if (before === REPLACED) return;
    if (before === STOPPED || visit(key, keyAt, value, valueAt) === false) {
      stopped = true;
      return false;
    }
  });
  if (!stopped) merge.rest(emit);
}
