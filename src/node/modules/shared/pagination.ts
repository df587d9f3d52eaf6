/**
 * The one pagination helper every paginated query uses (the SDK's query.Paginate and
 * query.FilteredPaginate, types/query/pagination.go; COMPAT §5):
 *
 *  - `key` and `offset` together → InvalidArgument "invalid request, either offset or key is
 *    expected, got both";
 *  - limit 0 (unset) → 100, and count_total is forced on;
 *  - key mode: start at `key` (inclusive), return up to `limit` items, next_key = the key of the
 *    first entry not returned; total is never set (0);
 *  - offset mode: skip `offset` hits, return `limit`, next_key likewise; total = number of hits
 *    when count_total (requires walking the whole range);
 *  - reverse: descending order; with a key, iteration starts at that key and goes down;
 *  - next_key is empty (JSON null) at the end.
 *
 * Keys handed to the callbacks and returned in next_key are relative to `prefix` (the SDK's
 * prefix store). A `filter` makes it FilteredPaginate: only entries it accepts count as hits.
 */
import { create } from '@bufbuild/protobuf';
import { PageResponseSchema, type PageRequest, type PageResponse } from '../../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import type { KVStoreReader } from '../../store/index.js';
import { grpcError } from './errors.js';
import { concat, prefixEndBytes } from './keys.js';

export const DEFAULT_PAGE_LIMIT = 100n;
export const ERR_KEY_AND_OFFSET = 'invalid request, either offset or key is expected, got both';

export interface PageOptions<T> {
  /** Build the item for an entry inside the page window. */
  map: (key: Uint8Array, value: Uint8Array) => T;
  /** Only entries this accepts count (FilteredPaginate). */
  filter?: (key: Uint8Array, value: Uint8Array) => boolean;
}

export interface Page<T> {
  items: T[];
  pagination: PageResponse;
}

interface NormalizedRequest {
  key: Uint8Array;
  offset: bigint;
  limit: bigint;
  countTotal: boolean;
  reverse: boolean;
}

/** Applies the defaults and the key-xor-offset rule; throws InvalidArgument. */
export function normalizePageRequest(request: PageRequest | undefined): NormalizedRequest {
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

export async function paginate<T>(store: KVStoreReader, prefix: Uint8Array, request: PageRequest | undefined, options: PageOptions<T>): Promise<Page<T>> {
  const req = normalizePageRequest(request);
  const { map, filter } = options;
  const prefixEnd = prefixEndBytes(prefix);
  const items: T[] = [];
  const cut = prefix.length;

  if (req.key.length > 0) {
    const startKey = concat(prefix, req.key);
    const iterator = req.reverse
      ? store.iterator(prefix.length === 0 ? undefined : prefix, concat(startKey, Uint8Array.of(0)), { reverse: true })
      : store.iterator(startKey, prefixEnd);
    let hits = 0n;
    let nextKey = new Uint8Array(0);
    for await (const [fullKey, value] of iterator) {
      const key = fullKey.subarray(cut);
      if (hits === req.limit) {
        nextKey = key.slice();
        break;
      }
      if (filter !== undefined && !filter(key, value)) continue;
      items.push(map(key, value));
      hits++;
    }
    return { items, pagination: create(PageResponseSchema, { nextKey, total: 0n }) };
  }

  const iterator = store.iterator(prefix.length === 0 ? undefined : prefix, prefixEnd, { reverse: req.reverse });
  const end = req.offset + req.limit;
  let hits = 0n;
  let nextKey: Uint8Array | undefined;
  for await (const [fullKey, value] of iterator) {
    const key = fullKey.subarray(cut);
    if (filter !== undefined && !filter(key, value)) continue;
    if (hits >= req.offset && hits < end) items.push(map(key, value));
    hits++;
    if (hits === end + 1n) {
      nextKey ??= key.slice();
      if (!req.countTotal) break;
    }
  }
  return { items, pagination: create(PageResponseSchema, { nextKey: nextKey ?? new Uint8Array(0), total: req.countTotal ? hits : 0n }) };
}

/** Paginates an in-memory list already in key order (for derived collections). */
export function paginateList<T>(entries: readonly (readonly [Uint8Array, T])[], request: PageRequest | undefined): Page<T> {
  const req = normalizePageRequest(request);
  const ordered = req.reverse ? [...entries].reverse() : entries;
  let start = 0;
  if (req.key.length > 0) {
    const target = Buffer.from(req.key);
    start = ordered.findIndex(([key]) => {
      const order = Buffer.compare(Buffer.from(key), target);
      return req.reverse ? order <= 0 : order >= 0;
    });
    if (start < 0) start = ordered.length;
  } else {
    start = Number(req.offset > BigInt(ordered.length) ? BigInt(ordered.length) : req.offset);
  }
  const endIndex = Math.min(ordered.length, start + Number(req.limit > BigInt(ordered.length) ? BigInt(ordered.length) : req.limit));
  const items = ordered.slice(start, endIndex).map(([, item]) => item);
  const nextKey = endIndex < ordered.length ? ordered[endIndex]![0] : new Uint8Array(0);
  const total = req.key.length === 0 && req.countTotal ? BigInt(ordered.length) : 0n;
  return { items, pagination: create(PageResponseSchema, { nextKey, total }) };
}
