/**
 * Errors raised while packing, unpacking or converting protobuf messages.
 */
import { TokendError } from '../../util/errors.js';

export type CodecErrorReason =
  /** An Any names a type that is not in the codec registry. */
  | 'UNKNOWN_TYPE_URL'
  /** An Any holds a different type than the caller expected. */
  | 'TYPE_MISMATCH'
  /** Bytes that do not decode as the named message. */
  | 'INVALID_BYTES'
  /** JSON that does not fit the message schema. */
  | 'INVALID_JSON';

/** A codec failure; `reason` tells the kinds apart, `meta` names the type involved. */
export class CodecError extends TokendError {
  readonly reason: CodecErrorReason;

  constructor(reason: CodecErrorReason, message: string, meta?: Record<string, unknown>, cause?: unknown) {
    super('INVALID_ARGUMENT', message, { meta, cause });
    this.name = 'CodecError';
    this.reason = reason;
  }
}

export function isCodecError(err: unknown): err is CodecError {
  return err instanceof CodecError;
}
