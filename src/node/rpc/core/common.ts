/** Helpers shared by the route handlers (CometBFT rpc/core/env.go). */
import { TokendError, type ErrorCode } from '../../../util/errors.js';
import type { OrderBy } from '../../indexer/paging.js';
import type { RpcEnvironment } from '../environment.js';

/** A handler failure; the server answers -32603 with this message as data (CometBFT's error text). */
export class RpcHandlerError extends TokendError {
  constructor(message: string, code: ErrorCode = 'INVALID_ARGUMENT', options: { cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(code, message, options);
    this.name = 'RpcHandlerError';
  }
}

/**
 * getHeight: undefined → `latest`; otherwise 0 < height ≤ latest and not below the block store's
 * base (the error names the heights this node still has).
 */
export function resolveHeight(env: RpcEnvironment, latest: number, height: number | undefined): number {
  if (height === undefined) return latest;
  if (height <= 0) throw new RpcHandlerError(`height must be greater than 0, but got ${height}`);
  if (height > latest) throw new RpcHandlerError(`height ${height} must be less than or equal to the current blockchain height ${latest}`);
  const base = env.blockStore.base();
  if (height < base) {
    throw new RpcHandlerError(`height ${height} is not available, lowest height is ${base} (this node keeps heights ${base} to ${env.blockStore.height()})`, 'NOT_FOUND');
  }
  return height;
}

/** The height validators / consensus_params default to: the next block (latest + 1). */
export function latestUncommittedHeight(env: RpcEnvironment): number {
  return env.blockStore.height() + 1;
}

export function parseOrderBy(value: string | undefined, fallback: OrderBy): OrderBy {
  if (value === undefined || value === '') return fallback;
  if (value === 'asc' || value === 'desc') return value;
  throw new RpcHandlerError('expected order_by to be either `asc` or `desc` or empty');
}
