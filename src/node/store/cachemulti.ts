/**
 * CacheMultiStore: one lazily created CacheKVStore per sub-store over a parent MultiStore (or
 * over a `name → KVStore` lookup). runTx nests these: block branch → tx ante branch → messages.
 */
import type { CacheKVStore, CacheMultiStore, KVStore } from './interface.js';

export class CacheMultiStoreImpl implements CacheMultiStore {
  private readonly caches = new Map<string, CacheKVStore>();

  constructor(
    private readonly names: readonly string[],
    private readonly parentStore: (name: string) => KVStore,
  ) {}

  getStore(name: string): KVStore {
    let cache = this.caches.get(name);
    if (cache === undefined) {
      cache = this.parentStore(name).branch();
      this.caches.set(name, cache);
    }
    return cache;
  }

  storeNames(): readonly string[] {
    return this.names;
  }

  branch(): CacheMultiStore {
    return new CacheMultiStoreImpl(this.names, (name) => this.getStore(name));
  }

  write(): void {
    for (const cache of this.caches.values()) cache.write();
  }

  discard(): void {
    for (const cache of this.caches.values()) cache.discard();
  }
}
