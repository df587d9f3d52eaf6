/**
 * Page sizes shared by every surface (REST, gRPC) and the offset paging of the node-level lists.
 *
 * - Default page size: 100 (the SDK's query.DefaultLimit) when a request names no limit.
 * - Maximum page size: 1000. A `pagination.limit` above it is clamped by the router (safe: the
 *   answer's `next_key` points at the first item not returned, so nothing is skipped); page-number
 *   paging (GetTxsEvent `limit`) above it is refused with InvalidArgument, because a clamped page
 *   size would make the client's page arithmetic skip results.
 * - Key-based paging of node-level lists (validator sets, block txs) is not supported: they are
 *   small, in-memory lists; `pagination.key` there is InvalidArgument (use offset).
 */
import { create } from '@bufbuild/protobuf';
import { PageResponseSchema, type PageRequest, type PageResponse } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { queryError } from './types.js';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;
export const ERR_KEY_AND_OFFSET = 'invalid request, either offset or key is expected, got both';

export interface PageLimits {
  /** Page size when the request names none. */
  defaultLimit: number;
  /** Largest page size served. */
  maxLimit: number;
}

export const DEFAULT_PAGE_LIMITS: Readonly<PageLimits> = Object.freeze({ defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT });

export interface OffsetPage {
  /** Indexes into the full list, in answer order. */
  indexes: number[];
  pagination: PageResponse;
}

/**
 * Offset paging over a list of `total` items: `offset`/`limit`/`reverse` of the request (limit 0
 * → default, clamped to the maximum), `total` always reported, `next_key` always empty. Throws
 * InvalidArgument for a key (with the SDK's text when offset is set too).
 */
export function offsetPage(request: PageRequest | undefined, total: number, limits: PageLimits, what: string): OffsetPage {
  const key = request?.key ?? new Uint8Array(0);
  const offset = request?.offset ?? 0n;
  if (key.length > 0 && offset > 0n) throw queryError('InvalidArgument', ERR_KEY_AND_OFFSET);
  if (key.length > 0) throw queryError('InvalidArgument', `key-based pagination is not supported by ${what}; use pagination.offset`);
  let limit = Number(request?.limit ?? 0n);
  if (limit <= 0) limit = limits.defaultLimit;
  if (limit > limits.maxLimit) limit = limits.maxLimit;
  const start = offset > BigInt(total) ? total : Number(offset);
  const end = Math.min(total, start + limit);
  const indexes: number[] = [];
  for (let i = start; i < end; i++) indexes.push(request?.reverse === true ? total - 1 - i : i);
  return { indexes, pagination: create(PageResponseSchema, { nextKey: new Uint8Array(0), total: BigInt(total) }) };
}
