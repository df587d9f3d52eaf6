/**
 * readBoundedBody (limits/body.ts): a body within the limit arrives whole; a declared length over
 * the limit is refused before anything is read; a body that passes the limit while streaming is
 * refused once, at that point; gRPC's use skips the declared check.
 */
import { describe, expect, it } from '@jest/globals';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough } from 'node:stream';
import { readBoundedBody } from '../../../src/node/limits/body.js';

function request(headers: IncomingHttpHeaders = {}): PassThrough & { headers: IncomingHttpHeaders } {
  return Object.assign(new PassThrough(), { headers });
}

function outcome(req: PassThrough & { headers: IncomingHttpHeaders }, limit: number, checkDeclared?: boolean) {
  const seen: { done?: string; tooLarge: [number, boolean][]; error?: string } = { tooLarge: [] };
  readBoundedBody(req, limit, {
    done: (body) => (seen.done = body.toString()),
    tooLarge: (size, declared) => seen.tooLarge.push([size, declared]),
    error: (err) => (seen.error = err.message),
    ...(checkDeclared === undefined ? {} : { checkDeclared }),
  });
  return seen;
}

const ended = (req: PassThrough): Promise<void> => new Promise((resolve) => req.once('end', () => resolve()));

describe('readBoundedBody', () => {
  it('hands over a body within the limit, chunks joined', async () => {
    const req = request({ 'content-length': '10' });
    const seen = outcome(req, 10);
    req.write('hello');
    req.end('world');
    await ended(req);
    expect(seen).toEqual({ done: 'helloworld', tooLarge: [] });
  });

  it('refuses a declared length over the limit at once, without reading, and drains the rest', async () => {
    const req = request({ 'content-length': '11' });
    const seen = outcome(req, 10);
    expect(seen.tooLarge).toEqual([[11, true]]);
    req.end('hello world');
    await ended(req);
    expect(seen.done).toBeUndefined();
  });

  it('refuses a streamed body once, as soon as it passes the limit', async () => {
    const req = request({ 'transfer-encoding': 'chunked' });
    const seen = outcome(req, 10);
    req.write('123456');
    req.write('7890ab');
    req.end('cdef');
    await ended(req);
    expect(seen).toEqual({ tooLarge: [[12, false]] });
  });

  it('without the declared check (gRPC frames), only the bytes read count', async () => {
    const req = request({ 'content-length': '999' });
    const seen = outcome(req, 10, false);
    req.end('short');
    await ended(req);
    expect(seen).toEqual({ done: 'short', tooLarge: [] });
  });

  it('a read error is reported, and nothing else', async () => {
    const req = request();
    const seen = outcome(req, 10);
    req.write('abc');
    req.destroy(new Error('socket hang up'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual({ tooLarge: [], error: 'socket hang up' });
  });
});
