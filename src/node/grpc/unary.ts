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
 */
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { fromBinary, toBinary, type Message } from '@bufbuild/protobuf';
import { GrpcStatus, QueryError, isQueryError, type QueryEntry, type QueryRouter } from '../services/types.js';
import { nullLogger, type Logger } from '../logger.js';
import { readBoundedBody } from '../limits/body.js';

export const GRPC_HEIGHT_HEADER = 'x-cosmos-block-height';
const FRAME_HEADER_BYTES = 5;

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

/** Longer answers (long listings) and longer requests are not kept. */
const MAX_KEPT_ANSWER = 64 * 1024;

export class UnaryFastPath {
  private readonly byPath = new Map<string, QueryEntry>();
  /**
   * Answer frames of app queries at the latest state (no height metadata), by method and request
   * bytes, valid while the app's state height is `keptHeight` (insertion order: the oldest goes first).
   */
  private readonly kept = new Map<string, Buffer>();
  private keptHeight = -1;

  constructor(
    private readonly router: QueryRouter,
    private readonly maxRecvMsgBytes: number,
    private readonly maxSendMsgBytes: number,
    private readonly logger: Logger = nullLogger,
    private readonly keptEntries = 0,
  ) {
    for (const entry of router.entries()) if (entry.method.methodKind === 'unary') this.byPath.set(entry.path, entry);
  }

  get keptAnswers(): number {
    return this.kept.size;
  }

  /** Serves the call and returns true, or returns false to leave it to connect-node. */
  serve(req: Http2ServerRequest, res: Http2ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    const contentType = req.headers['content-type'];
    if (contentType !== 'application/grpc' && contentType !== 'application/grpc+proto') return false;
    const encoding = req.headers['grpc-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return false;
    const entry = this.byPath.get(req.url);
    if (entry === undefined) return false;
    readBoundedBody(req, this.maxRecvMsgBytes + FRAME_HEADER_BYTES, {
      checkDeclared: false,
      done: (body) => void this.run(entry, req, res, body),
      tooLarge: (size) => this.sendStatus(res, GrpcStatus.ResourceExhausted, `grpc: received message larger than max (${size} vs. ${this.maxRecvMsgBytes})`, 0),
    });
    return true;
  }

  private async run(entry: QueryEntry, req: Http2ServerRequest, res: Http2ServerResponse, body: Buffer): Promise<void> {
    let height = 0;
    // A call of an app method at the latest state gets the same answer until a block is
    // committed: the answer is kept under the method and the request bytes.
    let key: string | undefined;
    // (A request longer than an answer may be is not kept either: its bytes are the key.)
    if (this.keptEntries > 0 && entry.source === 'app' && req.headers[GRPC_HEIGHT_HEADER] === undefined && body.length <= MAX_KEPT_ANSWER && this.router.stateHeight !== undefined) {
      const stateHeight = this.router.stateHeight();
      if (stateHeight !== this.keptHeight) {
        this.kept.clear();
        this.keptHeight = stateHeight;
      }
      key = `${entry.path}\n${body.toString('latin1')}`;
      const frame = this.kept.get(key);
      if (frame !== undefined) {
        this.sendFrame(res, frame, stateHeight);
        return;
      }
    }
    try {
      height = parseHeightMetadata(req.headers[GRPC_HEIGHT_HEADER]);
      const request = this.decodeRequest(entry, body);
      const result = await entry.handle(request, { height });
      const bytes = toBinary(entry.method.output, result.response);
      if (bytes.length > this.maxSendMsgBytes) {
        throw new QueryError('ResourceExhausted', `grpc: trying to send message larger than max (${bytes.length} vs. ${this.maxSendMsgBytes})`);
      }
      const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + bytes.length);
      frame[0] = 0;
      frame.writeUInt32BE(bytes.length, 1);
      frame.set(bytes, FRAME_HEADER_BYTES);
      if (key !== undefined && frame.length <= MAX_KEPT_ANSWER && result.height === this.keptHeight && result.height === this.router.stateHeight?.()) {
        if (this.kept.size >= this.keptEntries) this.kept.delete(this.kept.keys().next().value!);
        this.kept.set(key, frame);
      }
      this.sendFrame(res, frame, result.height);
    } catch (err) {
      const queryErr = isQueryError(err) ? err : new QueryError('Internal', err instanceof Error ? err.message : String(err), { cause: err });
      if (queryErr.grpcCode === GrpcStatus.Internal || queryErr.grpcCode === GrpcStatus.Unknown) {
        this.logger.error('gRPC query failed', { method: entry.path, err: queryErr.message });
      } else {
        this.logger.debug('gRPC query refused', { method: entry.path, code: queryErr.grpcName, err: queryErr.message });
      }
      this.sendStatus(res, queryErr.grpcCode, queryErr.message, height > 0 ? height : this.router.latestHeight());
    }
  }

  private decodeRequest(entry: QueryEntry, body: Buffer): Message {
    if (body.length < FRAME_HEADER_BYTES) {
      if (body.length === 0) return fromBinary(entry.method.input, new Uint8Array(0));
      throw new QueryError('InvalidArgument', 'grpc: truncated message frame');
    }
    if (body[0] !== 0) throw new QueryError('InvalidArgument', 'grpc: compressed flag set with identity or empty encoding');
    const length = body.readUInt32BE(1);
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

  /** An answer with its message frame, OK in the trailers. */
  private sendFrame(res: Http2ServerResponse, frame: Buffer, height: number): void {
    if (res.closed || res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/grpc', [GRPC_HEIGHT_HEADER]: String(height) });
    res.addTrailers({ 'grpc-status': '0' });
    res.end(frame);
  }

  /** An answer without a message: headers, then the status in the trailers. */
  private sendStatus(res: Http2ServerResponse, code: number, message: string, height: number): void {
    if (res.closed || res.destroyed) return;
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/grpc', [GRPC_HEIGHT_HEADER]: String(height) });
    res.addTrailers({ 'grpc-status': String(code), 'grpc-message': encodeGrpcMessage(message) });
    res.end();
  }
}
