/**
 * The pagination flags of query commands (derived ones, see derive/, and hand-written ones) and
 * the request's `pagination` object they make.
 */
import { Flags } from '@oclif/core';

export const paginationFlags = {
  'page-key': Flags.string({ description: 'pagination.key from a previous next_key (base64)' }),
  offset: Flags.integer({ description: 'Pagination offset (use --page-key when you can; not both)', min: 0 }),
  limit: Flags.integer({ description: 'Page size (default 100)', min: 1 }),
  'count-total': Flags.boolean({ description: 'Return the total count (with --offset paging)' }),
  reverse: Flags.boolean({ description: 'Results in descending order' }),
  page: Flags.integer({ description: 'Page number, from 1 (sets --offset = (page-1)*limit)', min: 1 }),
};

export { paginationRequest, type PaginationFlagValues } from './pagination.js';
