/**
 * The gRPC server's listening side on a front thread ([grpc] http-thread; threads/frontThread.ts,
 * hostWorker.ts): the plaintext HTTP/2 server on [grpc] address, the connection cap with idle eviction
 * (limits/connections.ts), and the identity-encoded unary gRPC calls of the router's methods — the
 * calls clients make nearly always. Such a call goes to the main thread as plain data (its path,
 * its body, its height metadata; `UnaryFastPath.answer`), and an answer of an app method at the
 * latest state is kept here, by method and request bytes, until the app's state height moves: a
 * repeated call is then answered without the main thread. Every other stream (server reflection's
 * bidi streams, compressed messages, gRPC-Web, the Connect protocol, unknown methods) is passed
 * whole — headers, data both ways, trailers — to the main thread's own HTTP/2 server on a private
 * loopback port, where connect-node serves it as on a server without this thread.
 */
import { connect, constants, createServer, type ClientHttp2Session, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session, type Http2Stream, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import type { Socket } from 'node:net';
import { readBoundedBody } from '../limits/body.js';
import { ConnectionGuard, type ConnectionStats } from '../limits/connections.js';
import { listenOn, shownHost } from '../limits/listen.js';
import { nullLogger, type Logger } from '../logger.js';
import type { Front, FrontAddress } from '../threads/frontThread.js';
import { KeptAnswers } from '../threads/keptAnswers.js';

/** The height metadata (request) and header (answer). */
export const GRPC_HEIGHT_HEADER = 'x-cosmos-block-height';
/** [compressed flag: 1 byte][length: 4 bytes] before each message. */
export const FRAME_HEADER_BYTES = 5;
/** Longer answers (long listings) and longer requests are not kept. */
export const MAX_KEPT_ANSWER = 64 * 1024;
/** gRPC's RESOURCE_EXHAUSTED and UNAVAILABLE status codes. */
const RESOURCE_EXHAUSTED = 8;
const UNAVAILABLE = 14;

/**
 * grpc-message as the gRPC spec percent-encodes it: only bytes outside 0x20–0x7E, and "%".
 * (connect-node uses encodeURIComponent, which also encodes ":" "=" "/" …; spec decoders such
 * as grpc-go cope, but @grpc/grpc-js decodes with decodeURI and would show "%3A".)
 */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Whether a request is an identity-encoded unary gRPC call the fast path may serve (its path still to be checked). */
export function isPlainGrpcCall(req: Http2ServerRequest): boolean {
  if (req.method !== 'POST') return false;
  const contentType = req.headers['content-type'];
  if (contentType !== 'application/grpc' && contentType !== 'application/grpc+proto') return false;
  const encoding = req.headers['grpc-encoding'];
  return encoding === undefined || encoding === 'identity';
}

/** One unary call as the main thread gets it. */
export interface UnaryCall {
  path: string;
  body: Uint8Array;
  /** The raw x-cosmos-block-height metadata, when sent. */
  height?: string;
}

/** A call's status without a message. */
export interface UnaryStatus {
  code: number;
  message: string;
  height: number;
}

/** Its answer: the message frame, or a status; `keep`: the frame may be kept while the state height is `height`. */
export type UnaryAnswer = { frame: Uint8Array; height: number; keep?: boolean } | UnaryStatus;

/** The answer to a call whose backend failed (a bug: UnaryFastPath.answer turns errors into answers). */
export function internalUnaryAnswer(err: unknown): UnaryStatus {
  return { code: 13, message: err instanceof Error ? err.message : String(err), height: 0 };
}

/** Writes a message frame with OK in the trailers. */
export function sendFrame(res: Http2ServerResponse, frame: Uint8Array, height: number): void {
  if (res.closed || res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/grpc', [GRPC_HEIGHT_HEADER]: String(height) });
  res.addTrailers({ 'grpc-status': '0' });
  res.end(frame);
}

/** Writes an answer without a message: headers, then the status in the trailers. */
export function sendStatus(res: Http2ServerResponse, code: number, message: string, height: number): void {
  if (res.closed || res.destroyed) return;
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/grpc', [GRPC_HEIGHT_HEADER]: String(height) });
  res.addTrailers({ 'grpc-status': String(code), 'grpc-message': encodeGrpcMessage(message) });
  res.end();
}

/**
 * A plaintext HTTP/2 server's connections under a ConnectionGuard: the session of each admitted
 * socket is tracked in `sessions`, busy while it has streams. node:http2 emits 'session' from its
 * own 'connection' listener, which the guard runs when it admits the socket, just before ours:
 * they are paired here (the guard closes the socket itself; destroying a session that never sent
 * its preface does not).
 */
export function guardHttp2(server: Http2Server, guard: ConnectionGuard, sessions: Set<Http2Session>, onSocket?: (socket: Socket) => void): void {
  let pending: Http2Session | undefined;
  server.on('session', (session: Http2Session) => {
    pending = session;
  });
  guard.attach(server, (socket, tracked) => {
    const session = pending;
    pending = undefined;
    onSocket?.(socket);
    if (!session) return;
    sessions.add(session);
    session.on('stream', (stream: Http2Stream) => {
      tracked.busy();
      stream.once('close', () => tracked.idle());
    });
    session.once('close', () => sessions.delete(session));
  });
}

/** Closes an HTTP/2 server: its sessions are asked to close (streams in flight end), and cut after a second. */
export async function closeHttp2(server: Http2Server, sessions: Set<Http2Session>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const session of sessions) session.close();
  const timer = setTimeout(() => {
    for (const session of sessions) session.destroy();
  }, 1000);
  await closed;
  clearTimeout(timer);
}

export interface GrpcFrontOptions {
  host: string;
  port: number;
  maxOpenConnections: number;
  idleTimeoutMs: number;
  maxRecvMsgBytes: number;
  /** [cache] grpc-responses: answers kept (0: none). */
  answerCacheEntries: number;
  /** The router's unary methods ("/cosmos.bank.v1beta1.Query/AllBalances"), and which of them are the app's (keepable). */
  unaryPaths: string[];
  appPaths: string[];
  /** The main thread's private HTTP/2 server, for every other stream. */
  upstream: { host: string; port: number };
}

/** Request headers not passed on: HTTP/2 pseudo-headers (set anew) and connection-specific ones. */
const NOT_FORWARDED = new Set([':method', ':path', ':scheme', ':authority', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings']);

function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_FORWARDED.has(name) && !name.startsWith(':')) out[name] = value;
  return out;
}

export class GrpcFront implements Front {
  private server: Http2Server | undefined;
  private guard: ConnectionGuard | undefined;
  private readonly sessions = new Set<Http2Session>();
  private upstream: ClientHttp2Session | undefined;
  private readonly unaryPaths: Set<string>;
  private readonly appPaths: Set<string>;
  /** Answer frames, by method and request bytes. */
  private readonly kept: KeptAnswers<Uint8Array>;

  constructor(
    readonly options: GrpcFrontOptions,
    private readonly backend: (call: UnaryCall) => Promise<UnaryAnswer>,
    stateHeight: () => number,
    private readonly logger: Logger = nullLogger,
    private readonly changed?: () => void,
  ) {
    this.unaryPaths = new Set(options.unaryPaths);
    this.appPaths = new Set(options.appPaths);
    this.kept = new KeptAnswers(options.answerCacheEntries, stateHeight, changed);
  }

  async start(): Promise<FrontAddress> {
    if (this.server !== undefined) throw new Error('gRPC server already started');
    const server = createServer((req, res) => this.onRequest(req, res));
    const guard = new ConnectionGuard('grpc', { maxConnections: this.options.maxOpenConnections, idleTimeoutMs: this.options.idleTimeoutMs }, this.logger);
    this.guard = guard;
    guardHttp2(server, guard, this.sessions, (socket) => {
      this.changed?.();
      socket.once('close', () => this.changed?.());
    });
    const address = await listenOn(server, this.options.port, this.options.host);
    server.on('error', (err: Error) => this.logger.warn('gRPC server error', { err: err.message }));
    this.server = server;
    return { host: address.address, port: address.port, url: `http://${shownHost(address)}:${address.port}` };
  }

  connectionStats(): ConnectionStats | undefined {
    return this.guard?.stats();
  }

  get keptAnswers(): number {
    return this.kept.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    this.guard?.close();
    await closeHttp2(server, this.sessions);
    this.upstream?.close();
    this.upstream = undefined;
  }

  // ------------------------------------------------------------------------------ unary calls

  private onRequest(req: Http2ServerRequest, res: Http2ServerResponse): void {
    if (!isPlainGrpcCall(req) || !this.unaryPaths.has(req.url)) {
      this.forward(req, res);
      return;
    }
    const max = this.options.maxRecvMsgBytes;
    readBoundedBody(req, max + FRAME_HEADER_BYTES, {
      checkDeclared: false,
      done: (body) => this.unary(req, res, body),
      tooLarge: (size) => sendStatus(res, RESOURCE_EXHAUSTED, `grpc: received message larger than max (${size} vs. ${max})`, 0),
    });
  }

  private unary(req: Http2ServerRequest, res: Http2ServerResponse, body: Buffer): void {
    const path = req.url;
    const rawHeight = req.headers[GRPC_HEIGHT_HEADER];
    const height = Array.isArray(rawHeight) ? rawHeight.join(',') : rawHeight;
    // A call of an app method at the latest state gets the same answer until a block is
    // committed: kept under the method and the request bytes (a request longer than an answer
    // may be is not kept: its bytes are the key).
    let key: string | undefined;
    if (this.options.answerCacheEntries > 0 && height === undefined && this.appPaths.has(path) && body.length <= MAX_KEPT_ANSWER) {
      key = `${path}\n${body.toString('latin1')}`;
      const frame = this.kept.get(key);
      if (frame !== undefined) {
        sendFrame(res, frame, this.kept.sync());
        return;
      }
    }
    const call: UnaryCall = height === undefined ? { path, body } : { path, body, height };
    this.backend(call).then(
      (answer) => {
        if ('frame' in answer) {
          if (key !== undefined && answer.keep === true && answer.frame.length <= MAX_KEPT_ANSWER) this.kept.set(key, answer.frame, answer.height);
          sendFrame(res, answer.frame, answer.height);
        } else sendStatus(res, answer.code, answer.message, answer.height);
      },
      (err: unknown) => {
        const answer = internalUnaryAnswer(err);
        sendStatus(res, answer.code, answer.message, answer.height);
      },
    );
  }

  // ------------------------------------------------------------------------------ other streams

  /** The one HTTP/2 session to the main thread's server, opened on first use and again after it closes. */
  private upstreamSession(): ClientHttp2Session {
    const current = this.upstream;
    if (current !== undefined && !current.closed && !current.destroyed) return current;
    const { host, port } = this.options.upstream;
    const session = connect(`http://${host}:${port}`);
    session.on('error', (err) => this.logger.debug('gRPC upstream session error', { err: err.message }));
    session.once('close', () => {
      if (this.upstream === session) this.upstream = undefined;
    });
    session.unref();
    this.upstream = session;
    return session;
  }

  /** Passes a stream to the main thread's server: headers, data both ways, trailers. */
  private forward(req: Http2ServerRequest, res: Http2ServerResponse): void {
    let up;
    try {
      up = this.upstreamSession().request({ ':method': req.method, ':path': req.url, ':scheme': 'http', ':authority': req.authority, ...forwardedHeaders(req.headers) });
    } catch (err) {
      this.unavailable(res, err);
      return;
    }
    req.pipe(up);
    up.on('response', (headers, flags) => {
      const status = Number(headers[':status'] ?? 200);
      const rest = forwardedHeaders(headers);
      delete rest[':status'];
      if ((flags & constants.NGHTTP2_FLAG_END_STREAM) !== 0) {
        // A trailers-only answer (a status and no message): one HEADERS frame that ends the stream.
        if (!res.stream.destroyed && !res.stream.headersSent) res.stream.respond({ ':status': status, ...rest }, { endStream: true });
        return;
      }
      res.writeHead(status, rest);
      up.pipe(res);
    });
    up.on('trailers', (trailers) => res.addTrailers(forwardedHeaders(trailers)));
    up.on('error', (err) => this.unavailable(res, err));
    // The client went away: so does the stream upstream.
    res.on('close', () => {
      if (!up.closed) up.close(constants.NGHTTP2_CANCEL);
    });
  }

  private unavailable(res: Http2ServerResponse, err: unknown): void {
    this.logger.debug('gRPC stream to the main thread failed', { err: err instanceof Error ? err.message : String(err) });
    if (!res.headersSent) sendStatus(res, UNAVAILABLE, 'the server is not available', 0);
    else res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
  }
}
