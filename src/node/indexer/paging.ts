/** CometBFT's pagination rules (rpc/core/env.go), shared by tx_search, block_search and validators. */
import { IndexerError } from './errors.js';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

/** per_page: absent or < 1 → 30; > 100 → 100. */
export function validatePerPage(perPage: number | undefined): number {
  if (perPage === undefined || perPage < 1) return DEFAULT_PER_PAGE;
  return perPage > MAX_PER_PAGE ? MAX_PER_PAGE : perPage;
}

/** page: absent → 1; otherwise it must lie in [1, pages] ("page should be within [1, N] range, given P"). */
export function validatePage(page: number | undefined, perPage: number, totalCount: number): number {
  if (page === undefined) return 1;
  let pages = Math.floor((totalCount - 1) / perPage) + 1;
  if (pages <= 0) pages = 1;
  if (page <= 0 || page > pages) {
    throw new IndexerError('PAGE_OUT_OF_RANGE', `page should be within [1, ${pages}] range, given ${page}`);
  }
  return page;
}

export type OrderBy = 'asc' | 'desc';

export interface SearchOptions {
  /** 1-based; undefined = first page. */
  page?: number;
  /** Already normalised with validatePerPage. */
  perPage: number;
  orderBy: OrderBy;
}

export interface SearchPage<T> {
  /** Matches over all pages. */
  total: number;
  items: T[];
}

/** The [start, end) offsets of a page in a list of `total` items in the requested order. */
export function pageWindow(total: number, options: SearchOptions): { page: number; skip: number; size: number } {
  const page = validatePage(options.page, options.perPage, total);
  const skip = Math.max(0, (page - 1) * options.perPage);
  const size = Math.max(0, Math.min(options.perPage, total - skip));
  return { page, skip, size };
}
