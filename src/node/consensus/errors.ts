/**
 * Typed errors of the consensus subsystem.
 *
 * Every error is a `TokendError` (so the CLI prints it on one line) with a consensus-specific
 * `reason`. Mempool refusals keep CometBFT's exact wording because the RPC returns them verbatim
 * as the `data` of a -32603 error.
 */
import { TokendError, type ErrorCode } from '../../util/errors.js';

export type ConsensusErrorReason =
  | 'DECODE'
  | 'INVALID_BLOCK'
  | 'INVALID_VOTE'
  | 'CONFLICTING_VOTE'
  | 'INVALID_PROPOSAL'
  | 'INVALID_COMMIT'
  | 'INVALID_VALIDATOR_SET'
  | 'INVALID_PARAMS'
  | 'INVALID_GENESIS'
  | 'INVALID_KEY'
  | 'DOUBLE_SIGN'
  | 'WAL_CORRUPTED'
  | 'STORE'
  | 'HANDSHAKE'
  | 'APP'
  | 'MEMPOOL_TX_IN_CACHE'
  | 'MEMPOOL_FULL'
  | 'MEMPOOL_TX_TOO_LARGE'
  | 'MEMPOOL_CLOSED'
  | 'TIMEOUT'
  | 'STOPPED'
  /** A broken consensus invariant (e.g. +2/3 committed an invalid block): the engine halts. */
  | 'FATAL';

const toTokendCode: Partial<Record<ConsensusErrorReason, ErrorCode>> = {
  INVALID_GENESIS: 'INVALID_GENESIS',
  INVALID_KEY: 'INVALID_ARGUMENT',
  MEMPOOL_TX_IN_CACHE: 'ALREADY_EXISTS',
  MEMPOOL_TX_TOO_LARGE: 'INVALID_ARGUMENT',
  TIMEOUT: 'ABORTED',
  STOPPED: 'ABORTED',
};

export class ConsensusError extends TokendError {
  readonly reason: ConsensusErrorReason;

  constructor(reason: ConsensusErrorReason, message: string, options: { hint?: string; cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(toTokendCode[reason] ?? 'INTERNAL', message, options);
    this.name = 'ConsensusError';
    this.reason = reason;
  }
}

export function isConsensusError(err: unknown, reason?: ConsensusErrorReason): err is ConsensusError {
  return err instanceof ConsensusError && (reason === undefined || err.reason === reason);
}
