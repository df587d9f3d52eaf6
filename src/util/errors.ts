/**
 * Typed errors shared by the CLI and the node library.
 *
 * A `TokendError` carries a stable machine code, a one-line message that says what is wrong,
 * and optionally a hint that says how to fix it. The CLI prints `Error: <message>. <hint>` on
 * one line (or a JSON object in `-o json` mode) and exits with `exitCode`.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_MNEMONIC'
  | 'INVALID_ADDRESS'
  | 'INVALID_PASSWORD'
  | 'WRONG_PASSWORD'
  | 'PASSWORD_MISMATCH'
  | 'KEY_EXISTS'
  | 'KEY_NOT_FOUND'
  | 'KEYRING_UNAVAILABLE'
  | 'CONFIG_UNKNOWN_KEY'
  | 'CONFIG_INVALID'
  | 'HOME_UNWRITABLE'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'INVALID_GENESIS'
  | 'NODE_RUNNING'
  | 'NODE_UNREACHABLE'
  | 'RPC_ERROR'
  | 'TX_FAILED'
  | 'ABORTED'
  | 'INTERNAL';

export interface TokendErrorOptions {
  hint?: string;
  exitCode?: number;
  cause?: unknown;
  /** Extra structured context, printed in JSON error output. */
  meta?: Record<string, unknown>;
}

export class TokendError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly exitCode: number;
  readonly meta?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: TokendErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TokendError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
    this.meta = options.meta;
  }

  /** The single line a user sees. */
  get line(): string {
    return this.hint ? `${this.message}. ${this.hint}` : this.message;
  }
}

export function isTokendError(err: unknown): err is TokendError {
  return err instanceof TokendError;
}

/** Message of any thrown value, without a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof TokendError) return err.line;
  if (err instanceof Error) return err.message;
  return String(err);
}
