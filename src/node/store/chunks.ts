/**
 * Iteration in arrays of entries ("chunks"): the store layers under a module's iterator (the
 * committed view, write caches, prefix stores) pass arrays to each other, so a scan of N entries
 * costs one await per array in each layer instead of one per entry — only the top layer (the
 * gas-metered store, which charges each entry as the caller takes it) hands entries out one by
 * one. A layer that has no `chunks` is adapted with one-entry arrays.
 *
 * `scanStore` visits the entries with a synchronous callback instead (no await per entry at
 * all, for loops over 100k entries such as the gov tally); the gas store charges exactly what an
 * iterator that the caller breaks out of at the same entry would. The callback gets each key and
 * value as an array and the offset where the entry starts in it (each runs to the array's end),
 * so no layer makes a view per entry: the committed views pass the database's own arrays with
 * the index prefix and marker skipped, a prefix store skips its prefix.
 */
import type { IteratorOptions, KVEntry, KVStoreReader } from './interface.js';

/** A store layer that can iterate in arrays; see `storeChunks`. */
export interface ChunkedReader extends KVStoreReader {
  chunks(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry[]>;
}

/**
 * Called per entry by `scanStore`: the entry's key is `key` from `keyAt` to its end, the value
 * `value` from `valueAt` to its end. Returning `false` stops the scan (as breaking out of a loop).
 * The arrays may be the database's own (Node Buffers, whose `slice` does not copy) and are only
 * valid to read: read them by index or copy (`new Uint8Array(key.subarray(keyAt))`; not `slice`).
 */
export type ScanVisitor = (key: Uint8Array, keyAt: number, value: Uint8Array, valueAt: number) => boolean | void;

/** A store layer with its own scan (the gas store, which charges per entry). */
export interface ScanningReader extends KVStoreReader {
  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void>;
}

/** Visits the entries of [start, end) of `store` in iterator order until `visit` returns false. */
export async function scanStore(store: KVStoreReader, start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
  if (typeof (store as Partial<ScanningReader>).scan === 'function') return (store as ScanningReader).scan(start, end, options, visit);
  const chunks = storeChunks(store, start, end, options);
  try {
    for await (const chunk of chunks) {
      for (const [key, value] of chunk) if (visit(key, 0, value, 0) === false) return;
    }
  } finally {
    await chunks.return?.();
  }
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
