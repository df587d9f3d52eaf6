/**
 * Errors of the typed state collections. `reason` says which rule was broken:
 *
 *  - SCHEMA: a collection declaration clashes with another (name, prefix) or is malformed;
 *  - ENCODING: a key or value cannot be encoded (out of range, too long, forbidden byte);
 *  - DECODING: stored bytes do not decode with the collection's codec (corrupted or foreign data);
 *  - CONFLICT: a unique index already maps the reference key to another primary key;
 *  - GENESIS: genesis entries cannot be imported (duplicate keys).
 */
import { TokendError, type ErrorCode } from '../../util/errors.js';

export type CollectionErrorReason = 'SCHEMA' | 'ENCODING' | 'DECODING' | 'CONFLICT' | 'GENESIS';

const CODE_OF_REASON: Record<CollectionErrorReason, ErrorCode> = {
  SCHEMA: 'INTERNAL',
  ENCODING: 'INVALID_ARGUMENT',
  DECODING: 'INTERNAL',
  CONFLICT: 'ALREADY_EXISTS',
  GENESIS: 'INVALID_GENESIS',
};

export class CollectionError extends TokendError {
  readonly reason: CollectionErrorReason;

  constructor(reason: CollectionErrorReason, message: string, options: { cause?: unknown } = {}) {
    super(CODE_OF_REASON[reason], message, options);
    this.name = 'CollectionError';
    this.reason = reason;
  }
}
