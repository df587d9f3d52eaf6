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
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBoundedBody } from '../limits/body.js';
import { ConnectionGuard, type ConnectionStats, type TrackedConnection } from '../limits/connections.js';
import { listenError } from '../limits/listen.js';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
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
 * order, for the next turns, so a burst of broadcast_tx_sync bodies read in one poll does not hold
 * the loop for tens of milliseconds while REST and gRPC requests wait.
 */
const ADMISSION_TURN_MS = 4;
/** Bodies from this size are encoded to bytes once (instead of measured, then encoded again on write). */
const BUFFERED_BODY_CHARS = 16 * 1024;
const URI_REQUEST_ID = -1;

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

/** A reply's text and whether it is a success (GET errors are HTTP 500; only successes are cacheable). */
interface Reply {
  text: string;
  ok: boolean;
}

function success(idJson: string, result: unknown): Reply {
  const body = result instanceof RawJson ? result.text : JSON.stringify(result === undefined ? null : result);
  return { text: `{"jsonrpc":"2.0","id":${idJson},"result":${body}}`, ok: true };
}

function failureReply(idJson: string, err: RpcErrorObject): Reply {
  return { text: errorText(idJson, err), ok: false };
}

function errorText(idJson: string, err: RpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(err)}}`;
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

function remoteAddress(req: IncomingMessage): string {
  const socket = req.socket;
  return `${socket.remoteAddress ?? ''}:${socket.remotePort ?? 0}`;
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
  private readonly routes: Map<string, Route>;
  private readonly memo = new Map<string, unknown>();
  private readonly sessions = new Set<WsSession>();
  private shutdown = new AbortController();
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private bound: RpcAddress | undefined;
  private listenAddress = '';
  private busUnsubscribe: (() => void) | undefined;
  private guard: ConnectionGuard | undefined;
  private readonly tracked = new WeakMap<Socket, TrackedConnection>();

  constructor(config: RpcServerConfig) {
    this.env = config.env;
    this.options = { ...defaultRpcOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.routes = routeTable(config.routes);
  }

  /** The bound address once started. */
  get address(): RpcAddress | undefined {
    return this.bound;
  }

  async start(): Promise<RpcAddress> {
    if (this.bound) return this.bound;
    if (this.shutdown.signal.aborted) this.shutdown = new AbortController();
    const { host, port } = parseListenAddress(this.options.laddr);
    const server = createServer(
      {
        maxHeaderSize: this.options.maxHeaderBytes,
        keepAliveTimeout: this.options.keepAliveTimeoutMs,
        requestTimeout: this.options.readTimeoutMs,
        headersTimeout: Math.min(this.options.readTimeoutMs, 60_000),
        // How often node:http enforces the header/request timeouts (default 30 s).
        connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(this.options.readTimeoutMs / 4))),
      },
      (req, res) => {
        const tracked = this.tracked.get(req.socket);
        if (tracked) {
          tracked.busy();
          res.once('close', () => tracked.idle());
        }
        this.onRequest(req, res);
      },
    );
    // max_open_connections with idle eviction (limits/connections.ts), not server.maxConnections:
    // a flood of idle sockets must not lock out a new client.
    const guard = new ConnectionGuard('rpc', { maxConnections: this.options.maxOpenConnections, idleTimeoutMs: this.options.keepAliveTimeoutMs }, this.logger);
    this.guard = guard;
    guard.attach(server, (socket, tracked) => this.tracked.set(socket, tracked));
    const wss = new WebSocketServer({ noServer: true, maxPayload: this.options.maxBodyBytes, perMessageDeflate: false });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.tracked.get(req.socket)?.pin();
      this.onUpgrade(wss, req, socket, head);
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => reject(listenError('RPC', this.options.laddr, 'rpc.laddr', err));
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    server.on('error', (err) => this.logger.error('RPC server error', { err: err.message }));
    this.server = server;
    this.wss = wss;
    const addr = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    this.listenAddress = `tcp://${shownHost}:${addr.port}`;
    this.bound = { host, port: addr.port, url: `http://${shownHost}:${addr.port}` };
    this.logger.info('RPC server listening', { addr: this.listenAddress });
    return this.bound;
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.bound = undefined;
    this.guard?.close();
    this.shutdown.abort();
    for (const session of [...this.sessions]) session.close();
    this.busUnsubscribe?.();
    this.busUnsubscribe = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    this.wss?.close();
    await closed;
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

  // ---------------------------------------------------------------------------------------------
  // HTTP

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.route(req, res);
    } catch (err) {
      this.logger.error('RPC request failed', { err: (err as Error).message });
      if (!res.headersSent) this.write(res, 500, errorText('-1', { code: INTERNAL_ERROR, message: 'Internal error', data: (err as Error).message }));
    }
  }

  /**
   * GET /ready (not a CometBFT method; for load balancers): 200 when the node commits and is not
   * catching up, else 503, with the reason either way.
   */
  private writeReady(res: ServerResponse): void {
    const report = this.env.health?.() ?? { healthy: true, ready: true, height: this.env.blockStore.height(), catchingUp: false };
    const body = JSON.stringify({ ready: report.ready, healthy: report.healthy, height: String(report.height), catching_up: report.catchingUp, ...(report.reason ? { reason: report.reason } : {}) });
    res.writeHead(report.ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(body);
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

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (this.options.corsAllowedOrigins.length > 0 && this.applyCors(req, res)) return;
    if (path === '/') {
      if (req.method === 'POST') {
        this.readBody(req, res, (body) => this.admit(() => this.onJsonRpc(body, req, res)));
      } else {
        req.resume();
        this.writeEndpoints(req, res);
      }
      return;
    }
    req.resume();
    if (path === '/websocket') {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad Request: /websocket needs a websocket upgrade\n');
      return;
    }
    if (path === '/ready') {
      this.writeReady(res);
      return;
    }
    const route = this.routes.get(path.slice(1));
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
      return;
    }
    if (route.wsOnly) {
      this.write(res, 404, errorText(String(URI_REQUEST_ID), { code: METHOD_NOT_FOUND, message: 'Method not found' }));
      return;
    }
    let args: Record<string, unknown>;
    try {
      args = q < 0 ? {} : decodeUriParams(route.params, new URLSearchParams(url.slice(q + 1)));
    } catch (err) {
      const obj = err instanceof ParamError ? err.toJSON() : { code: INVALID_PARAMS, message: 'Invalid params', data: `error converting http params to arguments: ${(err as Error).message}` };
      this.write(res, 500, errorText(String(URI_REQUEST_ID), { ...obj, data: (obj.data ?? '').replace('json params', 'http params') }));
      return;
    }
    const reply = this.run(route, args, String(URI_REQUEST_ID), this.context(remoteAddress(req)));
    const cacheable = cacheableWith(route, args);
    if (!isThenable(reply)) this.writeUriReply(res, reply, cacheable);
    else reply.then((r) => this.writeUriReply(res, r, cacheable)).catch((err: unknown) => this.onRequestError(res, err));
  }

  /** GET errors are HTTP 500 (CometBFT). */
  private writeUriReply(res: ServerResponse, reply: Reply, cacheable: boolean): void {
    this.write(res, reply.ok ? 200 : 500, reply.text, reply.ok && cacheable);
  }

  private onRequestError(res: ServerResponse, err: unknown): void {
    this.logger.error('RPC request failed', { err: (err as Error).message });
    if (!res.headersSent) this.write(res, 500, errorText('-1', toRpcErrorObject(err)));
  }

  private write(res: ServerResponse, status: number, body: string, cacheable = false): void {
    if (res.writableEnded || res.destroyed) return;
    const payload = body.length >= BUFFERED_BODY_CHARS ? Buffer.from(body, 'utf8') : body;
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    res.writeHead(
      status,
      cacheable
        ? { 'Content-Type': 'application/json', 'Content-Length': length, 'Cache-Control': CACHE_CONTROL }
        : { 'Content-Type': 'application/json', 'Content-Length': length },
    );
    res.end(payload);
  }

  private readBody(req: IncomingMessage, res: ServerResponse, done: (body: Buffer) => void): void {
    readBoundedBody(req, this.options.maxBodyBytes, {
      done,
      tooLarge: () => {
        res.setHeader('Connection', 'close');
        this.write(res, 413, errorText('null', { code: INVALID_REQUEST, message: 'Invalid Request', data: 'error reading request body: http: request body too large' }));
      },
      error: (err) => this.logger.debug('error reading RPC request body', { err: err.message }),
    });
  }

  private onJsonRpc(body: Buffer, req: IncomingMessage, res: ServerResponse): void {
    if (body.length === 0) {
      this.writeEndpoints(req, res);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (err) {
      this.write(res, 500, errorText('null', { code: PARSE_ERROR, message: 'Parse error. Invalid JSON', data: `error unmarshaling request: ${(err as Error).message}` }));
      return;
    }
    const isBatch = Array.isArray(parsed);
    const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    const maxBatch = this.options.maxRequestBatchSize;
    if (isBatch && maxBatch > 0 && items.length > maxBatch) {
      this.write(res, 200, errorText('null', { code: INVALID_REQUEST, message: 'Invalid Request', data: `batch request exceeds maximum (${maxBatch}) allowed number of requests` }));
      return;
    }
    // Like Go's json.Unmarshal into []RPCRequest: one malformed item fails the whole body.
    const requests: { id: JsonRpcId | undefined; method: string; params: unknown }[] = [];
    for (const item of items) {
      const problem = this.checkRequest(item);
      if (problem) {
        this.write(res, 500, errorText('null', { code: PARSE_ERROR, message: 'Parse error. Invalid JSON', data: `error unmarshaling request: ${problem}` }));
        return;
      }
      const obj = item as Record<string, unknown>;
      const rawId = obj['id'];
      const id = rawId === undefined || rawId === null ? undefined : typeof rawId === 'number' ? Math.trunc(rawId) : (rawId as string);
      requests.push({ id, method: (obj['method'] as string | undefined) ?? '', params: obj['params'] });
    }
    const remote = remoteAddress(req);
    const finish = (replies: string[], cacheable: boolean): void => {
      if (replies.length === 0) {
        // Only notifications: nothing to answer.
        res.writeHead(200, { 'Content-Length': 0 });
        res.end();
        return;
      }
      this.write(res, 200, isBatch ? `[${replies.join(',')}]` : replies[0]!, cacheable);
    };
    // Fast path: one request with a synchronous handler.
    if (!isBatch && requests[0]!.id !== undefined) {
      const { reply, cacheable } = this.execute(requests[0] as { id: JsonRpcId; method: string; params: unknown }, remote);
      if (!isThenable(reply)) finish([reply.text], cacheable && reply.ok);
      else reply.then((r) => finish([r.text], cacheable && r.ok)).catch((err: unknown) => this.onRequestError(res, err));
      return;
    }
    void (async () => {
      const replies: string[] = [];
      let cacheable = true;
      for (const request of requests) {
        if (request.id === undefined) continue;
        const { reply, cacheable: c } = this.execute(request as { id: JsonRpcId; method: string; params: unknown }, remote);
        const r = isThenable(reply) ? await reply : reply;
        cacheable = cacheable && c && r.ok;
        replies.push(r.text);
      }
      finish(replies, cacheable);
    })().catch((err: unknown) => this.onRequestError(res, err));
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

  private writeEndpoints(req: IncomingMessage, res: ServerResponse): void {
    const host = req.headers.host ?? '';
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
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) });
    res.end(html);
  }

  /** CORS (cors_allowed_*); true when the request was a preflight and has been answered. */
  private applyCors(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const allowed = this.options.corsAllowedOrigins;
    if (origin && (allowed.includes('*') || allowed.includes(origin))) {
      res.setHeader('Access-Control-Allow-Origin', allowed.includes('*') ? '*' : origin);
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': this.options.corsAllowedMethods.join(', '),
        'Access-Control-Allow-Headers': this.options.corsAllowedHeaders.join(', '),
        'Access-Control-Max-Age': '600',
      });
      res.end();
      req.resume();
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Websocket

  private onUpgrade(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path !== '/websocket' || this.shutdown.signal.aborted) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const session = new WsSession(ws, remoteAddress(req), this);
      this.sessions.add(session);
      this.logger.debug('websocket connected', { remote: session.remoteAddr });
    });
  }

  sessionClosed(session: WsSession): void {
    this.sessions.delete(session);
    this.subscriptionsChanged();
  }

  /** Listen to the event bus only while some websocket holds a subscription. */
  subscriptionsChanged(): void {
    let any = false;
    for (const s of this.sessions) {
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
    for (const session of this.sessions) {
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

