/**
 * Typed errors of the p2p layer. `reason` says what went wrong; whether a peer is banned for it
 * is decided by the switch (see `banWorthy`).
 */
import { TokendError, type ErrorCode } from '../../util/errors.js';

export type P2PErrorReason =
  /** A malformed address in config or from a peer. */
  | 'INVALID_ADDRESS'
  /** The secret connection handshake failed (bad key, bad signature, low-order point). */
  | 'AUTH_FAILURE'
  /** The node info exchange failed or the info is invalid. */
  | 'HANDSHAKE'
  /** Another chain, block version or no common channel. */
  | 'INCOMPATIBLE'
  /** The authenticated key does not match the dialed or announced node id. */
  | 'ID_MISMATCH'
  | 'SELF'
  | 'DUPLICATE'
  | 'FILTERED'
  | 'BANNED'
  | 'TOO_MANY_PEERS'
  /** Broken framing, unknown channel, undecodable message. */
  | 'PROTOCOL'
  | 'MESSAGE_TOO_LARGE'
  /** A peer sent more than it may (requests too often, too many messages). */
  | 'FLOOD'
  /** A peer sent something provably wrong (bad signature, invalid block or part). */
  | 'MISBEHAVIOUR'
  /** Something was wrong but it cannot be pinned on this peer: disconnect, do not ban. */
  | 'UNVERIFIABLE'
  | 'TIMEOUT'
  | 'CLOSED'
  | 'DIAL_FAILED';

const toTokendCode: Partial<Record<P2PErrorReason, ErrorCode>> = {
  INVALID_ADDRESS: 'CONFIG_INVALID',
  TIMEOUT: 'ABORTED',
  CLOSED: 'ABORTED',
};

export class P2PError extends TokendError {
  readonly reason: P2PErrorReason;

  constructor(reason: P2PErrorReason, message: string, options: { hint?: string; cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(toTokendCode[reason] ?? 'INTERNAL', message, options);
    this.name = 'P2PError';
    this.reason = reason;
  }
}

export function isP2PError(err: unknown, reason?: P2PErrorReason): err is P2PError {
  return err instanceof P2PError && (reason === undefined || err.reason === reason);
}

/** Reasons for which a peer is disconnected and refused for a while (not just disconnected). */
export function banWorthy(err: unknown): boolean {
  if (!(err instanceof P2PError)) return false;
  return ['PROTOCOL', 'MESSAGE_TOO_LARGE', 'FLOOD', 'MISBEHAVIOUR', 'AUTH_FAILURE', 'ID_MISMATCH'].includes(err.reason);
}
