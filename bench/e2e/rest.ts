/**
 * REST saturation for the end-to-end benchmark (issue 15's targets "saturating REST throughput
 * under load ≥ 0.7× idle" and "REST balance ≥ 0.8× bare node:http when idle"): the API bench's
 * closed-loop load generator (bench/api/loadgen.ts: undici, 50 connections, a 1 s warm-up) in its
 * own process, against the node's REST gateway and against a bare node:http server that answers
 * the very bytes the gateway answered, so that both move the same response over the same client.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOADGEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'api', 'loadgen.ts');
const CONCURRENCY = 50;

export interface Saturation {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** GETs the paths of `pathsFile` round-robin from `origin` as fast as answers come, for `seconds`. */
export function saturate(origin: string, pathsFile: string, seconds: number): Promise<Saturation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOADGEN, 'rest', origin, pathsFile, String(seconds), String(CONCURRENCY)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`REST load generator exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Saturation);
    });
  });
}

/** Writes the paths file (one path a line) the load generator reads. */
export function writePaths(file: string, paths: string[]): string {
  writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
}

/** The same load against a bare node:http server answering `body` (the gateway's own answer) with its headers' shape. */
export async function saturateBare(body: string, pathsFile: string, seconds: number): Promise<Saturation> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-cosmos-block-height': '1' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await saturate(`http://127.0.0.1:${port}`, pathsFile, seconds);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
