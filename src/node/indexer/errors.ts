/**
 * Typed errors of the indexers and the event query language. Messages keep CometBFT's wording where
 * clients may recognise it ("transaction indexing is disabled", "page should be within …").
 */
import { TokendError, type ErrorCode } from '../../util/errors.js';

export type IndexerErrorReason =
  /** The query text does not parse or compile. */
  | 'QUERY_SYNTAX'
  /** The query is longer than the 512 characters CometBFT accepts. */
  | 'QUERY_TOO_LONG'
  /** A page number outside [1, pages]. */
  | 'PAGE_OUT_OF_RANGE'
  /** tx_index.indexer = "null". */
  | 'DISABLED'
  /** A stored index entry could not be decoded. */
  | 'CORRUPT'
  /** The indexer was asked to index a height out of order. */
  | 'OUT_OF_ORDER'
  /** waitForTx on the relay bus: the tx was not committed in time. */
  | 'TIMEOUT'
  /** waitForTx on the relay bus was cancelled. */
  | 'CANCELLED';

const toTokendCode: Record<IndexerErrorReason, ErrorCode> = {
  QUERY_SYNTAX: 'INVALID_ARGUMENT',
  QUERY_TOO_LONG: 'INVALID_ARGUMENT',
  PAGE_OUT_OF_RANGE: 'INVALID_ARGUMENT',
  DISABLED: 'NOT_FOUND',
  CORRUPT: 'INTERNAL',
  OUT_OF_ORDER: 'INTERNAL',
  TIMEOUT: 'ABORTED',
  CANCELLED: 'ABORTED',
};

export class IndexerError extends TokendError {
  readonly reason: IndexerErrorReason;

  constructor(reason: IndexerErrorReason, message: string, options: { hint?: string; cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(toTokendCode[reason], message, options);
    this.name = 'IndexerError';
    this.reason = reason;
  }
}

export function isIndexerError(err: unknown, reason?: IndexerErrorReason): err is IndexerError {
  return err instanceof IndexerError && (reason === undefined || err.reason === reason);
}
