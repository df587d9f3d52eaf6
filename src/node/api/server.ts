/**
 * The REST gateway (the SDK's API server on :1317) on node:http, over the node's QueryRouter.
 *
 *   const api = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:1317' }, logger });
 *   const { url } = await api.start();
 *   …
 *   await api.stop();
 *
 * Per request: match the compiled route table (routes.ts), build the request message from path
 * variables + query parameters (GET) or the JSON body (POST, `fromGatewayJson`), pick the height
 * from the `x-cosmos-block-height` header (also read as `grpc-metadata-x-cosmos-block-height`),
 * run the router entry, print the response with `toGatewayJson`. Every answer carries
 * `x-cosmos-block-height` (and grpc-gateway's `grpc-metadata-x-cosmos-block-height`): the height
 * the answer reflects, or for errors the requested/latest height.
 *
 * Errors: {"code","message","details":[],"error"} with the HTTP status of the gRPC code
 * (errors.ts); an unknown path is 501 {"code":12,"message":"Not Implemented"}, a known path with
 * another verb 405, a method without a server 501.
 *
 *   GET /swagger/openapi.json   the OpenAPI 3 document of the served routes
 *   GET /swagger/               an HTML index of it
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ConnectionGuard, type ConnectionStats, type TrackedConnection } from '../limits/connections.js';
import type { AddressInfo, Socket } from 'node:net';
import type { JsonValue, Message } from '@bufbuild/protobuf';
import { fromGatewayJson, isCodecError, toGatewayJson } from '../codec/index.js';
import type { Logger } from '../logger.js';
import { nullLogger } from '../logger.js';
import { GrpcStatus, QueryError, type QueryRouter } from '../services/types.js';
import { appVersion } from '../version/version.js';
import { gatewayErrorBody, gatewayErrorOf } from './errors.js';
import { buildOpenApi, openApiHtml } from './openapi.js';
import { defaultApiOptions, parseApiAddress, type ApiOptions } from './options.js';
import { applyQueryString, buildRequest, setParam } from './params.js';
import { RouteTable, type CompiledRoute } from './routes.js';

export interface ApiServerConfig {
  router: QueryRouter;
  options?: Partial<ApiOptions>;
  logger?: Logger;
}

export interface ApiAddress {
  host: string;
  port: number;
  /** http://host:port */
  url: string;
}

export const HEIGHT_HEADER = 'x-cosmos-block-height';
const GATEWAY_HEIGHT_HEADER = 'grpc-metadata-x-cosmos-block-height';
const JSON_TYPE = 'application/json';
const NOT_IMPLEMENTED = 'Not Implemented';
/** Longer answers (long listings) are not cached. */
const MAX_CACHED_ANSWER = 64 * 1024;

export class ApiServer {
  readonly table: RouteTable;
  readonly options: ApiOptions;
  private readonly router: QueryRouter;
  private readonly logger: Logger;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private guard: ConnectionGuard | undefined;
  private readonly tracked = new WeakMap<Socket, TrackedConnection>();
  private openApiJson: string | undefined;
  private openApiPage: string | undefined;
  /** GET answers of app queries at `answersHeight`, by URL (insertion order: the oldest goes first). */
  private readonly answers = new Map<string, string>();
  private answersHeight = -1;

  constructor(config: ApiServerConfig) {
    this.router = config.router;
    this.options = { ...defaultApiOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.table = RouteTable.fromRouter(config.router);
  }

  /** The request listener (also usable with another node:http server). */
  readonly handler = (req: IncomingMessage, res: ServerResponse): void => {
    this.onRequest(req, res);
  };

  async start(): Promise<ApiAddress> {
    if (this.server !== undefined) throw new Error('API server already started');
    const { host, port } = parseApiAddress(this.options.address);
    const server = createServer(
      {
        keepAliveTimeout: this.options.keepAliveTimeoutMs,
        requestTimeout: this.options.requestTimeoutMs,
        headersTimeout: Math.min(this.options.requestTimeoutMs > 0 ? this.options.requestTimeoutMs : 60_000, 60_000),
        connectionsCheckingInterval: 1_000,
      },
      (req, res) => {
        const tracked = this.tracked.get(req.socket);
        if (tracked) {
          tracked.busy();
          res.once('close', () => tracked.idle());
        }
        // rpc-write-timeout: the whole answer must be written within it (0 = no limit).
        if (this.options.writeTimeoutMs > 0) res.setTimeout(this.options.writeTimeoutMs, () => res.destroy());
        this.handler(req, res);
      },
    );
    // max-open-connections with idle eviction (limits/connections.ts), not server.maxConnections:
    // a flood of idle sockets must not lock out a new client.
    const guard = new ConnectionGuard('api', { maxConnections: this.options.maxOpenConnections, idleTimeoutMs: this.options.keepAliveTimeoutMs }, this.logger);
    this.guard = guard;
    guard.attach(server, (socket, tracked) => {
      this.tracked.set(socket, tracked);
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // After listening, errors (EMFILE on accept under a descriptor flood, …) are logged, never thrown.
    server.on('error', (err: Error) => this.logger.warn('REST server error', { err: err.message }));
    this.server = server;
    const address = server.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.logger.info('REST gateway listening', { address: `${shownHost}:${address.port}`, routes: this.table.routes.length });
    return { host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` };
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
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
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const pathname = qi < 0 ? url : url.slice(0, qi);
    const query = qi < 0 ? '' : url.slice(qi + 1);
    const verb = req.method ?? 'GET';
    if (this.options.enableUnsafeCors) {
      res.setHeader('access-control-allow-origin', '*');
      if (verb === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
          'access-control-max-age': '600',
        });
        res.end();
        return;
      }
    }
    if (pathname === '/swagger' || pathname.startsWith('/swagger/')) {
      this.serveSwagger(pathname, res);
      return;
    }
    const match = this.table.match(verb, pathname);
    if (match.kind !== 'found') {
      if (match.kind === 'method-not-allowed') this.sendError(res, 405, GrpcStatus.Unimplemented, 'Method Not Allowed', this.router.latestHeight());
      else this.sendError(res, 501, GrpcStatus.Unimplemented, NOT_IMPLEMENTED, this.router.latestHeight());
      return;
    }
    const route = match.route;
    if (route.entry === undefined) {
      this.sendError(res, 501, GrpcStatus.Unimplemented, `${NOT_IMPLEMENTED}: ${route.path} is not served by this node`, this.router.latestHeight());
      return;
    }
    let height: number;
    try {
      height = requestHeight(req);
    } catch (err) {
      this.fail(res, err, this.router.latestHeight());
      return;
    }
    if (route.body === '') {
      // A GET of the app's state at the latest height: the same URL gets the same answer until a
      // block is committed, so it is answered from the cache when it was asked before.
      let cacheKey: string | undefined;
      if (height === 0 && route.entry.source === 'app' && this.options.answerCacheEntries > 0 && this.router.stateHeight !== undefined) {
        const stateHeight = this.router.stateHeight();
        if (stateHeight !== this.answersHeight) {
          this.answers.clear();
          this.answersHeight = stateHeight;
        }
        const cached = this.answers.get(url);
        if (cached !== undefined) {
          this.answer(res, cached, stateHeight);
          return;
        }
        cacheKey = url;
      }
      void this.run(route, res, height, cacheKey, () => {
        const init: Record<string, unknown> = {};
        for (let i = 0; i < route.pathParams.length; i++) {
          const plan = route.pathParams[i]!;
          setParam(init, plan, plan.parse(match.values[i]!));
        }
        applyQueryString(init, query, route.queryParams);
        return buildRequest(route.input, init);
      });
      return;
    }
    this.readBody(req, res, (body) => {
      void this.run(route, res, height, undefined, () => {
        let json: JsonValue;
        try {
          json = body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as JsonValue);
        } catch (err) {
          throw new QueryError('InvalidArgument', `invalid JSON body: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (route.pathParams.length > 0) {
          if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new QueryError('InvalidArgument', 'the request body must be a JSON object');
          for (let i = 0; i < route.pathParams.length; i++) setJsonPath(json, route.pathParams[i]!.name, match.values[i]!);
        }
        try {
          return fromGatewayJson(route.input, json);
        } catch (err) {
          if (isCodecError(err)) throw new QueryError('InvalidArgument', err.message, { cause: err });
          throw err;
        }
      });
    });
  }

  /** Answers a query; a success is kept under `cacheKey` if the state height has not moved meanwhile. */
  private async run(route: CompiledRoute, res: ServerResponse, height: number, cacheKey: string | undefined, build: () => Message): Promise<void> {
    const entry = route.entry!;
    let body: string;
    let answeredHeight: number;
    try {
      const request = build();
      const result = await entry.handle(request, { height });
      answeredHeight = result.height;
      body = JSON.stringify(toGatewayJson(route.output, result.response));
    } catch (err) {
      this.fail(res, err, height > 0 ? height : this.router.latestHeight(), route);
      return;
    }
    if (cacheKey !== undefined && answeredHeight === this.answersHeight && body.length <= MAX_CACHED_ANSWER && answeredHeight === this.router.stateHeight?.()) {
      if (this.answers.size >= this.options.answerCacheEntries) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(cacheKey, body);
    }
    this.answer(res, body, answeredHeight);
  }

  private answer(res: ServerResponse, body: string, height: number): void {
    const heightText = String(height);
    res.writeHead(200, {
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
      [HEIGHT_HEADER]: heightText,
      [GATEWAY_HEIGHT_HEADER]: heightText,
    });
    res.end(body);
  }

  /** How many answers the cache holds now (at most [cache] rest-responses). */
  get cachedAnswers(): number {
    return this.answers.size;
  }

  private fail(res: ServerResponse, err: unknown, height: number, route?: CompiledRoute): void {
    const error = gatewayErrorOf(err);
    if (error.status >= 500 && error.code !== GrpcStatus.Unimplemented) {
      this.logger.error('REST request failed', { route: route?.pattern, method: route?.path, code: error.code, err: error.message });
    } else {
      this.logger.debug('REST request refused', { route: route?.pattern, code: error.code, err: error.message });
    }
    this.sendError(res, error.status, error.code, error.message, height);
  }

  private sendError(res: ServerResponse, status: number, code: number, message: string, height: number): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = gatewayErrorBody(code, message);
    const heightText = String(height);
    res.writeHead(status, {
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
      [HEIGHT_HEADER]: heightText,
      [GATEWAY_HEIGHT_HEADER]: heightText,
    });
    res.end(body);
  }

  private readBody(req: IncomingMessage, res: ServerResponse, then: (body: Buffer) => void): void {
    const limit = this.options.maxBodyBytes;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      res.setHeader('connection', 'close');
      this.sendError(res, 413, GrpcStatus.ResourceExhausted, `request body too large: ${declared} bytes, the limit is ${limit}`, this.router.latestHeight());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        res.setHeader('connection', 'close');
        this.sendError(res, 413, GrpcStatus.ResourceExhausted, `request body too large: the limit is ${limit} bytes`, this.router.latestHeight());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', () => undefined);
  }

  private serveSwagger(pathname: string, res: ServerResponse): void {
    if (this.openApiJson === undefined) {
      const doc = buildOpenApi(this.table, { title: 'tokend REST gateway', version: appVersion() });
      this.openApiJson = JSON.stringify(doc);
      this.openApiPage = openApiHtml(doc);
    }
    const json = pathname === '/swagger/openapi.json' || pathname === '/swagger/swagger.json';
    if (!json && pathname !== '/swagger' && pathname !== '/swagger/' && pathname !== '/swagger/index.html') {
      this.sendError(res, 404, GrpcStatus.NotFound, `no such document: ${pathname}`, this.router.latestHeight());
      return;
    }
    const body = json ? this.openApiJson : this.openApiPage!;
    res.writeHead(200, { 'content-type': json ? JSON_TYPE : 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}

/** The height header of a request (0 when absent); InvalidArgument when it is not a non-negative integer. */
export function requestHeight(req: IncomingMessage): number {
  const raw = req.headers[HEIGHT_HEADER] ?? req.headers[GATEWAY_HEIGHT_HEADER];
  if (raw === undefined) return 0;
  const text = Array.isArray(raw) ? raw[0] ?? '' : raw;
  const height = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(height)) {
    throw new QueryError('InvalidArgument', `invalid ${HEIGHT_HEADER} header "${text}": expected a non-negative integer height`);
  }
  return height;
}

/** Sets a dotted field path of a JSON object (path variables of body routes). */
function setJsonPath(json: { [key: string]: JsonValue }, path: string, value: string): void {
  const parts = path.split('.');
  let target = json;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = target[parts[i]!];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      target = next;
    } else {
      const created: { [key: string]: JsonValue } = {};
      target[parts[i]!] = created;
      target = created;
    }
  }
  target[parts[parts.length - 1]!] = value;
}


