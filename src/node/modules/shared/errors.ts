/**
 * Errors of the state machine, in the Cosmos SDK's shape (cosmossdk.io/errors).
 *
 * A `RegisteredError` is a (codespace, code, description) triple registered once per codespace
 * ("sdk", "bank", "staking", …). An `SdkError` is a registered root plus wrap messages:
 * `ErrInsufficientFunds.wrap('spendable balance 0attotoken is smaller than 5attotoken')` has the
 * ABCI log "spendable balance 0attotoken is smaller than 5attotoken: insufficient funds" — wraps
 * joined by ": ", outer first, the root's description last (COMPAT §3.4).
 *
 * Errors that are not SdkErrors map to code 1, codespace "undefined", log = their message
 * (`abciInfo`). Query handlers throw `GrpcError`s (a gRPC status code and a description); the
 * query router maps them to ABCI codes (COMPAT §3.5).
 */
import { TokendError } from '../../../util/errors.js';
import { GRPC_CODES, type GrpcCodeName } from '../../../util/grpcCodes.js';

export const UNDEFINED_CODESPACE = 'undefined';
export const INTERNAL_ABCI_CODE = 1;

const registry = new Map<string, Map<number, RegisteredError>>();

/** A registered error class: what a code means in its codespace. */
export class RegisteredError {
  constructor(
    readonly codespace: string,
    readonly code: number,
    readonly description: string,
  ) {}

  /** This error with one message in front ("msg: description"). */
  wrap(message: string): SdkError {
    return new SdkError(this, [message]);
  }

  /** The bare error (log = description). */
  error(): SdkError {
    return new SdkError(this, []);
  }

  /** True if `err` is an SdkError rooted in this registered error. */
  is(err: unknown): boolean {
    return err instanceof SdkError && err.root === this;
  }
}

/** Registers a code under a codespace; a code can be registered only once (as in the SDK). */
export function registerError(codespace: string, code: number, description: string): RegisteredError {
  let space = registry.get(codespace);
  if (space === undefined) {
    space = new Map();
    registry.set(codespace, space);
  }
  if (code === INTERNAL_ABCI_CODE) throw new Error(`error code ${code} is reserved for internal errors (codespace ${codespace})`);
  const existing = space.get(code);
  if (existing !== undefined) {
    if (existing.description === description) return existing; // idempotent re-import
    throw new Error(`error with code ${code} is already registered in codespace ${codespace}: "${existing.description}"`);
  }
  const registered = new RegisteredError(codespace, code, description);
  space.set(code, registered);
  return registered;
}

/** The registered error for (codespace, code), if any. */
export function lookupError(codespace: string, code: number): RegisteredError | undefined {
  return registry.get(codespace)?.get(code);
}

/** Every registered codespace with its codes, for docs and tests. */
export function registeredErrors(): RegisteredError[] {
  return [...registry.values()].flatMap((space) => [...space.values()]);
}

/** A failure of the state machine with an ABCI code: a registered root plus wrap messages. */
export class SdkError extends TokendError {
  constructor(
    readonly root: RegisteredError,
    /** Wrap messages, outer first. */
    readonly wraps: readonly string[],
  ) {
    super('TX_FAILED', [...wraps, root.description].join(': '), { meta: { codespace: root.codespace, code: root.code } });
    this.name = 'SdkError';
  }

  get codespace(): string {
    return this.root.codespace;
  }

  get abciCode(): number {
    return this.root.code;
  }

  /** The ABCI log: wraps then the root description, joined by ": ". */
  get log(): string {
    return this.message;
  }

  /** This error with another message in front. */
  wrap(message: string): SdkError {
    return new SdkError(this.root, [message, ...this.wraps]);
  }
}

export function isSdkError(err: unknown): err is SdkError {
  return err instanceof SdkError;
}

/** (codespace, code, log) of any thrown value, as ABCI reports it. */
export function abciInfo(err: unknown): { codespace: string; code: number; log: string } {
  if (err instanceof SdkError) return { codespace: err.codespace, code: err.abciCode, log: err.log };
  const log = err instanceof Error ? err.message : String(err);
  return { codespace: UNDEFINED_CODESPACE, code: INTERNAL_ABCI_CODE, log };
}

/** Wraps any error as the SDK's errorsmod.Wrap does: registered roots keep their code. */
export function wrapError(err: unknown, message: string): SdkError | Error {
  if (err instanceof SdkError) return err.wrap(message);
  const text = err instanceof Error ? err.message : String(err);
  return new Error(`${message}: ${text}`, { cause: err });
}

// ------------------------------------------------------------------------------------- sdk

export const SDK_CODESPACE = 'sdk';

/** The "sdk" codespace (types/errors/errors.go), COMPAT §3.4. */
export const SdkErrors = {
  TxDecode: registerError(SDK_CODESPACE, 2, 'tx parse error'),
  InvalidSequence: registerError(SDK_CODESPACE, 3, 'invalid sequence'),
  Unauthorized: registerError(SDK_CODESPACE, 4, 'unauthorized'),
  InsufficientFunds: registerError(SDK_CODESPACE, 5, 'insufficient funds'),
  UnknownRequest: registerError(SDK_CODESPACE, 6, 'unknown request'),
  InvalidAddress: registerError(SDK_CODESPACE, 7, 'invalid address'),
  InvalidPubKey: registerError(SDK_CODESPACE, 8, 'invalid pubkey'),
  UnknownAddress: registerError(SDK_CODESPACE, 9, 'unknown address'),
  InvalidCoins: registerError(SDK_CODESPACE, 10, 'invalid coins'),
  OutOfGas: registerError(SDK_CODESPACE, 11, 'out of gas'),
  MemoTooLarge: registerError(SDK_CODESPACE, 12, 'memo too large'),
  InsufficientFee: registerError(SDK_CODESPACE, 13, 'insufficient fee'),
  TooManySignatures: registerError(SDK_CODESPACE, 14, 'maximum number of signatures exceeded'),
  NoSignatures: registerError(SDK_CODESPACE, 15, 'no signatures supplied'),
  JSONMarshal: registerError(SDK_CODESPACE, 16, 'failed to marshal JSON bytes'),
  JSONUnmarshal: registerError(SDK_CODESPACE, 17, 'failed to unmarshal JSON bytes'),
  InvalidRequest: registerError(SDK_CODESPACE, 18, 'invalid request'),
  TxInMempoolCache: registerError(SDK_CODESPACE, 19, 'tx already in mempool'),
  MempoolIsFull: registerError(SDK_CODESPACE, 20, 'mempool is full'),
  TxTooLarge: registerError(SDK_CODESPACE, 21, 'tx too large'),
  KeyNotFound: registerError(SDK_CODESPACE, 22, 'key not found'),
  WrongPassword: registerError(SDK_CODESPACE, 23, 'invalid account password'),
  InvalidSigner: registerError(SDK_CODESPACE, 24, 'tx intended signer does not match the given signer'),
  InvalidGasAdjustment: registerError(SDK_CODESPACE, 25, 'invalid gas adjustment'),
  InvalidHeight: registerError(SDK_CODESPACE, 26, 'invalid height'),
  InvalidVersion: registerError(SDK_CODESPACE, 27, 'invalid version'),
  InvalidChainID: registerError(SDK_CODESPACE, 28, 'invalid chain-id'),
  InvalidType: registerError(SDK_CODESPACE, 29, 'invalid type'),
  TxTimeoutHeight: registerError(SDK_CODESPACE, 30, 'tx timeout height'),
  UnknownExtensionOptions: registerError(SDK_CODESPACE, 31, 'unknown extension options'),
  WrongSequence: registerError(SDK_CODESPACE, 32, 'incorrect account sequence'),
  PackAny: registerError(SDK_CODESPACE, 33, 'failed packing protobuf message to Any'),
  UnpackAny: registerError(SDK_CODESPACE, 34, 'failed unpacking protobuf message from Any'),
  Logic: registerError(SDK_CODESPACE, 35, 'internal logic error'),
  Conflict: registerError(SDK_CODESPACE, 36, 'conflict'),
  NotSupported: registerError(SDK_CODESPACE, 37, 'feature not supported'),
  NotFound: registerError(SDK_CODESPACE, 38, 'not found'),
  IO: registerError(SDK_CODESPACE, 39, 'Internal IO error'),
  AppConfig: registerError(SDK_CODESPACE, 40, 'error in app.toml'),
  InvalidGasLimit: registerError(SDK_CODESPACE, 41, 'invalid gas limit'),
} as const;

// ------------------------------------------------------------------------------------- gRPC

export { GRPC_CODES, type GrpcCodeName };

/**
 * A query failure with a gRPC status (what `status.Errorf(codes.X, …)` returns in the SDK).
 * The gRPC server sends `code`/`description`; ABCI maps it per COMPAT §3.5 (`grpcToAbci`).
 */
export class GrpcError extends TokendError {
  constructor(
    readonly grpcCode: GrpcCodeName,
    readonly description: string,
    options: { cause?: unknown } = {},
  ) {
    super(grpcCode === 'NotFound' ? 'NOT_FOUND' : grpcCode === 'InvalidArgument' ? 'INVALID_ARGUMENT' : 'RPC_ERROR', description, options);
    this.name = 'GrpcError';
  }

  get grpcNumber(): number {
    return GRPC_CODES[this.grpcCode];
  }

  /** "rpc error: code = NotFound desc = …", as Go's status error prints. */
  get statusText(): string {
    return `rpc error: code = ${this.grpcCode} desc = ${this.description}`;
  }
}

export function grpcError(code: GrpcCodeName, description: string): GrpcError {
  return new GrpcError(code, description);
}

export function isGrpcError(err: unknown): err is GrpcError {
  return err instanceof GrpcError;
}

/** Any error a query handler threw, as a gRPC status (non-status errors become Unknown). */
export function toGrpcError(err: unknown): GrpcError {
  if (err instanceof GrpcError) return err;
  if (err instanceof SdkError) return new GrpcError('Unknown', err.log, { cause: err });
  return new GrpcError('Unknown', err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * The SDK's gRPCErrorToSDKError: the ABCI (code, log) of a query error. NotFound → 22 key not
 * found, InvalidArgument/FailedPrecondition → 18 invalid request, Unauthenticated → 4
 * unauthorized, everything else → 6 unknown request; log = "<status text>: <root>".
 */
export function grpcToAbci(err: GrpcError): SdkError {
  switch (err.grpcCode) {
    case 'NotFound':
      return SdkErrors.KeyNotFound.wrap(err.statusText);
    case 'InvalidArgument':
    case 'FailedPrecondition':
      return SdkErrors.InvalidRequest.wrap(err.statusText);
    case 'Unauthenticated':
      return SdkErrors.Unauthorized.wrap(err.statusText);
    default:
      return SdkErrors.UnknownRequest.wrap(err.statusText);
  }
}
