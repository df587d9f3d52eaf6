/**
 * Iteration in arrays of entries ("chunks"): the store layers under a module's iterator (the
 * committed view, write caches, prefix stores) pass arrays to each other, so a scan of N entries
 * costs one await per array in each layer instead of one per entry — only the top layer (the
 * gas-metered store, which charges each entry as the caller takes it) hands entries out one by
 * one. A layer that has no `chunks` is adapted with one-entry arrays.
 */
import type { IteratorOptions, KVEntry, KVStoreReader } from './interface.js';

/** A store layer that can iterate in arrays; see `storeChunks`. */
export interface ChunkedReader extends KVStoreReader {
  chunks(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry[]>;
}

function hasChunks(store: KVStoreReader): store is ChunkedReader {
  return typeof (store as Partial<ChunkedReader>).chunks === 'function';
}

/** The entries of [start, end) of `store` in arrays (never empty ones), in iterator order. */
export function storeChunks(store: KVStoreReader, start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry[]> {
  return hasChunks(store) ? store.chunks(start, end, options) : singles(store.iterator(start, end, options));
}

async function* singles(entries: AsyncIterableIterator<KVEntry>): AsyncIterableIterator<KVEntry[]> {
  for await (const entry of entries) yield [entry];
}

/** The entries of chunked iteration one by one. */
export async function* flatten(chunks: AsyncIterableIterator<KVEntry[]>): AsyncIterableIterator<KVEntry> {
  for await (const chunk of chunks) yield* chunk;
}
