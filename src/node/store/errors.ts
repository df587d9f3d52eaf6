/**
 * Typed errors of the state store.
 *
 * `StoreError` carries a store-specific `reason` on top of the shared `TokendError` code, so
 * callers can branch on it (e.g. the query layer maps `VERSION_PRUNED` to a gRPC InvalidArgument
 * with the message unchanged). `OutOfGasError` is what `GasMeter.consumeGas` throws; runTx
 * catches it and turns it into the SDK's "out of gas" result (codespace sdk, code 11).
 */
import { TokendError, type ErrorCode } from '../../util/errors.js';

export type StoreErrorReason =
  | 'VERSION_PRUNED'
  | 'VERSION_NOT_FOUND'
  | 'UNKNOWN_STORE'
  | 'INVALID_KEY'
  | 'INVALID_VALUE'
  | 'READ_ONLY'
  | 'COMMIT_IN_PROGRESS'
  | 'PENDING_WRITES'
  | 'INVALID_OPTIONS'
  | 'CORRUPTED'
  | 'CLOSED';

const CODE_OF_REASON: Record<StoreErrorReason, ErrorCode> = {
  VERSION_PRUNED: 'NOT_FOUND',
  VERSION_NOT_FOUND: 'NOT_FOUND',
  UNKNOWN_STORE: 'INVALID_ARGUMENT',
  INVALID_KEY: 'INVALID_ARGUMENT',
  INVALID_VALUE: 'INVALID_ARGUMENT',
  READ_ONLY: 'INTERNAL',
  COMMIT_IN_PROGRESS: 'INTERNAL',
  PENDING_WRITES: 'ABORTED',
  INVALID_OPTIONS: 'CONFIG_INVALID',
  CORRUPTED: 'INTERNAL',
  CLOSED: 'INTERNAL',
};

export class StoreError extends TokendError {
  readonly reason: StoreErrorReason;

  constructor(reason: StoreErrorReason, message: string, options: { hint?: string; cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(CODE_OF_REASON[reason], message, { ...options, meta: { reason, ...options.meta } });
    this.name = 'StoreError';
    this.reason = reason;
  }
}

export function isStoreError(err: unknown, reason?: StoreErrorReason): err is StoreError {
  return err instanceof StoreError && (reason === undefined || err.reason === reason);
}

/** Gas ran out. `descriptor` names the charge that crossed the limit ("ReadFlat", "WritePerByte", …). */
export class OutOfGasError extends TokendError {
  constructor(
    readonly descriptor: string,
    readonly gasLimit: number,
    readonly gasUsed: number,
  ) {
    super('TX_FAILED', `out of gas in location: ${descriptor}; gasWanted: ${gasLimit}, gasUsed: ${gasUsed}`, {
      meta: { descriptor, gasLimit, gasUsed },
    });
    this.name = 'OutOfGasError';
  }
}

/** Consumed gas would exceed 2^53-1 (the SDK's uint64 overflow, at JavaScript's integer limit). */
export class GasOverflowError extends TokendError {
  constructor(readonly descriptor: string) {
    super('TX_FAILED', `gas overflow in location: ${descriptor}`, { meta: { descriptor } });
    this.name = 'GasOverflowError';
  }
}
