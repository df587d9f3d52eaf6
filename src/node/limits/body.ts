/**
 * A request body read whole within a byte limit, for the node's HTTP servers (REST, CometBFT RPC,
 * gRPC's unary path, the Ethereum JSON-RPC).
 *
 *   readBoundedBody(req, limit, { done: (body) => …, tooLarge: (size) => … });
 *
 * `done` gets the body once it has all arrived. `tooLarge` is called instead, once: at once when
 * the request declares a content-length over the limit (the body is then drained unread), or as
 * soon as the bytes read pass it (what was read is dropped, the rest ignored); `size` is the
 * declared length (`declared` true) or the bytes read so far.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

export interface BoundedBodyHandlers {
  done(body: Buffer): void;
  tooLarge(size: number, declared: boolean): void;
  /** A read error (the client went away); nothing else is called then. */
  error?(err: Error): void;
  /** Refuse early on a declared content-length over the limit (default true). */
  checkDeclared?: boolean;
}

export function readBoundedBody(req: Readable & { headers: IncomingHttpHeaders }, limit: number, handlers: BoundedBodyHandlers): void {
  if (handlers.checkDeclared !== false) {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      handlers.tooLarge(declared, true);
      return;
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let stopped = false;
  req.on('data', (chunk: Buffer) => {
    if (stopped) return;
    size += chunk.length;
    if (size > limit) {
      stopped = true;
      chunks.length = 0;
      handlers.tooLarge(size, false);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!stopped) handlers.done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
  req.on('error', (err: Error) => {
    stopped = true;
    handlers.error?.(err);
  });
}
