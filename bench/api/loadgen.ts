/**
 * Load generator for the API benchmark, run as a separate process:
 *
 *   node --import tsx bench/api/loadgen.ts rest <origin> <pathsFile> <seconds> <concurrency>
 *   node --import tsx bench/api/loadgen.ts grpc <host:port> <requestsFile> <seconds> <concurrency>
 *
 * REST: undici Pool with <concurrency> connections, GET of the paths in <pathsFile> (one a line,
 * taken round-robin). gRPC: @grpc/grpc-js, <concurrency> calls in flight of
 * /cosmos.bank.v1beta1.Query/AllBalances over 4 channels, request bytes from <requestsFile>
 * (base64, one a line; pre-serialized so that the client spends no time encoding).
 *
 * Runs for <seconds> after a 1 s warm-up and prints {requests, errors, seconds, rps, p50Ms,
 * p99Ms} as JSON on stdout.
 */
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { Pool } from 'undici';

const [mode = 'rest', target = '', file = '', secondsText = '5', concurrencyText = '50'] = process.argv.slice(2);
const seconds = Number(secondsText);
const concurrency = Number(concurrencyText);
const WARMUP_MS = 1000;
const GRPC_CHANNELS = 4;
const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

const latencies = new Float64Array(10_000_000);
let count = 0;
let errors = 0;
let next = 0;
const start = performance.now();
const measureFrom = start + WARMUP_MS;
const deadline = measureFrom + seconds * 1000;

function record(t0: number): void {
  const t1 = performance.now();
  if (t0 >= measureFrom && count < latencies.length) latencies[count++] = t1 - t0;
}

async function restWorker(pool: Pool): Promise<void> {
  for (;;) {
    const t0 = performance.now();
    if (t0 >= deadline) return;
    const path = lines[next++ % lines.length]!;
    try {
      const res = await pool.request({ path, method: 'GET' });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
    } catch {
      errors++;
    }
    record(t0);
  }
}

const identity = (bytes: Buffer): Buffer => bytes;

async function grpcWorker(client: grpc.Client, requests: Buffer[]): Promise<void> {
  for (;;) {
    const t0 = performance.now();
    if (t0 >= deadline) return;
    const request = requests[next++ % requests.length]!;
    await new Promise<void>((resolve) => {
      client.makeUnaryRequest('/cosmos.bank.v1beta1.Query/AllBalances', identity, identity, request, (err) => {
        if (err) errors++;
        resolve();
      });
    });
    record(t0);
  }
}

if (mode === 'rest') {
  const pool = new Pool(target, { connections: concurrency, pipelining: 1, keepAliveTimeout: 60_000 });
  await Promise.all(Array.from({ length: concurrency }, () => restWorker(pool)));
  await pool.close();
} else {
  const requests = lines.map((line) => Buffer.from(line, 'base64'));
  const clients = Array.from(
    { length: GRPC_CHANNELS },
    (_, i) => new grpc.Client(target, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1, 'grpc.channel_id': i }),
  );
  await Promise.all(Array.from({ length: concurrency }, (_, i) => grpcWorker(clients[i % GRPC_CHANNELS]!, requests)));
  for (const client of clients) client.close();
}

const sorted = latencies.subarray(0, count).sort();
const pick = (q: number): number => (count === 0 ? 0 : sorted[Math.min(count - 1, Math.floor(q * count))]!);
process.stdout.write(
  `${JSON.stringify({ requests: count, errors, seconds, rps: Math.round(count / seconds), p50Ms: +pick(0.5).toFixed(3), p99Ms: +pick(0.99).toFixed(3) })}\n`,
);
