/**
 * A read-through cache over a store branch that only one tx context writes to (the ante branch,
 * the message branch). The ante chain reads the same signer account, params and balances several
 * times; this answers repeats from a Map (and with the same value object, so decode memos hit).
 * Writes go straight through to the branch and update the cache, so the branch stays the truth.
 * Gas is still charged per access by the gas store layered above.
 */
import { keyString } from '../../store/bytes.js';
import { CacheKVStoreImpl, scanStore, storeChunks, type CacheKVStore, type IteratorOptions, type KVEntry, type KVStore, type ScanVisitor } from '../../store/index.js';

export class ReadCacheKVStore implements KVStore {
  private readonly cache = new Map<string, Uint8Array | undefined>();

  constructor(private readonly parent: KVStore) {}

  get(key: Uint8Array): Uint8Array | undefined {
    const k = keyString(key);
    const cache = this.cache;
    const cached = cache.get(k);
    if (cached !== undefined || cache.has(k)) return cached;
    const parent = this.parent;
    const value = parent instanceof CacheKVStoreImpl ? parent.getKeyed(key, k) : parent.get(key);
    cache.set(k, value);
    return value;
  }

  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }

  set(key: Uint8Array, value: Uint8Array): void {
    const k = keyString(key);
    const parent = this.parent;
    if (parent instanceof CacheKVStoreImpl) parent.setKeyed(key, k, value);
    else parent.set(key, value);
    this.cache.set(k, value);
  }

  delete(key: Uint8Array): void {
    const k = keyString(key);
    const parent = this.parent;
    if (parent instanceof CacheKVStoreImpl) parent.deleteKeyed(key, k);
    else parent.delete(key);
    this.cache.set(k, undefined);
  }

  iterator(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry> {
    return this.parent.iterator(start, end, options);
  }

  chunks(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry[]> {
    return storeChunks(this.parent, start, end, options);
  }

  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    return scanStore(this.parent, start, end, options, visit);
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }
}
