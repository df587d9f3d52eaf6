/**
 * MemKVStore: an in-memory, ordered KVStore (no versions, no commitment). Used for transient
 * stores and as the reference model in tests.
 */
import { keyFromString, keyString } from './bytes.js';
import { CacheKVStoreImpl, assertValidKey, assertValidValue } from './cachekv.js';
import type { CacheKVStore, IteratorOptions, KVEntry, KVStore } from './interface.js';

export class MemKVStore implements KVStore {
  private readonly data = new Map<string, Uint8Array>();
  private sorted: string[] | undefined;

  get size(): number {
    return this.data.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.data.get(keyString(key));
  }

  has(key: Uint8Array): boolean {
    return this.data.has(keyString(key));
  }

  set(key: Uint8Array, value: Uint8Array): void {
    assertValidKey(key);
    assertValidValue(value);
    const ks = keyString(key);
    if (!this.data.has(ks)) this.sorted = undefined;
    this.data.set(ks, value);
  }

  delete(key: Uint8Array): void {
    assertValidKey(key);
    if (this.data.delete(keyString(key))) this.sorted = undefined;
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  clear(): void {
    this.data.clear();
    this.sorted = undefined;
  }

  async *iterator(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry> {
    for await (const chunk of this.chunks(start, end, options)) yield* chunk;
  }

  async *chunks(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry[]> {
    this.sorted ??= [...this.data.keys()].sort();
    const keys = this.sorted;
    const lo = start === undefined ? 0 : lowerBound(keys, keyString(start));
    const hi = end === undefined ? keys.length : lowerBound(keys, keyString(end));
    // Snapshot the range so writes during iteration do not disturb it.
    const picked: KVEntry[] = [];
    for (let i = lo; i < hi; i++) picked.push([keyFromString(keys[i]!), this.data.get(keys[i]!)!]);
    if (options.reverse) picked.reverse();
    if (picked.length > 0) yield picked;
  }
}

function lowerBound(sorted: string[], target: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
