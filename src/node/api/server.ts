/**
 * The REST gateway (the SDK's API server on :1317) on node:http, over the node's QueryRouter.
 *
 *   const api = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:1317' }, logger });
 *   const { url } = await api.start();
 *   …
 *   await api.stop();
 *
 * The HTTP side (connections, bodies, timeouts, answers kept until the next block) is front.ts,
 * on this thread or — `options.thread`, app.toml `[api] http-thread` — on its own (threads/frontThread.ts);
 * this class is what the front asks (`handle`: a RestRequest in, a RestAnswer out).
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
import type { JsonValue, Message } from '@bufbuild/protobuf';
import { fromGatewayJson, isCodecError, toGatewayJson } from '../codec/index.js';
import type { ConnectionStats } from '../limits/connections.js';
import type { Logger } from '../logger.js';
import { nullLogger } from '../logger.js';
import { GrpcStatus, QueryError, type QueryRouter } from '../services/types.js';
import { appVersion } from '../version/version.js';
import { gatewayErrorBody, gatewayErrorOf } from './errors.js';
import { HEIGHT_HEADER, internalErrorAnswer, RestFront, type RestAnswer, type RestFrontOptions, type RestRequest } from './front.js';
import { buildOpenApi, openApiHtml } from './openapi.js';
import { defaultApiOptions, parseApiAddress, type ApiOptions } from './options.js';
import { applyQueryString, buildRequest, setParam } from './params.js';
import { RouteTable, type CompiledRoute } from './routes.js';
import { listenError } from '../limits/listen.js';
import { FrontThread, type FrontAddress } from '../threads/frontThread.js';

export interface ApiServerConfig {
  router: QueryRouter;
  options?: Partial<ApiOptions>;
  logger?: Logger;
}

export type ApiAddress = FrontAddress;
export { HEIGHT_HEADER };

const NOT_IMPLEMENTED = 'Not Implemented';
/** Longer answers (long listings) are not kept by the front. */
const MAX_CACHED_ANSWER = 64 * 1024;

export class ApiServer {
  readonly table: RouteTable;
  readonly options: ApiOptions;
  private readonly router: QueryRouter;
  private readonly logger: Logger;
  private front: RestFront | FrontThread<RestFrontOptions, RestRequest, RestAnswer> | undefined;
  private openApiJson: string | undefined;
  private openApiPage: string | undefined;

  constructor(config: ApiServerConfig) {
    this.router = config.router;
    this.options = { ...defaultApiOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.table = RouteTable.fromRouter(config.router);
  }

  /**
   * Starts the HTTP side: on a thread of its own with `options.thread` (threads/frontThread.ts), else on this
   * thread. Either way the queries run here, through `handle`.
   */
  async start(): Promise<ApiAddress> {
    if (this.front !== undefined) throw new Error('API server already started');
    const frontOptions = { ...this.options, ...parseApiAddress(this.options.address) };
    const router = this.router;
    // Without a state height to check answers against, none is kept.
    if (router.stateHeight === undefined) frontOptions.answerCacheEntries = 0;
    const stateHeight = (): number => router.stateHeight?.() ?? -1;
    let front: RestFront | FrontThread<RestFrontOptions, RestRequest, RestAnswer>;
    // The thread needs to hear of each new state height; a router that cannot tell keeps the front here.
    if (frontOptions.thread && router.watchStateHeight !== undefined) {
      const spec = { label: 'REST gateway', kind: 'rest' as const, backend: this.handle, internalError: internalErrorAnswer, stateHeight, watchStateHeight: (listener: (height: number) => void) => router.watchStateHeight!(listener) };
      front = new FrontThread(frontOptions, spec, this.logger);
    } else {
      front = new RestFront(frontOptions, this.handle, stateHeight, this.logger);
    }
    let address: FrontAddress;
    try {
      address = await front.start();
    } catch (err) {
      throw listenError('the REST gateway', this.options.address, '[api] address', err);
    }
    this.front = front;
    this.logger.info('REST gateway listening', { address: `${address.url.slice('http://'.length)}`, routes: this.table.routes.length, thread: front instanceof FrontThread });
    return address;
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.front?.connectionStats();
  }

  /** How many answers the front keeps now (at most [cache] rest-responses). */
  get cachedAnswers(): number {
    return this.front?.keptAnswers ?? 0;
  }

  async stop(): Promise<void> {
    const front = this.front;
    if (front === undefined) return;
    this.front = undefined;
    await front.stop();
  }

  // ------------------------------------------------------------------------------ requests

  /** Answers one request (the front's backend). Never rejects: failures are error answers. */
  readonly handle = async (request: RestRequest): Promise<RestAnswer> => {
    const url = request.url;
    const qi = url.indexOf('?');
    const pathname = qi < 0 ? url : url.slice(0, qi);
    const query = qi < 0 ? '' : url.slice(qi + 1);
    if (pathname === '/swagger' || pathname.startsWith('/swagger/')) return this.swagger(pathname);
    const match = this.table.match(request.method, pathname);
    if (match.kind !== 'found') {
      if (match.kind === 'method-not-allowed') return this.error(405, GrpcStatus.Unimplemented, 'Method Not Allowed', this.router.latestHeight());
      return this.error(501, GrpcStatus.Unimplemented, NOT_IMPLEMENTED, this.router.latestHeight());
    }
    const route = match.route;
    if (route.entry === undefined) {
      return this.error(501, GrpcStatus.Unimplemented, `${NOT_IMPLEMENTED}: ${route.path} is not served by this node`, this.router.latestHeight());
    }
    if (request.bodyTooLarge !== undefined) {
      const limit = this.options.maxBodyBytes;
      const message =
        request.bodyTooLarge >= 0 ? `request body too large: ${request.bodyTooLarge} bytes, the limit is ${limit}` : `request body too large: the limit is ${limit} bytes`;
      return { ...this.error(413, GrpcStatus.ResourceExhausted, message, this.router.latestHeight()), close: true };
    }
    let height: number;
    try {
      height = parseHeight(request.height);
    } catch (err) {
      return this.fail(err, this.router.latestHeight());
    }
    if (route.body === '') {
      // A GET of the app's state at the latest height: the same URL gets the same answer until a
      // block is committed, so the front may answer it again from what it kept.
      const keep = request.height === undefined && route.entry.source === 'app' && this.options.answerCacheEntries > 0 && this.router.stateHeight !== undefined;
      return this.run(route, height, keep, () => {
        const init: Record<string, unknown> = {};
        for (let i = 0; i < route.pathParams.length; i++) {
          const plan = route.pathParams[i]!;
          setParam(init, plan, plan.parse(match.values[i]!));
        }
        applyQueryString(init, query, route.queryParams);
        return buildRequest(route.input, init);
      });
    }
    const body = request.body ?? new Uint8Array(0);
    return this.run(route, height, false, () => {
      let json: JsonValue;
      try {
        json = body.length === 0 ? {} : (JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as JsonValue);
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
  };

  /** Runs a query; a success may be kept by the front (`keep`) when it is short enough. */
  private async run(route: CompiledRoute, height: number, keep: boolean, build: () => Message): Promise<RestAnswer> {
    const entry = route.entry!;
    try {
      const request = build();
      const result = await entry.handle(request, { height });
      const body = JSON.stringify(toGatewayJson(route.output, result.response));
      const answer: RestAnswer = { status: 200, body, height: result.height };
      if (keep && body.length <= MAX_CACHED_ANSWER) answer.cacheAt = result.height;
      return answer;
    } catch (err) {
      return this.fail(err, height > 0 ? height : this.router.latestHeight(), route);
    }
  }

  private fail(err: unknown, height: number, route?: CompiledRoute): RestAnswer {
    const error = gatewayErrorOf(err);
    if (error.status >= 500 && error.code !== GrpcStatus.Unimplemented) {
      this.logger.error('REST request failed', { route: route?.pattern, method: route?.path, code: error.code, err: error.message });
    } else {
      this.logger.debug('REST request refused', { route: route?.pattern, code: error.code, err: error.message });
    }
    return this.error(error.status, error.code, error.message, height);
  }

  private error(status: number, code: number, message: string, height: number): RestAnswer {
    return { status, body: gatewayErrorBody(code, message), height };
  }

  private swagger(pathname: string): RestAnswer {
    if (this.openApiJson === undefined) {
      const doc = buildOpenApi(this.table, { title: 'tokend REST gateway', version: appVersion() });
      this.openApiJson = JSON.stringify(doc);
      this.openApiPage = openApiHtml(doc);
    }
    const json = pathname === '/swagger/openapi.json' || pathname === '/swagger/swagger.json';
    if (!json && pathname !== '/swagger' && pathname !== '/swagger/' && pathname !== '/swagger/index.html') {
      return this.error(404, GrpcStatus.NotFound, `no such document: ${pathname}`, this.router.latestHeight());
    }
    return json ? { status: 200, body: this.openApiJson } : { status: 200, body: this.openApiPage!, contentType: 'text/html; charset=utf-8' };
  }
}

/** The height of a request's height header (0 when absent); InvalidArgument when it is not a non-negative integer. */
export function parseHeight(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const height = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(height)) {
    throw new QueryError('InvalidArgument', `invalid ${HEIGHT_HEADER} header "${raw}": expected a non-negative integer height`);
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


