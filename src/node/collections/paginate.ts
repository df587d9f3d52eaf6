/**
 * The one paginator of every paginated query (PageRequest → PageResponse), over any collection,
 * optionally within the keys starting with leading parts of a composite key, optionally filtered.
 *
 * Semantics (the SDK's query.Paginate / FilteredPaginate, types/query/pagination.go; COMPAT §5):
 *  - `key` and `offset` together → InvalidArgument "invalid request, either offset or key is
 *    expected, got both";
 *  - limit 0 (unset) → 100, and count_total is forced on;
 *  - key mode: start at `key` (inclusive), return up to `limit` hits; next_key = the key of the
 *    first entry not returned; total is never set (0);
 *  - offset mode: skip `offset` hits, return `limit`, next_key likewise; total = number of hits in
 *    the range when count_total (walks the whole range), else 0;
 *  - reverse: descending order; with a key, iteration starts at that key (inclusive) and goes down;
 *  - next_key is empty (JSON null) at the end;
 *  - keys in next_key (and expected in `key`) are the encoded collection keys relative to the
 *    range: without the collection prefix and without the encoded `prefix` parts;
 *  - with a `filter`, only accepted entries are hits: offset, limit and total count hits.
 *
 * Where SDK 0.50's CollectionFilteredPaginate (types/query/collections_pagination.go) differs,
 * this keeps the classic behaviour above, which tokend served before collections: 0.50 skips
 * `offset` raw entries before filtering (not hits); in key mode with a filter it counts scanned
 * entries against `limit`; an offset past the end returns total 0 instead of the count; reverse
 * with a key also includes keys that extend the given key (it ends at PrefixEnd(key)).
 */
import { create } from '@bufbuild/protobuf';
import { PageResponseSchema, type PageRequest, type PageResponse } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { concatBytes, prefixEnd } from '../store/bytes.js';
import { grpcError } from '../modules/shared/errors.js';
import type { KeyPrefix } from './keys.js';
import type { KeyedCollection } from './map.js';
import type { StoreProvider } from './schema.js';

export const DEFAULT_PAGE_LIMIT = 100n;
export const ERR_KEY_AND_OFFSET = 'invalid request, either offset or key is expected, got both';

export interface PaginateOptions<K, V, T> {
  /** Only keys whose leading parts are these (composite keys): balances of one address. */
  prefix?: KeyPrefix<K>;
  /** Only entries this accepts are hits (FilteredPaginate). */
  filter?: (key: K, value: V) => boolean;
  /** Builds the item for an entry inside the page window. */
  map: (key: K, value: V) => T;
}

export interface Page<T> {
  items: T[];
  pagination: PageResponse;
}

export interface NormalizedPageRequest {
  key: Uint8Array;
  offset: bigint;
  limit: bigint;
  countTotal: boolean;
  reverse: boolean;
}

/** Applies the defaults and the key-xor-offset rule; throws InvalidArgument. */
export function normalizePageRequest(request: PageRequest | undefined): NormalizedPageRequest {
  const key = request?.key ?? new Uint8Array(0);
  const offset = request?.offset ?? 0n;
  let limit = request?.limit ?? 0n;
  let countTotal = request?.countTotal ?? false;
  if (offset > 0n && key.length > 0) throw grpcError('InvalidArgument', ERR_KEY_AND_OFFSET);
  if (limit === 0n) {
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  return { key, offset, limit, countTotal, reverse: request?.reverse ?? false };
}

/** The page of a collection that is always empty (still rejecting key + offset). */
export function emptyPage(request: PageRequest | undefined): PageResponse {
  normalizePageRequest(request);
  return create(PageResponseSchema, { nextKey: new Uint8Array(0), total: 0n });
}

export async function paginate<K, V, T>(ctx: StoreProvider, collection: KeyedCollection<K, V>, request: PageRequest | undefined, options: PaginateOptions<K, V, T>): Promise<Page<T>> {
  const req = normalizePageRequest(request);
  const { map, filter } = options;
  const store = ctx.kv(collection.storeKey);
  const base = collection.rangePrefix(options.prefix);
  const baseEnd = prefixEnd(base);
  const cut = base.length;
  const items: T[] = [];

  if (req.key.length > 0) {
    const startKey = concatBytes(base, req.key);
    const iterator = req.reverse ? store.iterator(base, concatBytes(startKey, Uint8Array.of(0)), { reverse: true }) : store.iterator(startKey, baseEnd);
    let hits = 0n;
    let nextKey = new Uint8Array(0);
    for await (const [storeKey, bytes] of iterator) {
      if (hits === req.limit) {
        nextKey = storeKey.slice(cut);
        break;
      }
      const key = collection.decodeKey(storeKey);
      const value = collection.valueCodec.decode(bytes);
      if (filter !== undefined && !filter(key, value)) continue;
      items.push(map(key, value));
      hits++;
    }
    return { items, pagination: create(PageResponseSchema, { nextKey, total: 0n }) };
  }

  const iterator = store.iterator(base, baseEnd, { reverse: req.reverse });
  const end = req.offset + req.limit;
  let hits = 0n;
  let nextKey: Uint8Array | undefined;
  for await (const [storeKey, bytes] of iterator) {
    if (filter !== undefined) {
      const key = collection.decodeKey(storeKey);
      const value = collection.valueCodec.decode(bytes);
      if (!filter(key, value)) continue;
      if (hits >= req.offset && hits < end) items.push(map(key, value));
    } else if (hits >= req.offset && hits < end) {
      items.push(map(collection.decodeKey(storeKey), collection.valueCodec.decode(bytes)));
    }
    hits++;
    if (hits === end + 1n) {
      nextKey ??= storeKey.slice(cut);
      if (!req.countTotal) break;
    }
  }
  return { items, pagination: create(PageResponseSchema, { nextKey: nextKey ?? new Uint8Array(0), total: req.countTotal ? hits : 0n }) };
}
