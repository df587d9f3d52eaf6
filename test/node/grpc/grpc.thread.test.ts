/**
 * grpc.test.ts again with the gRPC server's listening side on a thread of its own ([grpc]
 * http-thread): unary calls answered through the thread (and kept there), reflection's bidi
 * streams and gzip calls passed whole to the main thread's server — the same answers to
 * @grpc/grpc-js.
 */
import './onThread.js';
import './grpc.test.js';

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { toBinary, create } from '@bufbuild/protobuf';
import { GrpcServer } from '../../../src/node/grpc/index.js';
import { FrontThread } from '../../../src/node/threads/frontThread.js';
import { grpcMode } from './mode.js';
import { QueryAllBalancesRequestSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { alice, startFullNode, type FullNode } from '../services/helpers.js';

describe('gRPC on its own thread', () => {
  let node: FullNode;
  let server: GrpcServer;
  let target: string;

  beforeAll(async () => {
    node = await startFullNode();
    server = new GrpcServer({ router: node.router, options: { address: '127.0.0.1:0' }, thread: true });
    ({ target } = await server.start());
  });

  afterAll(async () => {
    await server.stop();
    await node.stop();
  });

  test('the suite above ran with the listening side on a thread of its own', () => {
    expect((server as unknown as { front: unknown }).front).toBeInstanceOf(FrontThread);
  });

  test('answers a kept unary call while the main thread is blocked', async () => {
    const message = toBinary(QueryAllBalancesRequestSchema, create(QueryAllBalancesRequestSchema, { address: alice.bech32 }));
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    // A plain HTTP/2 gRPC call: the answer's height header, status and message bytes.
    const source = `(target, frameHex) => new Promise((resolve, reject) => {
      const session = require('node:http2').connect('http://' + target);
      session.on('error', reject);
      const stream = session.request({ ':method': 'POST', ':path': '/cosmos.bank.v1beta1.Query/AllBalances', 'content-type': 'application/grpc', te: 'trailers' });
      const chunks = []; let head = {}; let trailers = {};
      stream.on('response', (h) => { head = h; });
      stream.on('trailers', (t) => { trailers = t; });
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => { session.close(); resolve(JSON.stringify([head['x-cosmos-block-height'], trailers['grpc-status'], Buffer.concat(chunks).toString('hex')])); });
      stream.end(Buffer.from(frameHex, 'hex'));
    })`;
    // The same function here (with this module's require) and in the child.
    const call = runInNewContext(source, { require: createRequire(import.meta.url), Buffer, JSON }) as (target: string, frameHex: string) => Promise<string>;
    const script = `(${source})(process.argv[1], process.argv[2]).then((a) => console.log(a), (e) => console.log('failed', e.message)); setTimeout(() => { console.log('timeout'); process.exit(1); }, 3000).unref();`;
    // spawnSync blocks this (the main) thread until the child exits: only the gRPC thread can
    // answer the child meanwhile, from what it kept. A block committed between the first answer
    // and the child's call drops what was kept (none can come while this thread is blocked): then
    // the check is made again.
    for (let attempt = 0; ; attempt++) {
      const first = await call(target, frame.toString('hex'));
      const [height, status] = JSON.parse(first) as [string, string];
      expect(status).toBe('0');
      const child = spawnSync(process.execPath, ['-e', script, target, frame.toString('hex')], { encoding: 'utf8' });
      if (child.stdout.trim() === first) break;
      expect(node.router.stateHeight!()).toBeGreaterThan(Number(height));
      expect(attempt).toBeLessThan(4);
    }
  });
});

test('the suite imported above built its servers with the thread on', () => {
  expect(grpcMode.thread).toBe(true);
});
