/**
 * The fast path for the common case: a unary gRPC call (content-type application/grpc or
 * application/grpc+proto, no message compression) to a method of the router. connect-node's
 * generic machinery (async iterables, abort controllers and DOMExceptions per call) costs about a
 * millisecond of CPU per call; this path decodes the one length-prefixed message, runs the entry
 * and answers in one write. Everything else (reflection's bidi streams, compressed messages,
 * gRPC-Web, the Connect protocol, unknown methods) goes to connect-node.
 *
 * Wire format (gRPC over HTTP/2): request and response bodies are frames of
 * [compressed flag: 1 byte][length: 4 bytes big-endian][message]; the status goes in the
 * trailers ("grpc-status", "grpc-message"), or in the headers of a trailers-only answer.
 *
 * `answer` is the call as plain data (what the gRPC thread, front.ts, sends the main thread);
 * `serve` is the same on a server without that thread.
 */
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { fromBinary, toBinary, type Message } from '@bufbuild/protobuf';
import { GrpcStatus, QueryError, isQueryError, type QueryEntry, type QueryRouter } from '../services/types.js';
import { nullLogger, type Logger } from '../logger.js';
import { readBoundedBody } from '../limits/body.js';
import { KeptAnswers } from '../threads/keptAnswers.js';
import { FRAME_HEADER_BYTES, GRPC_HEIGHT_HEADER, MAX_KEPT_ANSWER, encodeGrpcMessage, isPlainGrpcCall, sendFrame, sendStatus, type UnaryAnswer, type UnaryCall } from './front.js';

export { GRPC_HEIGHT_HEADER, encodeGrpcMessage };

/** The height of `x-cosmos-block-height` metadata (0 when absent); InvalidArgument when malformed. */
export function parseHeightMetadata(raw: string | string[] | undefined): number {
  if (raw === undefined) return 0;
  const text = (Array.isArray(raw) ? raw[0] ?? '' : raw).split(',')[0]!.trim();
  if (text === '') return 0;
  const height = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(height)) {
    throw new QueryError('InvalidArgument', `invalid ${GRPC_HEIGHT_HEADER} metadata "${String(raw)}": expected a non-negative integer height`);
  }
  return height;
}

export class UnaryFastPath {
  private readonly byPath = new Map<string, QueryEntry>();
  /**
   * Answer frames of app queries at the latest state (no height metadata), by method and request
   * bytes, until the app's state height moves. Used by `serve` only: on the gRPC thread the front
   * keeps them.
   */
  private readonly kept: KeptAnswers<Uint8Array>;

  constructor(
    private readonly router: QueryRouter,
    private readonly maxRecvMsgBytes: number,
    private readonly maxSendMsgBytes: number,
    private readonly logger: Logger = nullLogger,
    keptEntries = 0,
  ) {
    for (const entry of router.entries()) if (entry.method.methodKind === 'unary') this.byPath.set(entry.path, entry);
    this.kept = new KeptAnswers(router.stateHeight === undefined ? 0 : keptEntries, () => router.stateHeight?.() ?? -1);
  }

  get keptAnswers(): number {
    return this.kept.size;
  }

  /** The methods this path serves, and those of them whose answers may be kept (the app's). */
  paths(): { unary: string[]; app: string[] } {
    const unary = [...this.byPath.keys()];
    return { unary, app: unary.filter((path) => this.byPath.get(path)!.source === 'app') };
  }

  /** Serves the call and returns true, or returns false to leave it to connect-node. */
  serve(req: Http2ServerRequest, res: Http2ServerResponse): boolean {
    if (!isPlainGrpcCall(req) || !this.byPath.has(req.url)) return false;
    readBoundedBody(req, this.maxRecvMsgBytes + FRAME_HEADER_BYTES, {
      checkDeclared: false,
      done: (body) => this.serveBody(req, res, body),
      tooLarge: (size) => sendStatus(res, GrpcStatus.ResourceExhausted, `grpc: received message larger than max (${size} vs. ${this.maxRecvMsgBytes})`, 0),
    });
    return true;
  }

  private serveBody(req: Http2ServerRequest, res: Http2ServerResponse, body: Buffer): void {
    const raw = req.headers[GRPC_HEIGHT_HEADER];
    const height = Array.isArray(raw) ? raw.join(',') : raw;
    // A call of an app method at the latest state gets the same answer until a block is
    // committed: the answer is kept under the method and the request bytes (a request longer
    // than an answer may be is not kept either: its bytes are the key).
    let key: string | undefined;
    if (this.kept.max > 0 && height === undefined && body.length <= MAX_KEPT_ANSWER && this.byPath.get(req.url)!.source === 'app') {
      key = `${req.url}\n${body.toString('latin1')}`;
      const frame = this.kept.get(key);
      if (frame !== undefined) {
        sendFrame(res, frame, this.kept.sync());
        return;
      }
    }
    void this.answer(height === undefined ? { path: req.url, body } : { path: req.url, body, height }).then((answer) => {
      if (!('frame' in answer)) {
        sendStatus(res, answer.code, answer.message, answer.height);
        return;
      }
      if (key !== undefined && answer.keep === true) this.kept.set(key, answer.frame, answer.height);
      sendFrame(res, answer.frame, answer.height);
    });
  }

  /**
   * One unary call → its message frame, or its status. Never rejects. `keep`: an app method's
   * answer at the latest state (no height metadata), short enough, read while no block came in.
   */
  readonly answer = async (call: UnaryCall): Promise<UnaryAnswer> => {
    const entry = this.byPath.get(call.path);
    let height = 0;
    try {
      if (entry === undefined) throw new QueryError('Unimplemented', `unknown method ${call.path}`);
      height = parseHeightMetadata(call.height);
      const request = this.decodeRequest(entry, call.body);
      const result = await entry.handle(request, { height });
      const bytes = toBinary(entry.method.output, result.response);
      if (bytes.length > this.maxSendMsgBytes) {
        throw new QueryError('ResourceExhausted', `grpc: trying to send message larger than max (${bytes.length} vs. ${this.maxSendMsgBytes})`);
      }
      const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + bytes.length);
      frame[0] = 0;
      frame.writeUInt32BE(bytes.length, 1);
      frame.set(bytes, FRAME_HEADER_BYTES);
      const keep =
        entry.source === 'app' && call.height === undefined && call.body.length <= MAX_KEPT_ANSWER && frame.length <= MAX_KEPT_ANSWER && result.height === this.router.stateHeight?.();
      return keep ? { frame, height: result.height, keep } : { frame, height: result.height };
    } catch (err) {
      const queryErr = isQueryError(err) ? err : new QueryError('Internal', err instanceof Error ? err.message : String(err), { cause: err });
      if (queryErr.grpcCode === GrpcStatus.Internal || queryErr.grpcCode === GrpcStatus.Unknown) {
        this.logger.error('gRPC query failed', { method: call.path, err: queryErr.message });
      } else {
        this.logger.debug('gRPC query refused', { method: call.path, code: queryErr.grpcName, err: queryErr.message });
      }
      return { code: queryErr.grpcCode, message: queryErr.message, height: height > 0 ? height : this.router.latestHeight() };
    }
  };

  private decodeRequest(entry: QueryEntry, body: Uint8Array): Message {
    if (body.length < FRAME_HEADER_BYTES) {
      if (body.length === 0) return fromBinary(entry.method.input, new Uint8Array(0));
      throw new QueryError('InvalidArgument', 'grpc: truncated message frame');
    }
    if (body[0] !== 0) throw new QueryError('InvalidArgument', 'grpc: compressed flag set with identity or empty encoding');
    const length = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(1);
    if (length !== body.length - FRAME_HEADER_BYTES) {
      throw new QueryError(length > body.length - FRAME_HEADER_BYTES ? 'InvalidArgument' : 'Unimplemented', 'grpc: a unary call must carry exactly one message');
    }
    try {
      return fromBinary(entry.method.input, body.subarray(FRAME_HEADER_BYTES));
    } catch (err) {
      // A client mistake: InvalidArgument, logged at debug (any client could otherwise fill the log).
      throw new QueryError('InvalidArgument', `grpc: error unmarshalling request: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
