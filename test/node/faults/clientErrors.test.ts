/**
 * Client mistakes are answered as such (issue 14): a malformed gRPC request is InvalidArgument, a
 * garbage REST simulate is HTTP 400, and neither writes an ERR line (logged at debug), so no
 * client can fill the error log.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { connect } from 'node:http2';
import type { RunningNode } from '../../../src/node/node.js';
import { CapturingLogger, devnetHome, removeHomes, startFast, waitFor } from './helpers.js';

jest.setTimeout(60_000);

const homes: string[] = [];
const logger = new CapturingLogger();
let node: RunningNode;

beforeAll(async () => {
  node = await startFast(await devnetHome('client-errors', homes), { logger });
  await waitFor(() => node.consensus.status().latestBlockHeight >= 2, 'height 2');
});

afterAll(async () => {
  await node?.stop();
  removeHomes(homes);
});

/** One raw gRPC unary call: `payload` is put in one frame as is (not necessarily valid protobuf). */
async function grpcCall(path: string, payload: Uint8Array): Promise<{ status: string | undefined; message: string | undefined }> {
  const client = connect(`http://${node.grpcAddress!.host}:${node.grpcAddress!.port}`);
  try {
    return await new Promise((resolve, reject) => {
      const frame = Buffer.alloc(5 + payload.length);
      frame.writeUInt32BE(payload.length, 1);
      frame.set(payload, 5);
      const req = client.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' });
      let headers: Record<string, unknown> = {};
      req.on('response', (h) => (headers = h));
      req.on('trailers', (t) => (headers = { ...headers, ...t }));
      req.on('data', () => undefined);
      req.on('end', () => resolve({ status: headers['grpc-status'] as string | undefined, message: headers['grpc-message'] as string | undefined }));
      req.on('error', reject);
      req.end(frame);
    });
  } finally {
    client.close();
  }
}

describe('client mistakes', () => {
  it('gRPC: an undecodable request is InvalidArgument and not an ERR line', async () => {
    const before = logger.errors().length;
    const res = await grpcCall('/cosmos.bank.v1beta1.Query/Balance', new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    expect(res.status).toBe('3');
    expect(decodeURIComponent(res.message ?? '')).toMatch(/error unmarshalling request/);
    const truncated = await grpcCall('/cosmos.tx.v1beta1.Service/Simulate', new Uint8Array([0x0a, 0x05, 0x01]));
    expect(truncated.status).toBe('3');
    expect(logger.errors().slice(before)).toEqual([]);
  });

  it('gRPC: simulating garbage tx bytes is InvalidArgument', async () => {
    const before = logger.errors().length;
    // SimulateRequest{tx_bytes (field 2) = "garbage"}
    const garbage = Buffer.from('garbage');
    const res = await grpcCall('/cosmos.tx.v1beta1.Service/Simulate', new Uint8Array([0x12, garbage.length, ...garbage]));
    expect(res.status).toBe('3');
    expect(logger.errors().slice(before)).toEqual([]);
  });

  it('REST: a garbage simulate is HTTP 400 with code 3, not an ERR line', async () => {
    const before = logger.errors().length;
    const res = await fetch(`${node.apiAddress!.url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: JSON.stringify({ tx_bytes: Buffer.from('garbage').toString('base64') }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(3);
    const notJson = await fetch(`${node.apiAddress!.url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: '{not json' });
    expect(notJson.status).toBe(400);
    expect(logger.errors().slice(before)).toEqual([]);
    expect(logger.lines.some((l) => l.level === 'debug' && l.msg === 'REST request refused')).toBe(true);
  });
});
