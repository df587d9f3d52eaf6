/** The request's `pagination` object from the pagination flags (no oclif: the fast path uses it too). */
import { TokendError } from '../util/errors.js';
import type { JsonObject } from '../node/client/query.js';

export interface PaginationFlagValues {
  'page-key'?: string;
  offset?: number;
  limit?: number;
  'count-total'?: boolean;
  reverse?: boolean;
  page?: number;
}

/** The request's `pagination` object from the pagination flags (gateway JSON). */
export function paginationRequest(flags: PaginationFlagValues): JsonObject | undefined {
  if (flags['page-key'] !== undefined && (flags.offset !== undefined || flags.page !== undefined)) {
    throw new TokendError('INVALID_ARGUMENT', 'invalid request, either offset or key is expected, got both', { hint: 'use --page-key or --offset/--page, not both', exitCode: 2 });
  }
  const pagination: JsonObject = {};
  const limit = flags.limit ?? (flags.page !== undefined ? 100 : undefined);
  if (flags['page-key'] !== undefined) pagination.key = flags['page-key'];
  if (flags.page !== undefined) pagination.offset = String((flags.page - 1) * (limit ?? 100));
  else if (flags.offset !== undefined) pagination.offset = String(flags.offset);
  if (limit !== undefined) pagination.limit = String(limit);
  if (flags['count-total']) pagination.count_total = true;
  if (flags.reverse) pagination.reverse = true;
  return Object.keys(pagination).length > 0 ? pagination : undefined;
}
