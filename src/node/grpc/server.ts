/**
 * The gRPC server (the SDK's :9090) over the node's QueryRouter, with server reflection.
 *
 *   const grpc = new GrpcServer({ router, options: { address: '127.0.0.1:9090' }, logger });
 *   const { port } = await grpc.start();
 *   …
 *   await grpc.stop();
 *
 * It is @connectrpc/connect-node on a plaintext HTTP/2 server (h2c with prior knowledge, what
 * gRPC clients speak without TLS). Every entry of the router is served under its upstream name
 * ("/cosmos.bank.v1beta1.Query/AllBalances"); the gRPC-Web and Connect protocols answer on the
 * same port too (over HTTP/2: the port speaks no HTTP/1.1). An unknown service or method answers
 * UNIMPLEMENTED (HTTP 404). Identity-encoded unary gRPC calls take a fast path (unary.ts);
 * everything else goes through connect-node.
 *
 * With `thread` ([grpc] http-thread) the listening side runs on a front thread (front.ts,
 * threads/hostWorker.ts): it answers kept unary calls itself, asks `UnaryFastPath.answer` for the other unary calls, and
 * passes every other stream to this thread's HTTP/2 server on a private loopback port.
 *
 * Height: the `x-cosmos-block-height` request metadata picks the state height (0 / absent =
 * latest); every answer carries the height it reflects in the `x-cosmos-block-height` response
 * header, as the SDK's gRPC server does. Failures are gRPC statuses with the QueryError's code
 * and message.
 */
import { createServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import { ConnectionGuard, type ConnectionStats } from '../limits/connections.js';
import { listenError, listenOn, shownHost } from '../limits/listen.js';
import type { OutgoingHttpHeaders } from 'node:http';
import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { create, type DescMessage, type DescMethod, type DescMethodUnary, type Message } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import {
  ServerReflection as ReflectionV1,
  ServerReflectionResponseSchema as ReflectionResponseV1Schema,
  type ServerReflectionRequest as ReflectionRequestV1,
  type ServerReflectionResponse as ReflectionResponseV1,
} from '../../gen/grpc/reflection/v1/reflection_pb.js';
import {
  ServerReflection as ReflectionV1Alpha,
  ServerReflectionResponseSchema as ReflectionResponseV1AlphaSchema,
  type ServerReflectionRequest as ReflectionRequestV1Alpha,
  type ServerReflectionResponse as ReflectionResponseV1Alpha,
} from '../../gen/grpc/reflection/v1alpha/reflection_pb.js';
import { nullLogger } from '../logger.js';
import type { Logger } from '../logger.js';
import { parseApiAddress } from '../api/options.js';
import { QueryError, isQueryError, type QueryEntry, type QueryRouter } from '../services/types.js';
import { ReflectionIndex, type ReflectionRequestLike } from './reflection.js';
import { GRPC_HEIGHT_HEADER, UnaryFastPath, encodeGrpcMessage, parseHeightMetadata } from './unary.js';
import { closeHttp2, guardHttp2, internalUnaryAnswer, type GrpcFrontOptions, type UnaryAnswer, type UnaryCall } from './front.js';
import { FrontThread } from '../threads/frontThread.js';

export { GRPC_HEIGHT_HEADER, encodeGrpcMessage };

export interface GrpcOptions {
  /** "host:port" (or "tcp://host:port"); port 0 picks a free port (tests). */
  address: string;
  /** Largest request message accepted (app.toml grpc max-recv-msg-size; SDK default 10 MiB). */
  maxRecvMsgBytes: number;
  /** Largest response message sent (grpc max-send-msg-size; SDK default MaxInt32). */
  maxSendMsgBytes: number;
  /** Serve grpc.reflection.v1alpha / v1 ServerReflection. */
  reflection: boolean;
  /** Connections (HTTP/2 sessions) open at once (grpc max-open-connections; 0 = unlimited). */
  maxOpenConnections: number;
  /** A session without streams for this long is closed (grpc idle-timeout). */
  idleTimeoutMs: number;
  /**
   * Answers of unary app queries of the latest state kept by method and request bytes, dropped as
   * soon as a block is committed (app.toml [cache] grpc-responses; 0 = none).
   */
  answerCacheEntries: number;
}

export const defaultGrpcOptions: Readonly<GrpcOptions> = Object.freeze({
  address: 'localhost:9090',
  maxRecvMsgBytes: 10 * 1024 * 1024,
  maxSendMsgBytes: 2 ** 31 - 1,
  reflection: true,
  maxOpenConnections: 1000,
  idleTimeoutMs: 120_000,
  answerCacheEntries: 10_000,
});

export interface GrpcServerConfig {
  router: QueryRouter;
  options?: Partial<GrpcOptions>;
  logger?: Logger;
  /**
   * [grpc] http-thread: the listening side (connections, unary calls, kept answers) on a thread of
   * its own (threads/frontThread.ts, front.ts). Needs the router's stateHeight and
   * watchStateHeight; default false.
   */
  thread?: boolean;
}

export interface GrpcAddress {
  host: string;
  port: number;
  /** host:port as gRPC clients take it. */
  target: string;
}


/** A QueryError (or anything else: Internal) as a ConnectError with the same code and message. */
export function connectErrorOf(err: unknown): ConnectError {
  if (err instanceof ConnectError) return err;
  const queryErr = isQueryError(err) ? err : new QueryError('Internal', err instanceof Error ? err.message : String(err), { cause: err });
  return new ConnectError(queryErr.message, queryErr.grpcCode as number as Code, undefined, undefined, err);
}

function fixGrpcMessage(headers: OutgoingHttpHeaders | undefined): OutgoingHttpHeaders | undefined {
  const value = headers?.['grpc-message'];
  if (typeof value !== 'string' || headers === undefined) return headers;
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    return headers;
  }
  headers['grpc-message'] = encodeGrpcMessage(text);
  return headers;
}

/** Re-encodes grpc-message in the headers (trailers-only answers) and trailers of a response. */
function reencodeGrpcMessage(res: Http2ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => Http2ServerResponse;
  const addTrailers = res.addTrailers.bind(res);
  (res as unknown as { writeHead: (status: number, headers?: OutgoingHttpHeaders) => Http2ServerResponse }).writeHead = (status, headers) =>
    writeHead(status, fixGrpcMessage(headers));
  res.addTrailers = (trailers: OutgoingHttpHeaders): void => addTrailers(fixGrpcMessage(trailers) ?? trailers);
}

function heightOf(ctx: HandlerContext): number {
  try {
    return parseHeightMetadata(ctx.requestHeader.get(GRPC_HEIGHT_HEADER) ?? undefined);
  } catch (err) {
    throw connectErrorOf(err);
  }
}

export class GrpcServer {
  readonly options: GrpcOptions;
  private readonly router: QueryRouter;
  private readonly logger: Logger;
  private server: Http2Server | undefined;
  private readonly sessions = new Set<Http2Session>();
  private readonly shutdown = new AbortController();
  private fast: UnaryFastPath | undefined;
  private readonly thread: boolean;
  private front: FrontThread<GrpcFrontOptions, UnaryCall, UnaryAnswer> | undefined;
  /** Full names of the services served, in registration order (reflection list_services). */
  readonly serviceNames: string[];

  constructor(config: GrpcServerConfig) {
    this.router = config.router;
    this.options = { ...defaultGrpcOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.thread = config.thread === true && this.router.stateHeight !== undefined && this.router.watchStateHeight !== undefined;
    const names = new Set<string>();
    for (const entry of this.router.entries()) names.add(entry.method.parent.typeName);
    if (this.options.reflection) {
      names.add(ReflectionV1Alpha.typeName);
      names.add(ReflectionV1.typeName);
    }
    this.serviceNames = [...names];
    // connect-node adds one abort listener per call in flight to the shutdown signal.
    setMaxListeners(0, this.shutdown.signal);
  }

  /** The request handler (HTTP/2; also usable with another http2 server). */
  handler(): (req: Http2ServerRequest, res: Http2ServerResponse) => void {
    const adapter = connectNodeAdapter({
      routes: (router) => this.routes(router),
      grpc: true,
      grpcWeb: true,
      connect: true,
      readMaxBytes: this.options.maxRecvMsgBytes,
      writeMaxBytes: this.options.maxSendMsgBytes,
      shutdownSignal: this.shutdown.signal,
    });
    const fast = new UnaryFastPath(this.router, this.options.maxRecvMsgBytes, this.options.maxSendMsgBytes, this.logger, this.options.answerCacheEntries);
    this.fast = fast;
    return (req, res) => {
      if (fast.serve(req, res)) return;
      reencodeGrpcMessage(res);
      adapter(req, res);
    };
  }

  private routes(router: ConnectRouter): void {
    for (const entry of this.router.entries()) this.registerEntry(router, entry);
    if (this.options.reflection) this.registerReflection(router);
  }

  private registerEntry(router: ConnectRouter, entry: QueryEntry): void {
    const method: DescMethod = entry.method;
    if (method.methodKind !== 'unary') {
      this.logger.warn('gRPC: skipping a streaming method', { method: entry.path });
      return;
    }
    router.rpc(method as DescMethodUnary<DescMessage, DescMessage>, async (request: Message, ctx: HandlerContext) => {
      const height = heightOf(ctx);
      try {
        const result = await entry.handle(request, { height });
        ctx.responseHeader.set(GRPC_HEIGHT_HEADER, String(result.height));
        return result.response;
      } catch (err) {
        const connectErr = connectErrorOf(err);
        if (connectErr.code === Code.Internal || connectErr.code === Code.Unknown) {
          this.logger.error('gRPC query failed', { method: entry.path, err: connectErr.rawMessage });
        } else {
          this.logger.debug('gRPC query refused', { method: entry.path, code: connectErr.code, err: connectErr.rawMessage });
        }
        ctx.responseHeader.set(GRPC_HEIGHT_HEADER, String(height > 0 ? height : this.router.latestHeight()));
        throw connectErr;
      }
    });
  }

  private registerReflection(router: ConnectRouter): void {
    const index = new ReflectionIndex(this.serviceNames);
    const v1alpha = ReflectionV1Alpha.method.serverReflectionInfo;
    router.rpc(v1alpha, async function* (requests: AsyncIterable<ReflectionRequestV1Alpha>): AsyncIterable<ReflectionResponseV1Alpha> {
      const sent = new Set<string>();
      for await (const request of requests) {
        yield create(ReflectionResponseV1AlphaSchema, { ...index.respond(request as ReflectionRequestLike, sent), originalRequest: request });
      }
    });
    const v1 = ReflectionV1.method.serverReflectionInfo;
    router.rpc(v1, async function* (requests: AsyncIterable<ReflectionRequestV1>): AsyncIterable<ReflectionResponseV1> {
      const sent = new Set<string>();
      for await (const request of requests) {
        yield create(ReflectionResponseV1Schema, { ...index.respond(request as ReflectionRequestLike, sent), originalRequest: request });
      }
    });
  }

  private guard: ConnectionGuard | undefined;

  async start(): Promise<GrpcAddress> {
    if (this.server !== undefined) throw new Error('gRPC server already started');
    if (this.thread) return this.startThread();
    const { host, port } = parseApiAddress(this.options.address, 'gRPC');
    const server = createServer(this.handler());
    // Connection cap with idle eviction (limits/connections.ts); a session is busy while it has streams.
    const guard = new ConnectionGuard('grpc', { maxConnections: this.options.maxOpenConnections, idleTimeoutMs: this.options.idleTimeoutMs }, this.logger);
    this.guard = guard;
    guardHttp2(server, guard, this.sessions);
    let address: AddressInfo;
    try {
      address = await listenOn(server, port, host);
    } catch (err) {
      throw listenError('gRPC', this.options.address, '[grpc] address', err);
    }
    // After listening, errors (EMFILE on accept under a descriptor flood, …) are logged, never thrown.
    server.on('error', (err: Error) => this.logger.warn('gRPC server error', { err: err.message }));
    this.server = server;
    return this.listening(address.address, address.port);
  }

  private listening(host: string, port: number): GrpcAddress {
    const target = `${shownHost(host)}:${port}`;
    this.logger.info('gRPC server listening', { address: target, services: this.serviceNames.length, thread: this.front !== undefined });
    return { host, port, target };
  }

  /**
   * On a thread: this thread's HTTP/2 server listens on a private loopback port for the streams the
   * thread passes on; the thread listens on [grpc] address.
   */
  private async startThread(): Promise<GrpcAddress> {
    const { host, port } = parseApiAddress(this.options.address, 'gRPC');
    const inner = createServer(this.handler());
    inner.on('session', (session: Http2Session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
    const innerAddress = await listenOn(inner, 0, '127.0.0.1');
    this.server = inner;
    const fast = this.fast!;
    const paths = fast.paths();
    const options: GrpcFrontOptions = {
      host,
      port,
      maxOpenConnections: this.options.maxOpenConnections,
      idleTimeoutMs: this.options.idleTimeoutMs,
      maxRecvMsgBytes: this.options.maxRecvMsgBytes,
      answerCacheEntries: this.options.answerCacheEntries,
      unaryPaths: paths.unary,
      appPaths: paths.app,
      upstream: { host: '127.0.0.1', port: innerAddress.port },
    };
    const router = this.router;
    const front = new FrontThread<GrpcFrontOptions, UnaryCall, UnaryAnswer>(
      options,
      { label: 'gRPC', kind: 'grpc', backend: fast.answer, internalError: internalUnaryAnswer, stateHeight: () => router.stateHeight!(), watchStateHeight: (listener) => router.watchStateHeight!(listener) },
      this.logger,
    );
    let address: { host: string; port: number };
    try {
      address = await front.start();
    } catch (err) {
      await this.stop();
      throw listenError('gRPC', this.options.address, '[grpc] address', err);
    }
    this.front = front;
    return this.listening(address.host, address.port);
  }

  /** How many unary answers are kept now (at most answerCacheEntries). */
  get cachedAnswers(): number {
    return this.front?.keptAnswers ?? this.fast?.keptAnswers ?? 0;
  }

  /** Open connections against the cap, and how many were evicted or refused. */
  connectionStats(): ConnectionStats | undefined {
    return this.front?.connectionStats() ?? this.guard?.stats();
  }

  async stop(): Promise<void> {
    const front = this.front;
    this.front = undefined;
    await front?.stop();
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    this.guard?.close();
    this.shutdown.abort(new ConnectError('server is shutting down', Code.Unavailable));
    await closeHttp2(server, this.sessions);
  }
}


