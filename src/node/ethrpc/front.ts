/**
 * The Ethereum JSON-RPC's HTTP side: the listening server, the connection cap
 * (limits/connections.ts), the request and idle timeouts, CORS preflights, POST bodies within
 * 5 MB, and the results kept until the app's state height moves. What a body means is the
 * backend's (EthRpcServer.answerHttp): it gets an `EthRequest` and gives back an `EthAnswer`, plain
 * data, so the front can run on the main thread beside it or on a thread of its own
 * ([json-rpc] http-thread; threads/frontThread.ts, hostWorker.ts).
 *
 * A single request for a state read at the latest block (eth_getBalance, eth_call, …) whose method
 * and params the backend answered before at the current height is answered here, with the
 * request's own id, without the backend. The backend says which results may be kept (`keep`).
 * This file imports nothing of the node beyond the connection guard and the body reader, so the
 * thread loads little.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readBoundedBody } from '../limits/body.js';
import { ConnectionGuard, type ConnectionStats, type TrackedConnection } from '../limits/connections.js';
import { listenOn } from '../limits/listen.js';
import { nullLogger, type Logger } from '../logger.js';
import type { Front, FrontAddress } from '../threads/frontThread.js';
import { KeptAnswers } from '../threads/keptAnswers.js';

/** The largest body read (Ethermint's 5 MB). */
export const MAX_BODY = 5 * 1024 * 1024;
/** Longer params (a big eth_call's data) or results are not kept. */
export const MAX_KEPT_TEXT = 64 * 1024;
/**
 * Methods whose result depends only on their params and the latest committed block: kept until
 * the next one (never with the "pending" tag, which counts the mempool).
 */
export const KEPT_METHODS: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_chainId',
  'net_version',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getTransactionCount',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_call',
]);

/** Results kept by default ([cache] json-rpc-responses). */
export const DEFAULT_KEPT_RESULTS = 10_000;

/** The key a kept result is found by: method and params (as JSON). */
export function keptKey(method: string, params: readonly unknown[]): string {
  return `${method}\n${JSON.stringify(params)}`;
}

export interface EthFrontOptions {
  host: string;
  port: number;
  /** max-open-connections: at the cap the oldest idle connection is closed for a new client (0: no cap). */
  maxOpenConnections: number;
  /** http-timeout: time to read a request and write its answer (0: none). */
  httpTimeoutMs: number;
  /** http-idle-timeout: a connection with no request in progress is closed after this. */
  httpIdleTimeoutMs: number;
  /** [cache] json-rpc-responses: results kept (0: none). */
  answerCacheEntries: number;
}

/** A POST as the backend sees it: its body, or that the body was over MAX_BODY. */
export type EthRequest = { body: string } | { tooLarge: true };

/** The backend's answer: the body (JSON), and a result that may be kept at state height `at`. */
export interface EthAnswer {
  status: number;
  body: string;
  keep?: { key: string; result: string; at: number };
}

export type EthBackendCall = (request: EthRequest) => Promise<EthAnswer>;

/** The answer to a request whose backend failed (a bug: answerHttp turns errors into answers). */
export function internalEthAnswer(): EthAnswer {
  return { status: 500, body: '' };
}

const CORS = { 'access-control-allow-origin': '*' };

export class EthFront implements Front {
  private server: Server | undefined;
  private guard: ConnectionGuard | undefined;
  private readonly tracked = new WeakMap<Socket, TrackedConnection>();
  /** Kept results (JSON), by keptKey. */
  private readonly kept: KeptAnswers<string>;

  /**
   * `stateHeight` is the height kept results belong to now (a negative value: nothing is kept);
   * `changed` is called after a connection comes or goes and after the kept results change.
   */
  constructor(
    readonly options: EthFrontOptions,
    private readonly backend: EthBackendCall,
    stateHeight: () => number,
    private readonly logger: Logger = nullLogger,
    private readonly changed?: () => void,
  ) {
    this.kept = new KeptAnswers(options.answerCacheEntries, stateHeight, changed);
  }

  async start(): Promise<FrontAddress> {
    if (this.server !== undefined) throw new Error('JSON-RPC server already started');
    const { httpTimeoutMs: timeoutMs, httpIdleTimeoutMs: idleMs } = this.options;
    const server = createServer(
      {
        requestTimeout: timeoutMs,
        headersTimeout: timeoutMs > 0 ? Math.min(timeoutMs, 60_000) : 60_000,
        keepAliveTimeout: idleMs,
        connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor((timeoutMs || 20_000) / 4))),
      },
      (req, res) => {
        const tracked = this.tracked.get(req.socket);
        if (tracked) {
          tracked.busy();
          res.once('close', () => tracked.idle());
        }
        if (timeoutMs > 0) res.setTimeout(timeoutMs, () => res.destroy());
        this.onRequest(req, res);
      },
    );
    // Connection cap with idle eviction, as the other servers (limits/connections.ts): a flood of
    // idle sockets never locks out a new client.
    const guard = new ConnectionGuard('json-rpc', { maxConnections: this.options.maxOpenConnections, idleTimeoutMs: idleMs }, this.logger);
    this.guard = guard;
    guard.attach(server, (socket, tracked) => {
      this.tracked.set(socket, tracked);
      this.changed?.();
      socket.once('close', () => this.changed?.());
    });
    const bound = await listenOn(server, this.options.port, this.options.host);
    server.on('error', (err: Error) => this.logger.warn('json-rpc server error', { err: err.message }));
    this.server = server;
    return { host: this.options.host, port: bound.port, url: `http://${this.options.host}:${bound.port}` };
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
  }

  /** How many results are kept now (at most answerCacheEntries). */
  get keptAnswers(): number {
    return this.kept.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    this.guard?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ------------------------------------------------------------------------------ requests

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'POST, GET, OPTIONS', 'access-control-allow-headers': 'content-type' });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      write(res, { status: 405, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"method not allowed"}}' });
      return;
    }
    readBoundedBody(req, MAX_BODY, {
      done: (raw) => {
        const body = raw.toString('utf8');
        const kept = this.lookup(body);
        if (kept !== undefined) write(res, { status: 200, body: kept });
        else this.ask({ body }, res);
      },
      tooLarge: () => this.ask({ tooLarge: true }, res),
      error: () => res.destroy(),
    });
  }

  /** The answer to `body` from the kept results, when it is one request for a kept method and params. */
  private lookup(body: string): string | undefined {
    // A body longer than any key cannot be a kept request.
    if (body.length > MAX_KEPT_TEXT + 1024 || !this.kept.any()) return undefined;
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return undefined;
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method !== 'string' || !KEPT_METHODS.has(method)) return undefined;
    if (params !== undefined && !Array.isArray(params)) return undefined;
    const result = this.kept.get(keptKey(method, (params as unknown[] | undefined) ?? []));
    return result === undefined ? undefined : `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":${result}}`;
  }

  private ask(request: EthRequest, res: ServerResponse): void {
    this.backend(request).then(
      (answer) => {
        this.keep(answer);
        write(res, answer);
      },
      (err: unknown) => {
        this.logger.error('json-rpc request failed', { err: err instanceof Error ? err.message : String(err) });
        write(res, internalEthAnswer());
      },
    );
  }

  /** Keeps a result the backend allows to be kept, if the state height has not moved meanwhile. */
  private keep(answer: EthAnswer): void {
    const keep = answer.keep;
    if (keep === undefined || keep.key.length > MAX_KEPT_TEXT || keep.result.length > MAX_KEPT_TEXT) return;
    this.kept.set(keep.key, keep.result, keep.at);
  }
}

function write(res: ServerResponse, answer: EthAnswer): void {
  if (res.headersSent || res.destroyed) return;
  if (answer.status === 500 && answer.body === '') {
    res.writeHead(500);
    res.end();
    return;
  }
  res.writeHead(answer.status, { 'content-type': 'application/json', ...CORS });
  res.end(answer.body);
}
