/**
 * The route table's types: `{ name, params, handler(env, args, ctx) }`, CometBFT's RPCFunc without
 * reflection. Handlers return JSON-ready values (or RawJson text) and throw on failure: an RpcError
 * keeps its code, any other error becomes -32603 with the error message as data.
 */
import type { Logger } from '../logger.js';
import type { Query } from '../indexer/query.js';
import type { RpcEnvironment } from './environment.js';
import type { RpcOptions } from './options.js';
import type { ArgsOf, ParamSpec } from './params.js';

/** A JSON-RPC id: number or string (null/absent = notification). */
export type JsonRpcId = number | string;

/** Pre-serialised JSON spliced into the response as is (e.g. genesis with its exact app_state text). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Who holds subscriptions (CometBFT's pubsub clients): counted per remote address. */
export interface SubscriptionCounter {
  numClients(): number;
  numClientSubscriptions(remoteAddr: string): number;
  /** Register one subscription of `remoteAddr` under `key`; throws "already subscribed". */
  add(remoteAddr: string, key: string): void;
  /** Drop one subscription; false if there was none. */
  remove(remoteAddr: string, key: string): boolean;
}

/** What a websocket connection offers to subscribe/unsubscribe. */
export interface WsSubscriber {
  readonly remoteAddr: string;
  subscribe(query: Query, queryText: string, id: JsonRpcId): void;
  unsubscribe(query: Query): void;
  unsubscribeAll(): void;
}

export interface RouteContext {
  readonly options: RpcOptions;
  readonly logger: Logger;
  /** "ip:port" of the caller (the subscriber identity). */
  readonly remoteAddr: string;
  /** The server's listen address as tcp://host:port (node_info.other.rpc_address). */
  readonly listenAddress: string;
  readonly subscriptions: SubscriptionCounter;
  /** Set on websocket connections. */
  readonly ws?: WsSubscriber;
  /** The request's id (websocket subscriptions reply with it). */
  readonly requestId?: JsonRpcId;
  /** Per-server memo (genesis chunks, …). */
  readonly memo: Map<string, unknown>;
  /** Aborted when the server stops (long waits such as broadcast_tx_commit end early). */
  readonly shutdown: AbortSignal;
}

export interface Route {
  readonly name: string;
  readonly params: readonly ParamSpec[];
  /** subscribe/unsubscribe/unsubscribe_all: websocket only. */
  readonly wsOnly?: boolean;
  /** Cache-Control for GET/POST answers (CometBFT's Cacheable); a list = args that must be set. */
  readonly cacheable?: boolean | readonly string[];
  handler(env: RpcEnvironment, args: Record<string, unknown>, ctx: RouteContext): unknown;
}

/** Define a route with handler arguments typed from its parameter list. */
export function defineRoute<const P extends readonly ParamSpec[]>(route: {
  name: string;
  params: P;
  wsOnly?: boolean;
  cacheable?: boolean | readonly string[];
  handler: (env: RpcEnvironment, args: ArgsOf<P>, ctx: RouteContext) => unknown;
}): Route {
  return route as unknown as Route;
}
