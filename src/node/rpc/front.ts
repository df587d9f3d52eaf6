/**
 * The CometBFT RPC's HTTP side: the listening server, the connection cap (limits/connections.ts),
 * the read and idle timeouts, CORS, request bodies within max_body_bytes, the websocket
 * connections on /websocket (their frames, pings and slow clients), and the answers of state reads
 * kept until the app's state height moves. What a request means is the backend's
 * (RpcServer.answerHttp; websocket frames go to RpcServer's sessions as notes): it gets an
 * `RpcRequest` and gives back an `RpcAnswer`, plain data, so the front can run on the main thread
 * beside it or on a thread of its own ([rpc] http_thread; threads/frontThread.ts, hostWorker.ts).
 *
 * A single `abci_query` (POST, or GET /abci_query?…) that the backend answered before at the
 * current state height is answered here, with the request's own id, without the backend. The
 * backend says which answers may be kept (`keep`). This file imports nothing of the node beyond the
 * connection guard and the body reader, so the thread loads little.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { readBoundedBody } from '../limits/body.js';
import { ConnectionGuard, type ConnectionStats, type TrackedConnection } from '../limits/connections.js';
import { listenOn, shownHost } from '../limits/listen.js';
import { nullLogger, type Logger } from '../logger.js';
import type { Front, FrontAddress } from '../threads/frontThread.js';
import { KeptAnswers } from '../threads/keptAnswers.js';

/** Methods whose answer depends only on their params and the app's committed state. */
export const KEPT_RPC_METHODS: ReadonlySet<string> = new Set(['abci_query']);
/** Longer params (a big simulate's tx) or results are not kept. */
export const MAX_KEPT_RPC_TEXT = 64 * 1024;
/** Answers kept by default ([cache] rpc-responses). */
export const DEFAULT_KEPT_RPC_ANSWERS = 10_000;
/** Bodies from this size are written as bytes encoded once (instead of measured, then encoded again). */
const BUFFERED_BODY_CHARS = 16 * 1024;

/** Whether a JSON-RPC body may call a kept method (a cheap test before it is parsed). */
function mayNameKeptMethod(body: string): boolean {
  for (const method of KEPT_RPC_METHODS) if (body.includes(method)) return true;
  return false;
}

/** The key a kept answer is found by: a POST's method and params (JSON), or a GET's URL. */
export function keptRpcKey(request: { method: string; params: unknown } | { url: string }): string {
  return 'url' in request ? `GET ${request.url}` : `${request.method}\n${JSON.stringify(request.params ?? null)}`;
}

export interface RpcFrontOptions {
  host: string;
  port: number;
  maxOpenConnections: number;
  maxHeaderBytes: number;
  maxBodyBytes: number;
  readTimeoutMs: number;
  keepAliveTimeoutMs: number;
  corsAllowedOrigins: string[];
  corsAllowedMethods: string[];
  corsAllowedHeaders: string[];
  wsPingPeriodMs: number;
  wsReadWaitMs: number;
  /** Event frames a websocket may have unsent before its client counts as slow. */
  subscriptionBufferSize: number;
  /** A slow client's subscriptions are cancelled (by the backend) rather than its events dropped. */
  closeOnSlowClient: boolean;
  /** [cache] rpc-responses: answers kept (0: none). */
  answerCacheEntries: number;
}

/** A request as the backend sees it. */
export type RpcRequest =
  /** POST / with its body (UTF-8). */
  | { post: string; remote: string; host: string }
  /** Any other method: the path and query string as sent. */
  | { get: string; remote: string; host: string }
  /** A POST body over max_body_bytes. */
  | { tooLarge: true };

/** The backend's answer. */
export interface RpcAnswer {
  status: number;
  body: string;
  /** Headers besides Content-Length (Content-Type, Cache-Control, …). */
  headers: Record<string, string>;
  /** Close the connection after the answer. */
  close?: boolean;
  /** A result (POST: the JSON-RPC result; GET: the whole body) the front may keep while the state height is `at`. */
  keep?: { key: string; result: string; at: number };
}

export type RpcBackendCall = (request: RpcRequest) => Promise<RpcAnswer>;

const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json' };

/** The answer to a request whose backend failed (a bug: answerHttp turns errors into answers). */
export function internalRpcAnswer(err: unknown): RpcAnswer {
  const data = err instanceof Error ? err.message : String(err);
  return { status: 500, headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data } }) };
}

/** What the front tells the backend about websocket connections. */
export type RpcNote =
  | { ws: 'open'; id: number; remote: string }
  | { ws: 'message'; id: number; text: string }
  | { ws: 'closed'; id: number }
  /** The client has subscriptionBufferSize event frames unsent (told once until it catches up). */
  | { ws: 'slow'; id: number };

/** What the backend tells the front: a frame to send (`event`: may be dropped for a slow client), or to close. */
export type RpcPush = { ws: 'send'; id: number; text: string; event?: boolean } | { ws: 'close'; id: number; code: number; reason: string };

interface WsConnection {
  socket: WebSocket;
  unsent: number;
  lastSeen: number;
  heartbeat: NodeJS.Timeout;
  slowTold: boolean;
  dropped: number;
  remote: string;
}

function remoteOf(socket: Socket): string {
  return `${socket.remoteAddress ?? ''}:${socket.remotePort ?? 0}`;
}

export class RpcFront implements Front {
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private guard: ConnectionGuard | undefined;
  private readonly tracked = new WeakMap<Socket, TrackedConnection>();
  private readonly connections = new Map<number, WsConnection>();
  private nextWsId = 1;
  private stopping = false;
  /** Kept answers (POST: the result; GET: the body), by keptRpcKey. */
  private readonly kept: KeptAnswers<string>;

  /**
   * `stateHeight` is the height kept answers belong to now (a negative value: nothing is kept);
   * `note` carries websocket traffic to the backend; `changed` is called after a connection comes
   * or goes and after the kept answers change.
   */
  constructor(
    readonly options: RpcFrontOptions,
    private readonly backend: RpcBackendCall,
    stateHeight: () => number,
    private readonly note: (note: RpcNote) => void,
    private readonly logger: Logger = nullLogger,
    private readonly changed?: () => void,
  ) {
    this.kept = new KeptAnswers(options.answerCacheEntries, stateHeight, changed);
  }

  async start(): Promise<FrontAddress> {
    if (this.server !== undefined) throw new Error('RPC server already started');
    const o = this.options;
    const server = createServer(
      {
        maxHeaderSize: o.maxHeaderBytes,
        keepAliveTimeout: o.keepAliveTimeoutMs,
        requestTimeout: o.readTimeoutMs,
        headersTimeout: Math.min(o.readTimeoutMs, 60_000),
        // How often node:http enforces the header/request timeouts (default 30 s).
        connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(o.readTimeoutMs / 4))),
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
    const guard = new ConnectionGuard('rpc', { maxConnections: o.maxOpenConnections, idleTimeoutMs: o.keepAliveTimeoutMs }, this.logger);
    this.guard = guard;
    guard.attach(server, (socket, tracked) => {
      this.tracked.set(socket, tracked);
      this.changed?.();
      socket.once('close', () => this.changed?.());
    });
    const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxBodyBytes, perMessageDeflate: false });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.tracked.get(req.socket)?.pin();
      this.onUpgrade(wss, req, socket, head);
    });
    const bound = await listenOn(server, o.port, o.host);
    server.on('error', (err: Error) => this.logger.error('RPC server error', { err: err.message }));
    this.server = server;
    this.wss = wss;
    return { host: o.host, port: bound.port, url: `http://${shownHost(o.host)}:${bound.port}` };
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
  }

  /** How many answers are kept now (at most answerCacheEntries). */
  get keptAnswers(): number {
    return this.kept.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    this.stopping = true;
    this.guard?.close();
    for (const connection of this.connections.values()) connection.socket.terminate();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    this.wss?.close();
    await closed;
  }

  // ------------------------------------------------------------------------------ HTTP

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (this.options.corsAllowedOrigins.length > 0 && this.applyCors(req, res)) return;
    const remote = remoteOf(req.socket);
    const host = req.headers.host ?? '';
    const url = req.url ?? '/';
    if (req.method !== 'POST' || !(url === '/' || url.startsWith('/?'))) {
      req.resume();
      const kept = this.lookupGet(url);
      if (kept !== undefined) this.write(res, { status: 200, headers: JSON_HEADERS, body: kept });
      else this.ask({ get: url, remote, host }, res);
      return;
    }
    readBoundedBody(req, this.options.maxBodyBytes, {
      done: (raw) => {
        const body = raw.toString('utf8');
        const kept = this.lookupPost(body);
        if (kept !== undefined) this.write(res, { status: 200, headers: JSON_HEADERS, body: kept });
        else this.ask({ post: body, remote, host }, res);
      },
      tooLarge: () => this.ask({ tooLarge: true }, res),
      error: () => res.destroy(),
    });
  }

  private ask(request: RpcRequest, res: ServerResponse): void {
    this.backend(request).then(
      (answer) => {
        this.keep(answer);
        this.write(res, answer);
      },
      (err: unknown) => {
        this.logger.error('RPC request failed', { err: err instanceof Error ? err.message : String(err) });
        this.write(res, internalRpcAnswer(err));
      },
    );
  }

  private write(res: ServerResponse, answer: RpcAnswer): void {
    if (res.writableEnded || res.destroyed) return;
    const body = answer.body;
    const payload = body.length >= BUFFERED_BODY_CHARS ? Buffer.from(body, 'utf8') : body;
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (answer.close === true) res.setHeader('Connection', 'close');
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': length });
    res.end(payload);
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

  // ------------------------------------------------------------------------------ kept answers

  /** The kept answer of GET `url` (an abci_query by URI). */
  private lookupGet(url: string): string | undefined {
    if (!url.startsWith('/abci_query') || url.length > MAX_KEPT_RPC_TEXT || !this.kept.any()) return undefined;
    return this.kept.get(keptRpcKey({ url }));
  }

  /** The answer to `body` from the kept answers, when it is one request (not a notification) for a kept method and params. */
  private lookupPost(body: string): string | undefined {
    // Only a body naming a kept method is parsed here (not each of a broadcast flood's).
    if (body.length > MAX_KEPT_RPC_TEXT + 1024 || !this.kept.any() || !mayNameKeptMethod(body)) return undefined;
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return undefined;
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method !== 'string' || !KEPT_RPC_METHODS.has(method)) return undefined;
    // The backend's ids: a number truncated, a string as is; anything else is its to answer.
    let idJson: string;
    if (typeof id === 'number' && Number.isFinite(id)) idJson = JSON.stringify(Math.trunc(id));
    else if (typeof id === 'string') idJson = JSON.stringify(id);
    else return undefined;
    const result = this.kept.get(keptRpcKey({ method, params }));
    return result === undefined ? undefined : `{"jsonrpc":"2.0","id":${idJson},"result":${result}}`;
  }

  /** Keeps a result the backend allows to be kept, if the state height has not moved meanwhile. */
  private keep(answer: RpcAnswer): void {
    const keep = answer.keep;
    if (keep === undefined || keep.key.length > MAX_KEPT_RPC_TEXT || keep.result.length > MAX_KEPT_RPC_TEXT) return;
    this.kept.set(keep.key, keep.result, keep.at);
  }

  // ------------------------------------------------------------------------------ websocket

  private onUpgrade(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path !== '/websocket' || this.stopping) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const remote = remoteOf(req.socket);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => this.onWebSocket(ws, remote));
  }

  private onWebSocket(ws: WebSocket, remote: string): void {
    const id = this.nextWsId++;
    const o = this.options;
    const connection: WsConnection = {
      socket: ws,
      unsent: 0,
      lastSeen: Date.now(),
      slowTold: false,
      dropped: 0,
      remote,
      heartbeat: setInterval(() => {
        // A client silent (no frame, no pong) for longer than the read wait is dropped.
        if (Date.now() - connection.lastSeen > o.wsReadWaitMs + o.wsPingPeriodMs) {
          this.logger.info('websocket client stopped answering pings; closing', { remote });
          ws.terminate();
          return;
        }
        try {
          ws.ping();
        } catch {
          // closing
        }
      }, o.wsPingPeriodMs),
    };
    connection.heartbeat.unref();
    this.connections.set(id, connection);
    this.note({ ws: 'open', id, remote });
    ws.on('message', (data, isBinary) => {
      connection.lastSeen = Date.now();
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
      if (isBinary) this.logger.debug('binary websocket message treated as text', { remote });
      this.note({ ws: 'message', id, text });
    });
    ws.on('pong', () => {
      connection.lastSeen = Date.now();
    });
    ws.on('close', () => {
      clearInterval(connection.heartbeat);
      if (this.connections.delete(id)) this.note({ ws: 'closed', id });
    });
    ws.on('error', (err) => this.logger.debug('websocket error', { remote, err: err.message }));
  }

  /** A push from the backend: a frame to send, or a connection to close. */
  push(push: RpcPush): void {
    const connection = this.connections.get(push.id);
    if (connection === undefined) return;
    if (push.ws === 'close') {
      this.connections.delete(push.id);
      clearInterval(connection.heartbeat);
      connection.socket.close(push.code, push.reason);
      return;
    }
    if (push.event === true && connection.unsent >= this.options.subscriptionBufferSize) {
      // A client that does not read its events: the backend decides (cancel or drop); told once
      // until it has caught up.
      if (!connection.slowTold) {
        connection.slowTold = true;
        this.note({ ws: 'slow', id: push.id });
      }
      if (!this.options.closeOnSlowClient && connection.dropped++ % 1000 === 0) this.logger.warn('websocket client too slow; dropping events', { remote: connection.remote, dropped: connection.dropped });
      return;
    }
    connection.unsent++;
    connection.socket.send(push.text, () => {
      if (--connection.unsent === 0) connection.slowTold = false;
    });
  }
}
