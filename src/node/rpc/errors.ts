/**
 * JSON-RPC errors as CometBFT writes them (rpc/jsonrpc/types): {code, message, data} where data is
 * the Go error text. Handlers throw any Error; the server turns it into -32603 "Internal error"
 * with the error's message as data, unless it is an RpcError carrying another code.
 */
import { TokendError } from '../../util/errors.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const SERVER_ERROR = -32000;

const MESSAGES: Record<number, string> = {
  [PARSE_ERROR]: 'Parse error. Invalid JSON',
  [INVALID_REQUEST]: 'Invalid Request',
  [METHOD_NOT_FOUND]: 'Method not found',
  [INVALID_PARAMS]: 'Invalid params',
  [INTERNAL_ERROR]: 'Internal error',
  [SERVER_ERROR]: 'Server error',
};

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: string;
}

export class RpcError extends TokendError {
  readonly rpcCode: number;
  readonly rpcMessage: string;
  /** The `data` text ("" → omitted, as CometBFT's omitempty). */
  readonly data: string;

  constructor(rpcCode: number, data: string, options: { cause?: unknown } = {}) {
    super('RPC_ERROR', data || MESSAGES[rpcCode] || 'RPC error', options);
    this.name = 'RpcError';
    this.rpcCode = rpcCode;
    this.rpcMessage = MESSAGES[rpcCode] ?? 'Server error';
    this.data = data;
  }

  toJSON(): RpcErrorObject {
    return this.data ? { code: this.rpcCode, message: this.rpcMessage, data: this.data } : { code: this.rpcCode, message: this.rpcMessage };
  }
}

/** A parameter that cannot be converted to its Go type (-32602). */
export class ParamError extends RpcError {
  constructor(detail: string) {
    super(INVALID_PARAMS, `error converting json params to arguments: ${detail}`);
    this.name = 'ParamError';
  }
}

/** The JSON error object for any thrown value. */
export function toRpcErrorObject(err: unknown): RpcErrorObject {
  if (err instanceof RpcError) return err.toJSON();
  const data = err instanceof Error ? err.message : String(err);
  return data ? { code: INTERNAL_ERROR, message: MESSAGES[INTERNAL_ERROR]!, data } : { code: INTERNAL_ERROR, message: MESSAGES[INTERNAL_ERROR]! };
}
