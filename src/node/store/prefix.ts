/**
 * PrefixStore: a view of the keys of `parent` that start with `prefix`, with the prefix stripped
 * (the SDK's prefix.Store). Modules use it to carve a KV space into tables.
 */
import { concatBytes, prefixEnd } from './bytes.js';
import { CacheKVStoreImpl, assertValidKey } from './cachekv.js';
import { flatten, scanStore, storeChunks, type ScanVisitor } from './chunks.js';
import type { CacheKVStore, IteratorOptions, KVEntry, KVStore } from './interface.js';

export class PrefixStore implements KVStore {
  constructor(
    private readonly parent: KVStore,
    private readonly prefix: Uint8Array,
  ) {}

  private full(key: Uint8Array): Uint8Array {
    return concatBytes(this.prefix, key);
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.parent.get(this.full(key));
  }

  has(key: Uint8Array): boolean {
    return this.parent.has(this.full(key));
  }

  set(key: Uint8Array, value: Uint8Array): void {
    assertValidKey(key);
    this.parent.set(this.full(key), value);
  }

  delete(key: Uint8Array): void {
    assertValidKey(key);
    this.parent.delete(this.full(key));
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  iterator(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry> {
    return flatten(this.chunks(start, end, options));
  }

  async *chunks(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry[]> {
    const from = start === undefined ? this.prefix : this.full(start);
    const to = end === undefined ? prefixEnd(this.prefix) : this.full(end);
    const cut = this.prefix.length;
    for await (const chunk of storeChunks(this.parent, from, to, options)) {
      yield chunk.map(([key, value]): KVEntry => [key.subarray(cut), value]);
    }
  }

  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    const from = start === undefined ? this.prefix : this.full(start);
    const to = end === undefined ? prefixEnd(this.prefix) : this.full(end);
    const cut = this.prefix.length;
    return scanStore(this.parent, from, to, options, (key, keyAt, value, valueAt) => visit(key, keyAt + cut, value, valueAt));
  }
}
