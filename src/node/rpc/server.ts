/**
 * The CometBFT-compatible RPC server on node:http (rpc/jsonrpc/server):
 *
 *   POST /            JSON-RPC 2.0, one request or a batch (array in, array out); no id = notification
 *   GET  /<method>?…  URI parameters (ints bare, strings "quoted", bytes 0x-hex); id -1, errors HTTP 500
 *   GET  /            the list of endpoints (HTML)
 *   /websocket        every method plus subscribe / unsubscribe / unsubscribe_all
 *
 * Bad input never crashes or hangs the server: malformed JSON → -32700 (HTTP 500), unknown method →
 * -32601, unconvertible params → -32602, body over max_body_bytes → HTTP 413 (-32600), more than
 * max_request_batch_size requests → -32600, handler errors → -32603 with the error text as data.
 *
 *   const server = new RpcServer({ env, options: { laddr: 'tcp://127.0.0.1:26657' }, logger });
 *   const { url } = await server.start();
 *   …
 *   await server.stop();
 *
 * The HTTP side (connections, timeouts, CORS, bodies, websocket frames, kept abci_query answers) is
 * the front's (front.ts), on this thread or — with `thread` ([rpc] http_thread) — on a thread of its
 * own (threads/frontThread.ts, hostWorker.ts); this class answers what the front asks (`answerHttp`)
 * and holds the websocket sessions and their subscriptions, which the front's notes drive.
 */
import type { ConnectionStats } from '../limits/connections.js';
import { listenError } from '../limits/listen.js';
import { FrontThread, type Front } from '../threads/frontThread.js';
import { DEFAULT_KEPT_RPC_ANSWERS, internalRpcAnswer, KEPT_RPC_METHODS, keptRpcKey, MAX_KEPT_RPC_TEXT, RpcFront, type RpcAnswer, type RpcFrontOptions, type RpcNote, type RpcPush, type RpcRequest } from './front.js';
import type { AbciEvent } from '../abci/types.js';
import type { ConsensusEvent } from '../consensus/events.js';
import { nullLogger, type Logger } from '../logger.js';
import { TokendError } from '../../util/errors.js';
import { renderEventData } from './core/render.js';
import type { RpcEnvironment } from './environment.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, ParamError, toRpcErrorObject, type RpcErrorObject } from './errors.js';
import { defaultRpcOptions, parseListenAddress, type RpcOptions } from './options.js';
import { decodeJsonParams, decodeUriParams } from './params.js';
import { RawJson, type JsonRpcId, type Route, type RouteContext, type SubscriptionCounter } from './route.js';
import { routeTable } from './routes.js';
import { WsSession, type WsHost } from './websocket.js';
import { RpcHandlerError } from './core/common.js';
import { TurnSlicer } from '../../util/slices.js';

export interface RpcServerConfig {
  env: RpcEnvironment;
  options?: Partial<RpcOptions>;
  logger?: Logger;
  /** Extra routes (override built-ins of the same name). */
  routes?: readonly Route[];
  /**
   * [rpc] http_thread: the HTTP side (connections, parsing, websocket frames, kept answers) on a
   * thread of its own (threads/frontThread.ts). Needs `stateHeight` and `watchStateHeight`; default false.
   */
  thread?: boolean;
  /** The app's committed state height (the query router's): what kept abci_query answers belong to. Without it nothing is kept. */
  stateHeight?: () => number;
  watchStateHeight?: (listener: (height: number) => void) => () => void;
  /** [cache] rpc-responses: abci_query answers kept until the state height moves (0: none). */
  answerCacheEntries?: number;
}

export interface RpcAddress {
  host: string;
  port: number;
  /** http://host:port */
  url: string;
}

const CACHE_CONTROL = 'public, max-age=86400';
/**
 * JSON-RPC bodies handled in one event-loop turn, at most this long: the rest wait, in arrival
 * order, for the next turns, so a burst of broadcast_tx_sync bodies does not hold the loop for tens
 * of milliseconds while REST and gRPC requests wait.
 */
const ADMISSION_TURN_MS = 4;
const URI_REQUEST_ID = -1;
const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json' };
const CACHED_JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json', 'Cache-Control': CACHE_CONTROL };

/** Subscriptions per remote address (CometBFT pubsub clients). */
class SubscriptionRegistry implements SubscriptionCounter {
  private readonly clients = new Map<string, Set<string>>();

  numClients(): number {
    return this.clients.size;
  }

  numClientSubscriptions(remoteAddr: string): number {
    return this.clients.get(remoteAddr)?.size ?? 0;
  }

  add(remoteAddr: string, key: string): void {
    let set = this.clients.get(remoteAddr);
    if (!set) {
      set = new Set();
      this.clients.set(remoteAddr, set);
    }
    if (set.has(key)) throw new RpcHandlerError('already subscribed', 'ALREADY_EXISTS');
    set.add(key);
  }

  remove(remoteAddr: string, key: string): boolean {
    const set = this.clients.get(remoteAddr);
    if (!set || !set.delete(key)) return false;
    if (set.size === 0) this.clients.delete(remoteAddr);
    return true;
  }
}

/** A reply's text and whether it is a success (GET errors are HTTP 500; only successes are cacheable), with a success's result text. */
interface Reply {
  text: string;
  ok: boolean;
  result?: string;
}

function success(idJson: string, result: unknown): Reply {
  const body = result instanceof RawJson ? result.text : JSON.stringify(result === undefined ? null : result);
  return { text: `{"jsonrpc":"2.0","id":${idJson},"result":${body}}`, ok: true, result: body };
}

function failureReply(idJson: string, err: RpcErrorObject): Reply {
  return { text: errorText(idJson, err), ok: false };
}

function errorText(idJson: string, err: RpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(err)}}`;
}

function jsonAnswer(status: number, body: string, cacheable = false): RpcAnswer {
  return { status, body, headers: cacheable ? CACHED_JSON_HEADERS : JSON_HEADERS };
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The ABCI events behind an event's composite keys (same-type conditions then match within one event). */
function abciEventsOf(event: ConsensusEvent): readonly AbciEvent[] | undefined {
  switch (event.type) {
    case 'Tx':
      return event.data.result.events;
    case 'NewBlock':
      return event.data.resultFinalizeBlock.events;
    case 'NewBlockEvents':
      return event.data.events;
    default:
      return undefined;
  }
}

function cacheableWith(route: Route, args: Record<string, unknown>): boolean {
  const c = route.cacheable;
  if (!c) return false;
  if (c === true) return true;
  return c.every((name) => {
    const v = args[name];
    return v !== undefined && v !== 0 && v !== '' && v !== false;
  });
}

export class RpcServer implements WsHost {
  readonly options: RpcOptions;
  readonly logger: Logger;
  readonly subscriptions = new SubscriptionRegistry();
  private readonly env: RpcEnvironment;
  private readonly config: RpcServerConfig;
  private readonly routes: Map<string, Route>;
  private readonly memo = new Map<string, unknown>();
  /** Websocket sessions by the front's connection id. */
  private readonly sessions = new Map<number, WsSession>();
  private shutdown = new AbortController();
  private front: Front | undefined;
  private pushToFront: ((push: RpcPush) => void) | undefined;
  private bound: RpcAddress | undefined;
  private listenAddress = '';
  private busUnsubscribe: (() => void) | undefined;

  constructor(config: RpcServerConfig) {
    this.env = config.env;
    this.config = config;
    this.options = { ...defaultRpcOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.routes = routeTable(config.routes);
  }

  /** The bound address once started. */
  get address(): RpcAddress | undefined {
    return this.bound;
  }

  /** How many abci_query answers the front may keep (0 without a state height to check them against). */
  private get keptCapacity(): number {
    return this.config.stateHeight === undefined ? 0 : (this.config.answerCacheEntries ?? DEFAULT_KEPT_RPC_ANSWERS);
  }

  async start(): Promise<RpcAddress> {
    if (this.bound) return this.bound;
    if (this.shutdown.signal.aborted) this.shutdown = new AbortController();
    const { host, port } = parseListenAddress(this.options.laddr);
    const o = this.options;
    const frontOptions: RpcFrontOptions = {
      host,
      port,
      maxOpenConnections: o.maxOpenConnections,
      maxHeaderBytes: o.maxHeaderBytes,
      maxBodyBytes: o.maxBodyBytes,
      readTimeoutMs: o.readTimeoutMs,
      keepAliveTimeoutMs: o.keepAliveTimeoutMs,
      corsAllowedOrigins: o.corsAllowedOrigins,
      corsAllowedMethods: o.corsAllowedMethods,
      corsAllowedHeaders: o.corsAllowedHeaders,
      wsPingPeriodMs: o.wsPingPeriodMs,
      wsReadWaitMs: o.wsReadWaitMs,
      subscriptionBufferSize: o.subscriptionBufferSize,
      closeOnSlowClient: o.closeOnSlowClient,
      answerCacheEntries: this.keptCapacity,
    };
    const { stateHeight, watchStateHeight } = this.config;
    const onNote = (note: RpcNote): void => this.onNote(note);
    let front: Front;
    if (this.config.thread === true && stateHeight !== undefined && watchStateHeight !== undefined) {
      const spec = {
        label: 'RPC',
        kind: 'rpc' as const,
        backend: this.answerHttp,
        internalError: internalRpcAnswer,
        stateHeight,
        watchStateHeight,
        onNote: onNote as (note: unknown) => void,
        // Its websocket connections went with it: their sessions and subscriptions end here too.
        onThreadLost: () => {
          for (const session of [...this.sessions.values()]) session.onClosed();
        },
      };
      const thread = new FrontThread<RpcFrontOptions, RpcRequest, RpcAnswer>(frontOptions, spec, this.logger);
      this.pushToFront = (push) => thread.push(push);
      front = thread;
    } else {
      const local = new RpcFront(frontOptions, this.answerHttp, stateHeight ?? (() => -1), onNote, this.logger);
      this.pushToFront = (push) => local.push(push);
      front = local;
    }
    let address: { port: number };
    try {
      address = await front.start();
    } catch (err) {
      this.pushToFront = undefined;
      throw listenError('RPC', this.options.laddr, 'rpc.laddr', err);
    }
    this.front = front;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    this.listenAddress = `tcp://${shownHost}:${address.port}`;
    this.bound = { host, port: address.port, url: `http://${shownHost}:${address.port}` };
    this.logger.info('RPC server listening', { addr: this.listenAddress, thread: front instanceof FrontThread });
    return this.bound;
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.front?.connectionStats();
  }

  /** How many abci_query answers the front keeps now (as the other servers' cachedAnswers). */
  get cachedAnswers(): number {
    return this.front?.keptAnswers ?? 0;
  }

  async stop(): Promise<void> {
    const front = this.front;
    if (!front) return;
    this.front = undefined;
    this.bound = undefined;
    this.shutdown.abort();
    // Subscribers are told their subscriptions end (the front sends these frames before it stops).
    for (const session of [...this.sessions.values()]) session.close();
    this.busUnsubscribe?.();
    this.busUnsubscribe = undefined;
    await front.stop();
    this.pushToFront = undefined;
    this.logger.info('RPC server stopped', {});
  }

  // ---------------------------------------------------------------------------------------------
  // Dispatch

  private context(remoteAddr: string, ws?: WsSession, requestId?: JsonRpcId): RouteContext {
    return {
      options: this.options,
      logger: this.logger,
      remoteAddr,
      listenAddress: this.listenAddress,
      subscriptions: this.subscriptions,
      memo: this.memo,
      shutdown: this.shutdown.signal,
      ...(ws ? { ws } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
    };
  }

  private failure(route: string, err: unknown): RpcErrorObject {
    if (!(err instanceof TokendError)) this.logger.error('RPC handler failed', { method: route, err: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return toRpcErrorObject(err);
  }

  /**
   * Run a route. Synchronous handlers reply synchronously (so a websocket subscribe ack is written
   * before any event of that subscription).
   */
  private run(route: Route, args: Record<string, unknown>, idJson: string, ctx: RouteContext): Reply | Promise<Reply> {
    let result: unknown;
    try {
      result = route.handler(this.env, args, ctx);
    } catch (err) {
      return failureReply(idJson, this.failure(route.name, err));
    }
    if (!isThenable(result)) return success(idJson, result);
    return result.then(
      (value) => success(idJson, value),
      (err: unknown) => failureReply(idJson, this.failure(route.name, err)),
    );
  }

  /** One JSON-RPC request object (POST body item or websocket message). */
  private execute(request: { id: JsonRpcId; method: string; params: unknown }, remoteAddr: string, ws?: WsSession): { reply: Reply | Promise<Reply>; cacheable: boolean } {
    const idJson = JSON.stringify(request.id);
    const route = this.routes.get(request.method);
    if (!route || (route.wsOnly && !ws)) return { reply: failureReply(idJson, { code: METHOD_NOT_FOUND, message: 'Method not found' }), cacheable: false };
    let args: Record<string, unknown>;
    try {
      args = decodeJsonParams(route.params, request.params);
    } catch (err) {
      const obj = toRpcErrorObject(err);
      // CometBFT answers param errors on the websocket as -32603.
      return { reply: failureReply(idJson, ws && obj.code === INVALID_PARAMS ? { ...obj, code: INTERNAL_ERROR, message: 'Internal error' } : obj), cacheable: false };
    }
    return { reply: this.run(route, args, idJson, this.context(remoteAddr, ws, request.id)), cacheable: cacheableWith(route, args) };
  }

  dispatch(request: { id: JsonRpcId; method: string; params: unknown }, session: WsSession): string | Promise<string> {
    const { reply } = this.execute(request, session.remoteAddr, session);
    return isThenable(reply) ? reply.then((r) => r.text) : reply.text;
  }

  /** The height a keepable answer is read at (-1: not keepable). */
  private keepableAt(method: string): number {
    return this.keptCapacity > 0 && KEPT_RPC_METHODS.has(method) ? this.config.stateHeight!() : -1;
  }

  /** `keep` for a reply read at `at`, if it succeeded, is short and no block was committed meanwhile. */
  private keepOf(key: string, result: string | undefined, at: number): RpcAnswer['keep'] {
    if (at < 0 || result === undefined || this.config.stateHeight!() !== at) return undefined;
    if (key.length > MAX_KEPT_RPC_TEXT || result.length > MAX_KEPT_RPC_TEXT) return undefined;
    return { key, result, at };
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP: the front's requests

  /** The front's backend: one request → its answer. Never rejects. */
  readonly answerHttp = (request: RpcRequest): Promise<RpcAnswer> => {
    try {
      if ('tooLarge' in request) {
        return Promise.resolve({
          ...jsonAnswer(413, errorText('null', { code: INVALID_REQUEST, message: 'Invalid Request', data: 'error reading request body: http: request body too large' })),
          close: true,
        });
      }
      if ('post' in request) {
        if (request.post.length === 0) return Promise.resolve(this.endpoints(request.host));
        const body = request.post;
        return new Promise<RpcAnswer>((resolve) => this.admit(() => resolve(this.answerPost(body, request.remote))));
      }
      const answer = this.answerGet(request.get, request.remote, request.host);
      return isThenable(answer) ? answer.catch((err: unknown) => this.requestFailed(err)) : Promise.resolve(answer);
    } catch (err) {
      return Promise.resolve(this.requestFailed(err));
    }
  };

  private requestFailed(err: unknown): RpcAnswer {
    this.logger.error('RPC request failed', { err: err instanceof Error ? err.message : String(err) });
    return jsonAnswer(500, errorText('-1', toRpcErrorObject(err)));
  }

  /**
   * GET /ready (not a CometBFT method; for load balancers): 200 when the node commits and is not
   * catching up, else 503, with the reason either way.
   */
  private ready(): RpcAnswer {
    const report = this.env.health?.() ?? { healthy: true, ready: true, height: this.env.blockStore.height(), catchingUp: false };
    const body = JSON.stringify({ ready: report.ready, healthy: report.healthy, height: String(report.height), catching_up: report.catchingUp, ...(report.reason ? { reason: report.reason } : {}) });
    return { status: report.ready ? 200 : 503, body, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } };
  }

  private readonly admissionTurn = new TurnSlicer(ADMISSION_TURN_MS);
  private readonly admission: (() => void)[] = [];
  private admissionHead = 0;
  private admissionScheduled = false;

  /** Runs `work` now, or after the bodies already waiting once this turn has had its share. */
  private admit(work: () => void): void {
    if (this.admission.length === this.admissionHead && !this.admissionTurn.due()) {
      work();
      return;
    }
    this.admission.push(work);
    this.scheduleAdmission();
  }

  private scheduleAdmission(): void {
    if (this.admissionScheduled) return;
    this.admissionScheduled = true;
    setImmediate(() => {
      this.admissionScheduled = false;
      this.admissionTurn.due(); // starts this turn's clock, if no body has yet
      while (this.admissionHead < this.admission.length) {
        const work = this.admission[this.admissionHead]!;
        this.admission[this.admissionHead++] = undefined as never;
        work();
        if (this.admissionTurn.due()) break;
      }
      if (this.admissionHead === this.admission.length) {
        this.admission.length = 0;
        this.admissionHead = 0;
      } else this.scheduleAdmission();
    });
  }

  /** GET (or any method but POST on /): a URI call, /ready, the endpoint list, or 404. */
  private answerGet(url: string, remote: string, host: string): RpcAnswer | Promise<RpcAnswer> {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/') return this.endpoints(host);
    if (path === '/websocket') return { status: 400, body: 'Bad Request: /websocket needs a websocket upgrade\n', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
    if (path === '/ready') return this.ready();
    const route = this.routes.get(path.slice(1));
    if (!route) return { status: 404, body: '404 page not found\n', headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } };
    if (route.wsOnly) return jsonAnswer(404, errorText(String(URI_REQUEST_ID), { code: METHOD_NOT_FOUND, message: 'Method not found' }));
    let args: Record<string, unknown>;
    try {
      args = q < 0 ? {} : decodeUriParams(route.params, new URLSearchParams(url.slice(q + 1)));
    } catch (err) {
      const obj = err instanceof ParamError ? err.toJSON() : { code: INVALID_PARAMS, message: 'Invalid params', data: `error converting http params to arguments: ${(err as Error).message}` };
      return jsonAnswer(500, errorText(String(URI_REQUEST_ID), { ...obj, data: (obj.data ?? '').replace('json params', 'http params') }));
    }
    const at = this.keepableAt(route.name);
    const cacheable = cacheableWith(route, args);
    // GET errors are HTTP 500 (CometBFT); a kept GET answer is its whole body.
    const answer = (reply: Reply): RpcAnswer => {
      const out = jsonAnswer(reply.ok ? 200 : 500, reply.text, reply.ok && cacheable);
      const keep = reply.ok && !cacheable ? this.keepOf(keptRpcKey({ url }), reply.text, at) : undefined;
      return keep === undefined ? out : { ...out, keep };
    };
    const reply = this.run(route, args, String(URI_REQUEST_ID), this.context(remote));
    return isThenable(reply) ? reply.then(answer) : answer(reply);
  }

  private answerPost(body: string, remote: string): RpcAnswer | Promise<RpcAnswer> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (err) {
      return jsonAnswer(500, errorText('null', { code: PARSE_ERROR, message: 'Parse error. Invalid JSON', data: `error unmarshaling request: ${(err as Error).message}` }));
    }
    const isBatch = Array.isArray(parsed);
    const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    const maxBatch = this.options.maxRequestBatchSize;
    if (isBatch && maxBatch > 0 && items.length > maxBatch) {
      return jsonAnswer(200, errorText('null', { code: INVALID_REQUEST, message: 'Invalid Request', data: `batch request exceeds maximum (${maxBatch}) allowed number of requests` }));
    }
    // Like Go's json.Unmarshal into []RPCRequest: one malformed item fails the whole body.
    const requests: { id: JsonRpcId | undefined; method: string; params: unknown }[] = [];
    for (const item of items) {
      const problem = this.checkRequest(item);
      if (problem) return jsonAnswer(500, errorText('null', { code: PARSE_ERROR, message: 'Parse error. Invalid JSON', data: `error unmarshaling request: ${problem}` }));
      const obj = item as Record<string, unknown>;
      const rawId = obj['id'];
      const id = rawId === undefined || rawId === null ? undefined : typeof rawId === 'number' ? Math.trunc(rawId) : (rawId as string);
      requests.push({ id, method: (obj['method'] as string | undefined) ?? '', params: obj['params'] });
    }
    const finish = (replies: string[], cacheable: boolean): RpcAnswer => {
      // Only notifications: nothing to answer.
      if (replies.length === 0) return { status: 200, body: '', headers: {} };
      return jsonAnswer(200, isBatch ? `[${replies.join(',')}]` : replies[0]!, cacheable);
    };
    // Fast path: one request with a synchronous handler.
    const first = requests[0]!;
    if (!isBatch && first.id !== undefined) {
      const at = this.keepableAt(first.method);
      const { reply, cacheable } = this.execute(first as { id: JsonRpcId; method: string; params: unknown }, remote);
      const answer = (r: Reply): RpcAnswer => {
        const out = finish([r.text], cacheable && r.ok);
        const keep = r.ok && !cacheable ? this.keepOf(keptRpcKey(first), r.result, at) : undefined;
        return keep === undefined ? out : { ...out, keep };
      };
      return isThenable(reply) ? reply.then(answer).catch((err: unknown) => this.requestFailed(err)) : answer(reply);
    }
    return (async () => {
      const replies: string[] = [];
      let cacheable = true;
      for (const request of requests) {
        if (request.id === undefined) continue;
        const { reply, cacheable: c } = this.execute(request as { id: JsonRpcId; method: string; params: unknown }, remote);
        const r = isThenable(reply) ? await reply : reply;
        cacheable = cacheable && c && r.ok;
        replies.push(r.text);
      }
      return finish(replies, cacheable);
    })().catch((err: unknown) => this.requestFailed(err));
  }

  /** Why a request object cannot be decoded (undefined when fine). */
  private checkRequest(item: unknown): string | undefined {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      return `cannot unmarshal ${Array.isArray(item) ? 'array' : item === null ? 'null' : typeof item} into a request object`;
    }
    const obj = item as Record<string, unknown>;
    const id = obj['id'];
    if (id !== undefined && id !== null && typeof id !== 'number' && typeof id !== 'string') return `json-rpc ID (${JSON.stringify(id)}) is of unknown type`;
    const method = obj['method'];
    if (method !== undefined && method !== null && typeof method !== 'string') return 'method must be a string';
    return undefined;
  }

  /** The HTML list of endpoints (GET /, or a POST with no body). */
  private endpoints(host: string): RpcAnswer {
    const noArgs: string[] = [];
    const withArgs: string[] = [];
    for (const route of [...this.routes.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (route.params.length === 0) {
        noArgs.push(`<a href="//${host}/${route.name}">//${host}/${route.name}</a></br>`);
      } else {
        const q = route.params.map((p) => `${p.name}=_`).join('&amp;');
        withArgs.push(`<a href="//${host}/${route.name}?${q}">//${host}/${route.name}?${q}</a></br>`);
      }
    }
    const html = `<html><body><br>Available endpoints:<br>${noArgs.join('')}<br>Endpoints that require arguments:<br>${withArgs.join('')}</body></html>`;
    return { status: 200, body: html, headers: { 'Content-Type': 'text/html' } };
  }

  // ---------------------------------------------------------------------------------------------
  // Websocket: sessions driven by the front's notes

  private onNote(note: RpcNote): void {
    switch (note.ws) {
      case 'open': {
        if (this.shutdown.signal.aborted || this.pushToFront === undefined) return;
        const push = this.pushToFront;
        const id = note.id;
        const session = new WsSession(
          { send: (text, event) => push(event ? { ws: 'send', id, text, event } : { ws: 'send', id, text }), close: (code, reason) => push({ ws: 'close', id, code, reason }) },
          note.remote,
          this,
        );
        this.sessions.set(id, session);
        this.logger.debug('websocket connected', { remote: note.remote });
        return;
      }
      case 'message':
        this.sessions.get(note.id)?.onMessage(note.text);
        return;
      case 'slow':
        this.sessions.get(note.id)?.onSlow();
        return;
      case 'closed':
        this.sessions.get(note.id)?.onClosed();
        return;
    }
  }

  sessionClosed(session: WsSession): void {
    for (const [id, s] of this.sessions) {
      if (s === session) {
        this.sessions.delete(id);
        break;
      }
    }
    this.subscriptionsChanged();
  }

  /** Listen to the event bus only while some websocket holds a subscription. */
  subscriptionsChanged(): void {
    let any = false;
    for (const s of this.sessions.values()) {
      if (s.subs.size > 0) {
        any = true;
        break;
      }
    }
    if (any && !this.busUnsubscribe) this.busUnsubscribe = this.env.eventBus.subscribe((event) => this.fanOut(event));
    else if (!any && this.busUnsubscribe) {
      this.busUnsubscribe();
      this.busUnsubscribe = undefined;
    }
  }

  private fanOut(event: ConsensusEvent): void {
    let dataJson: string | undefined;
    let eventsJson: string | undefined;
    const abciEvents = abciEventsOf(event);
    for (const session of this.sessions.values()) {
      if (session.subs.size === 0) continue;
      for (const sub of session.subs.values()) {
        if (!sub.query.matchesEvent(event.events, abciEvents)) continue;
        if (dataJson === undefined) {
          try {
            dataJson = JSON.stringify(renderEventData(event));
          } catch (err) {
            this.logger.error('cannot render event', { event: event.type, err: (err as Error).message });
            return;
          }
          eventsJson = JSON.stringify(event.events);
        }
        session.deliver(`{"jsonrpc":"2.0","id":${sub.idJson},"result":{"query":${sub.queryJson},"data":${dataJson},"events":${eventsJson}}}`);
      }
    }
  }
}
