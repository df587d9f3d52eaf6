/**
 * The REST gateway's HTTP side: the listening server, the connection cap (limits/connections.ts),
 * the read/write timeouts, CORS preflights, request bodies within `maxBodyBytes`, and the answers
 * kept per URL until the app's state height moves. What a request means is the backend's
 * (ApiServer.handle): it gets a `RestRequest` and gives back a `RestAnswer`, plain data, so the
 * front can run on the main thread beside it or on a thread of its own (threads/frontThread.ts, hostWorker.ts).
 *
 *   const front = new RestFront(options, (request) => api.handle(request), () => stateHeight, logger);
 *   const { url } = await front.start();
 *
 * A GET without a height header whose URL the backend answered before at the current state height
 * is answered here, without the backend: the answer of an app query at the latest height stays
 * the same until a block is committed. The backend says which answers may be kept (`cacheAt`).
 * This file imports nothing of the node beyond the connection guard, so the thread loads little.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readBoundedBody } from '../limits/body.js';
import { ConnectionGuard, type ConnectionStats, type TrackedConnection } from '../limits/connections.js';
import { listenOn, shownHost } from '../limits/listen.js';
import { nullLogger, type Logger } from '../logger.js';
import type { Front, FrontAddress } from '../threads/frontThread.js';
import { KeptAnswers } from '../threads/keptAnswers.js';
import type { ApiOptions } from './options.js';

export const HEIGHT_HEADER = 'x-cosmos-block-height';
export const GATEWAY_HEIGHT_HEADER = 'grpc-metadata-x-cosmos-block-height';
export const JSON_TYPE = 'application/json';

/** A request as the backend sees it. */
export interface RestRequest {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  /** The raw value of x-cosmos-block-height (or grpc-metadata-x-cosmos-block-height), when sent. */
  height?: string;
  /** The body of a request that is not a GET, read whole. */
  body?: Uint8Array;
  /** The body was larger than maxBodyBytes: its declared length, or -1 when found while reading it. */
  bodyTooLarge?: number;
}

/** The backend's answer. */
export interface RestAnswer {
  status: number;
  body: string;
  /** Default application/json. */
  contentType?: string;
  /** The value of the height headers (none when undefined). */
  height?: number;
  /** The same URL may be answered with this again while the app's state height is `cacheAt`. */
  cacheAt?: number;
  /** Close the connection after the answer. */
  close?: boolean;
}

export type RestBackend = (request: RestRequest) => Promise<RestAnswer>;

/**
 * The answer to a request whose backend failed (a bug: ApiServer.handle turns every error into an
 * answer): the gateway's error body with gRPC's Internal code, written here so the thread need not
 * load the error module.
 */
export function internalErrorAnswer(err: unknown): RestAnswer {
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, body: JSON.stringify({ code: 13, message, details: [], error: message }) };
}

/** ApiOptions with the address already parsed. */
export type RestFrontOptions = Omit<ApiOptions, 'address'> & { host: string; port: number };

export class RestFront implements Front {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private guard: ConnectionGuard | undefined;
  private readonly tracked = new WeakMap<Socket, TrackedConnection>();
  /** Kept answers of GETs, by URL. */
  private readonly answers: KeptAnswers<string>;

  /**
   * `stateHeight` is the app's committed state height now (a negative value: nothing is kept);
   * `changed` is called after a connection comes or goes and after the kept answers change.
   */
  constructor(
    readonly options: RestFrontOptions,
    private readonly backend: RestBackend,
    stateHeight: () => number,
    private readonly logger: Logger = nullLogger,
    private readonly changed?: () => void,
  ) {
    this.answers = new KeptAnswers(options.answerCacheEntries, stateHeight, changed);
  }

  async start(): Promise<FrontAddress> {
    if (this.server !== undefined) throw new Error('API server already started');
    const options = this.options;
    const server = createServer(
      {
        keepAliveTimeout: options.keepAliveTimeoutMs,
        requestTimeout: options.requestTimeoutMs,
        headersTimeout: Math.min(options.requestTimeoutMs > 0 ? options.requestTimeoutMs : 60_000, 60_000),
        connectionsCheckingInterval: 1_000,
      },
      (req, res) => {
        const tracked = this.tracked.get(req.socket);
        if (tracked) {
          tracked.busy();
          res.once('close', () => tracked.idle());
        }
        // rpc-write-timeout: the whole answer must be written within it (0 = no limit).
        if (options.writeTimeoutMs > 0) res.setTimeout(options.writeTimeoutMs, () => res.destroy());
        this.onRequest(req, res);
      },
    );
    // max-open-connections with idle eviction (limits/connections.ts), not server.maxConnections:
    // a flood of idle sockets must not lock out a new client.
    const guard = new ConnectionGuard('api', { maxConnections: options.maxOpenConnections, idleTimeoutMs: options.keepAliveTimeoutMs }, this.logger);
    this.guard = guard;
    guard.attach(server, (socket, tracked) => {
      this.tracked.set(socket, tracked);
      this.sockets.add(socket);
      this.changed?.();
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.changed?.();
      });
    });
    const address = await listenOn(server, options.port, options.host);
    // After listening, errors (EMFILE on accept under a descriptor flood, …) are logged, never thrown.
    server.on('error', (err: Error) => this.logger.warn('REST server error', { err: err.message }));
    this.server = server;
    return { host: address.address, port: address.port, url: `http://${shownHost(address)}:${address.port}` };
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
  }

  /** How many answers are kept now (at most answerCacheEntries). */
  get keptAnswers(): number {
    return this.answers.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    this.guard?.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests in flight get a moment to finish; then the connections are cut.
    const timer = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, 1000);
    await closed;
    clearTimeout(timer);
  }

  // ------------------------------------------------------------------------------ requests

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    if (this.options.enableUnsafeCors) {
      res.setHeader('access-control-allow-origin', '*');
      if (method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
          'access-control-max-age': '600',
        });
        res.end();
        return;
      }
    }
    const url = req.url ?? '/';
    const raw = req.headers[HEIGHT_HEADER] ?? req.headers[GATEWAY_HEIGHT_HEADER];
    const request: RestRequest = { method, url };
    if (raw !== undefined) request.height = Array.isArray(raw) ? (raw[0] ?? '') : raw;
    if (method === 'GET' || method === 'HEAD') {
      if (raw === undefined && method === 'GET') {
        const kept = this.answers.get(url);
        if (kept !== undefined) {
          this.write(res, { status: 200, body: kept, height: this.answers.sync() });
          return;
        }
      }
      this.ask(request, res);
      return;
    }
    this.readBody(req, request, res);
  }

  private ask(request: RestRequest, res: ServerResponse): void {
    this.backend(request).then(
      (answer) => {
        this.keep(request, answer);
        this.write(res, answer);
      },
      (err: unknown) => {
        this.logger.error('REST request failed', { url: request.url, err: err instanceof Error ? err.message : String(err) });
        this.write(res, internalErrorAnswer(err));
      },
    );
  }

  /** Keeps a GET's answer the backend allows to be kept, if the state height has not moved meanwhile. */
  private keep(request: RestRequest, answer: RestAnswer): void {
    const at = answer.cacheAt;
    if (at === undefined || request.method !== 'GET' || request.height !== undefined) return;
    this.answers.set(request.url, answer.body, at);
  }

  private write(res: ServerResponse, answer: RestAnswer): void {
    if (res.headersSent || res.destroyed) return;
    const headers: Record<string, string | number> = {
      'content-type': answer.contentType ?? JSON_TYPE,
      'content-length': Buffer.byteLength(answer.body),
    };
    if (answer.height !== undefined) {
      const text = String(answer.height);
      headers[HEIGHT_HEADER] = text;
      headers[GATEWAY_HEIGHT_HEADER] = text;
    }
    if (answer.close) headers['connection'] = 'close';
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  /** Reads the body within maxBodyBytes, then asks the backend (which refuses one too large). */
  private readBody(req: IncomingMessage, request: RestRequest, res: ServerResponse): void {
    readBoundedBody(req, this.options.maxBodyBytes, {
      done: (body) => {
        request.body = body;
        this.ask(request, res);
      },
      tooLarge: (size, declared) => {
        request.bodyTooLarge = declared ? size : -1;
        this.ask(request, res);
      },
    });
  }
}
