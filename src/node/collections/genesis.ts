/**
 * Genesis helpers: a collection's entries as a list (export, in key order) and back (import).
 * Modules map the entries onto their SDK genesis JSON shapes; the helpers own the iteration and
 * the checks: an import refuses a key given twice (by encoded bytes) before writing anything.
 */
import { keyString } from '../store/bytes.js';
import { CollectionError } from './errors.js';
import type { KeyedCollection, Range } from './map.js';
import type { StoreProvider } from './schema.js';

/** A collection that can be iterated and written entry by entry (StateMap, IndexedMap). */
export interface EntryCollection<K, V> extends KeyedCollection<K, V> {
  iterate(ctx: StoreProvider, range?: Range<K>): AsyncIterableIterator<[K, V]>;
  encodeKey(key: K): Uint8Array;
  set(ctx: StoreProvider, key: K, value: V): void;
}

/** Every [key, value] of the collection (or of a range of it), in key order. */
export async function exportEntries<K, V>(ctx: StoreProvider, collection: EntryCollection<K, V>, range?: Range<K>): Promise<[K, V][]> {
  const entries: [K, V][] = [];
  for await (const entry of collection.iterate(ctx, range)) entries.push(entry);
  return entries;
}

/**
 * Writes the entries (indexes are kept by the collection). Throws `CollectionError(GENESIS)`
 * naming the first key given twice, before anything is written.
 */
export function importEntries<K, V>(ctx: StoreProvider, collection: EntryCollection<K, V>, entries: Iterable<readonly [K, V]>): void {
  const list = [...entries];
  const seen = new Set<string>();
  for (const [key] of list) {
    const encoded = keyString(collection.encodeKey(key));
    if (seen.has(encoded)) throw new CollectionError('GENESIS', `duplicate key ${collection.keyCodec.stringify(key)} in genesis entries of "${collection.name}"`);
    seen.add(encoded);
  }
  for (const [key, value] of list) collection.set(ctx, key, value);
}
