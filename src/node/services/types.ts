/**
 * The one table of query methods that the REST gateway (src/node/api) and the gRPC server
 * (src/node/grpc) serve (GUIDE §2 "One contract per query").
 *
 * A `QueryEntry` is one protobuf method, `/<pkg.Service>/<Method>`, with a handler that takes the
 * decoded request and a height (0 = latest) and resolves with the response message and the
 * height it was answered at (the `x-cosmos-block-height` the servers echo). Failures are
 * `QueryError`s carrying a gRPC status code; every transport maps that code the same way
 * (gRPC status, HTTP status of the gateway, see api/errors.ts).
 *
 * Two kinds of entries exist:
 *   - `app`: the state machine's Query services (auth, bank, staking, tx Simulate/Decode/Encode,
 *     node Config/Status), run against versioned state at a height; the same methods are the
 *     app's ABCI query paths. They come from the app's registry through `appQueryRouter`.
 *   - `node`: services answered from the node's own stores (blocks, validator sets, tx index,
 *     mempool): cosmos.base.tendermint.v1beta1.Service and the tx lookups/broadcast of
 *     cosmos.tx.v1beta1.Service (`nodeQueryEntries`). They are not ABCI query paths.
 */
import type { DescMethod, Message } from '@bufbuild/protobuf';
import type { RpcApp, RpcEnvironment } from '../rpc/environment.js';
import { TokendError, type ErrorCode } from '../../util/errors.js';
import { GRPC_CODES, type GrpcCodeName } from '../../util/grpcCodes.js';

// ------------------------------------------------------------------------------------ codes

/** gRPC status codes (google.golang.org/grpc/codes), one table for the whole node. */
export const GrpcStatus = GRPC_CODES;

export type GrpcStatusName = GrpcCodeName;
export type GrpcStatusCode = (typeof GrpcStatus)[GrpcStatusName];

const NAME_OF_CODE: ReadonlyMap<number, GrpcStatusName> = new Map(
  (Object.entries(GrpcStatus) as [GrpcStatusName, number][]).map(([name, code]) => [code, name]),
);

/** "NotFound" for 5; "Unknown" for codes outside the table. */
export function grpcStatusName(code: number): GrpcStatusName {
  return NAME_OF_CODE.get(code) ?? 'Unknown';
}

const TOKEND_CODE: Partial<Record<GrpcStatusName, ErrorCode>> = {
  InvalidArgument: 'INVALID_ARGUMENT',
  OutOfRange: 'INVALID_ARGUMENT',
  FailedPrecondition: 'INVALID_ARGUMENT',
  NotFound: 'NOT_FOUND',
  AlreadyExists: 'ALREADY_EXISTS',
  Aborted: 'ABORTED',
  DeadlineExceeded: 'ABORTED',
  Internal: 'INTERNAL',
};

/**
 * A failed query: a gRPC status code and the status message clients see (the gateway's
 * `message`, the gRPC `grpc-message`).
 */
export class QueryError extends TokendError {
  readonly grpcCode: GrpcStatusCode;

  constructor(code: GrpcStatusName, message: string, options: { cause?: unknown; meta?: Record<string, unknown> } = {}) {
    super(TOKEND_CODE[code] ?? 'RPC_ERROR', message, options);
    this.name = 'QueryError';
    this.grpcCode = GrpcStatus[code];
  }

  get grpcName(): GrpcStatusName {
    return grpcStatusName(this.grpcCode);
  }
}

export function isQueryError(err: unknown): err is QueryError {
  return err instanceof QueryError;
}

export function queryError(code: GrpcStatusName, message: string): QueryError {
  return new QueryError(code, message);
}

// ------------------------------------------------------------------------------------ entries

export interface QueryContext {
  /** Height to answer at; 0 = latest. Node entries ignore it (their requests name heights). */
  height: number;
}

export interface QueryResult {
  response: Message;
  /** The height the answer reflects: the resolved query height, or the latest block height. */
  height: number;
}

export type QuerySource = 'app' | 'node';

export interface QueryEntry {
  /** "/cosmos.bank.v1beta1.Query/AllBalances": the gRPC method path (and, for app entries, the ABCI path). */
  readonly path: string;
  /** The method descriptor: `method.parent` is the service, `input`/`output` the schemas. */
  readonly method: DescMethod;
  readonly source: QuerySource;
  /** Throws QueryError. */
  handle(request: Message, ctx: QueryContext): Promise<QueryResult>;
}

export interface QueryRouter {
  /** Every served method, in registration order. */
  entries(): Iterable<QueryEntry>;
  lookup(path: string): QueryEntry | undefined;
  /** Latest committed height (the height header of answers that name no height, and of errors). */
  latestHeight(): number;
  /**
   * The height of the app's latest committed state, which the app's entries (source 'app') answer
   * from when asked for no height: until it moves, the same request gets the same answer.
   * Undefined without an app.
   */
  stateHeight?(): number;
  /** Calls `listener` with the new state height each time it moves; returns the function that stops it. */
  watchStateHeight?(listener: (height: number) => void): () => void;
}

/** "/<service>/<Method>" of a method descriptor. */
export function methodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

// ------------------------------------------------------------------------------------ node env

/**
 * What the node-level services read: the RPC environment's narrow readers (the composition root
 * passes the same object it builds for the CometBFT RPC, see rpc/wiring.ts), of which the app is
 * only used for ABCIQuery.
 */
export type NodeServicesEnv = Pick<RpcEnvironment, 'blockStore' | 'stateStore' | 'mempool' | 'eventBus' | 'txIndexer' | 'status' | 'nodeInfo' | 'catchUpIndex'> & {
  app: Pick<RpcApp, 'query'>;
};
