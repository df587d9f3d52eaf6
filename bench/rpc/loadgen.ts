/**
 * HTTP load generator for the RPC benchmark, run as a separate process:
 *
 *   node --import tsx bench/rpc/loadgen.ts <url> <method> <paramsJson> <seconds> <connections> [get]
 *
 * Keeps `connections` requests in flight on an undici Pool for `seconds` (after a 1 s warm-up)
 * and prints {requests, errors, seconds, rps, p50Ms, p99Ms} as JSON on stdout.
 */
import { Pool } from 'undici';

const [url = '', method = 'status', paramsJson = '{}', secondsText = '5', connectionsText = '50', mode = 'post'] = process.argv.slice(2);
const seconds = Number(secondsText);
const connections = Number(connectionsText);
const WARMUP_MS = 1000;
const { origin } = new URL(url);
const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: JSON.parse(paramsJson) as unknown });
const getPath = `/${method}`;

const latencies = new Float64Array(5_000_000);
let count = 0;
let errors = 0;
const start = performance.now();
const measureFrom = start + WARMUP_MS;
const deadline = measureFrom + seconds * 1000;

async function worker(): Promise<void> {
  for (;;) {
    const t0 = performance.now();
    if (t0 >= deadline) return;
    try {
      const res =
        mode === 'get'
          ? await pool.request({ path: getPath, method: 'GET' })
          : await pool.request({ path: '/', method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
    } catch {
      errors++;
    }
    const t1 = performance.now();
    if (t0 >= measureFrom && count < latencies.length) latencies[count++] = t1 - t0;
  }
}

await Promise.all(Array.from({ length: connections }, () => worker()));
await pool.close();
const sorted = latencies.subarray(0, count).sort();
const pick = (q: number): number => (count === 0 ? 0 : sorted[Math.min(count - 1, Math.floor(q * count))]!);
process.stdout.write(
  `${JSON.stringify({ requests: count, errors, seconds, rps: Math.round(count / seconds), p50Ms: +pick(0.5).toFixed(3), p99Ms: +pick(0.99).toFixed(3) })}\n`,
);
