/**
 * REST gateway and gRPC server benchmark: `GET /sdk/bank/v1beta1/balances/{address}` and
 * `/cosmos.bank.v1beta1.Query/AllBalances`, from a load generator in a second process
 * (bench/api/loadgen.ts: undici with 50 connections; @grpc/grpc-js with 50 calls in flight),
 * bounded in time, requests/s and p50/p99 latency.
 *
 * Three servers in the same run (machines here are shared and noisy: compare ratios); against the
 * real state, polling again is measured with the answers kept until the next block (the node's
 * default), with nothing kept, and with the REST gateway's HTTP side on its own thread:
 *   - real:  the app over LevelDB (temp dir) with API_BENCH_ACCOUNTS funded accounts (default
 *            50,000), queried for 10,000 different accounts round-robin;
 *   - fixed: a router whose AllBalances answers one fixed small response (the gateway's floor);
 *   - bare:  a plain node:http server answering a fixed JSON of the same size (REST only).
 *
 *   npx tsx bench/api/api.bench.ts
 *   API_BENCH_ACCOUNTS=10000 API_BENCH_SECONDS=3 npx tsx bench/api/api.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { create, toBinary, type Message } from '@bufbuild/protobuf';
import { QueryAllBalancesRequestSchema, QueryAllBalancesResponseSchema, Query as BankQuery } from '../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { PageResponseSchema } from '../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { toAccountAddress } from '../../src/keyring/address.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { ApiServer } from '../../src/node/api/index.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, type App } from '../../src/node/app/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { GrpcServer } from '../../src/node/grpc/index.js';
import { composeQueryRouter, createQueryRouter, nodeServiceEntries, type QueryRouter } from '../../src/node/services/index.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { benchGentx } from '../support/gentx.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ACCOUNTS = Number(process.env.API_BENCH_ACCOUNTS ?? 50_000);
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const CONCURRENCY = 50;
const QUERIED_ACCOUNTS = 10_000;
const CHAIN_ID = 'bench_9000-1';
const DENOM = 'attotoken';
const TOKEN = 10n ** 18n;

export function benchAddress(i: number): Uint8Array {
  return sha256(new TextEncoder().encode(`api-bench-account-${i}`)).slice(0, 20);
}

/** The app over LevelDB with `ACCOUNTS` funded accounts, one block committed. */
export async function realChain(dir: string): Promise<{ app: App; close(): Promise<void> }> {
  const validatorKey = sha256(new TextEncoder().encode('api-bench-validator'));
  const validator = keyPairFromPrivateKey('eth_secp256k1', validatorKey);
  const entries = Array.from({ length: ACCOUNTS }, (_, i) => ({ address: benchAddress(i), coins: [{ denom: DENOM, amount: BigInt(i + 1) * TOKEN }] }));
  entries.push({ address: validator.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] });
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, entries);
  appState = collectGentxs(appState, [benchGentx({ algo: 'eth_secp256k1', privateKey: validatorKey, consensusSeed: 'api-bench-cons', chainId: CHAIN_ID, denom: DENOM, selfDelegation: 1000n * TOKEN, gasLimit: 200_000n })], CHAIN_ID);
  const db = await openDatabase(dir);
  const opened = await openApp(db, { chainId: CHAIN_ID, sigVerifyWorkers: 0 });
  const time = new Date('2024-01-01T00:00:00Z');
  await opened.app.initChain({ time, chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
  await opened.app.finalizeBlock({
    txs: [],
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: new Uint8Array(32),
    height: 1,
    time,
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  });
  await opened.app.commit();
  return {
    app: opened.app,
    async close() {
      await opened.close();
      await db.close();
    },
  };
}

/** A router whose AllBalances answers one fixed response (the gateway's own cost). */
export function fixedRouter(): QueryRouter {
  const response = create(QueryAllBalancesResponseSchema, {
    balances: [create(CoinSchema, { denom: DENOM, amount: '1000000000000000000000' })],
    pagination: create(PageResponseSchema, { total: 1n }),
  });
  const entries = nodeServiceEntries(BankQuery, { allBalances: async () => response }, () => 1);
  return composeQueryRouter([entries], () => 1);
}

function loadgen(mode: 'rest' | 'grpc', target: string, file: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'loadgen.ts'), mode, target, file, String(SECONDS), String(CONCURRENCY)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

function rows(label: string, result: LoadResult): Row[] {
  if (result.errors > 0) process.stderr.write(`${label}: ${result.errors} failed requests\n`);
  return [
    { name: `${label} requests/s`, value: result.rps, unit: 'req/s' },
    { name: `${label} p50`, value: result.p50Ms, unit: 'ms' },
    { name: `${label} p99`, value: result.p99Ms, unit: 'ms' },
  ];
}

/**
 * REST then gRPC against `router`. `keep` false: no answers kept until the next block ([cache]
 * rest-responses / grpc-responses 0); `thread`: the gateway's HTTP side on its own thread.
 */
async function measure(router: QueryRouter, label: string, files: { paths: string; requests: string }, { keep = true, thread = false } = {}): Promise<Row[]> {
  const entries = keep ? 10_000 : 0;
  const api = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:0', answerCacheEntries: entries, thread } });
  const grpcServer = new GrpcServer({ router, options: { address: '127.0.0.1:0', answerCacheEntries: entries } });
  const { url } = await api.start();
  const { target } = await grpcServer.start();
  try {
    const rest = await loadgen('rest', url, files.paths);
    const grpc = await loadgen('grpc', target, files.requests);
    return [...rows(`REST balances (${label})`, rest), ...rows(`gRPC AllBalances (${label})`, grpc)];
  } finally {
    await api.stop();
    await grpcServer.stop();
  }
}

/** A plain node:http server answering a fixed JSON of the balance answer's size. */
async function measureBare(paths: string): Promise<Row[]> {
  const body = JSON.stringify({ balances: [{ denom: DENOM, amount: '1000000000000000000000' }], pagination: { next_key: null, total: '1' } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return rows('REST bare node:http (fixed JSON)', await loadgen('rest', `http://127.0.0.1:${port}`, paths));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-api-bench-'));
  try {
    const queried = Array.from({ length: Math.min(QUERIED_ACCOUNTS, ACCOUNTS) }, (_, i) => toAccountAddress(benchAddress(Math.floor((i * ACCOUNTS) / Math.min(QUERIED_ACCOUNTS, ACCOUNTS)))));
    const paths = join(dir, 'paths.txt');
    const requests = join(dir, 'requests.txt');
    await writeFile(paths, queried.map((address) => `/sdk/bank/v1beta1/balances/${address}`).join('\n'));
    await writeFile(
      requests,
      queried.map((address) => Buffer.from(toBinary(QueryAllBalancesRequestSchema, create(QueryAllBalancesRequestSchema, { address }))).toString('base64')).join('\n'),
    );
    const files = { paths, requests };

    log(`building the state: ${ACCOUNTS} accounts on LevelDB`);
    const started = performance.now();
    const chain = await realChain(join(dir, 'db'));
    const setupS = (performance.now() - started) / 1000;
    const out: Row[] = [{ name: `state setup (${ACCOUNTS} accounts, LevelDB)`, value: +setupS.toFixed(1), unit: 's' }];
    try {
      const router = createQueryRouter({ app: chain.app });
      const sample = await router.lookup('/cosmos.bank.v1beta1.Query/AllBalances')!.handle(create(QueryAllBalancesRequestSchema, { address: queried[1]! }) as Message, { height: 0 });
      if ((sample.response as unknown as { balances: unknown[] }).balances.length !== 1) throw new Error('the bench state has no balance for a queried account');
      log(`REST and gRPC against the real state, ${SECONDS} s each: first touch of ${queried.length} addresses, then polling them again`);
      out.push(...(await measure(router, `${ACCOUNTS} accounts, first poll`, files)));
      // A service provider polls the same deposit addresses over and over: the steady state.
      out.push(...(await measure(router, `${ACCOUNTS} accounts, polling again`, files)));
      // The same without the answers kept until the next block, and with REST on its own thread.
      out.push(...(await measure(router, `${ACCOUNTS} accounts, polling again, nothing kept`, files, { keep: false })));
      out.push(...(await measure(router, `${ACCOUNTS} accounts, polling again, REST on its own thread`, files, { thread: true })));
    } finally {
      await chain.close();
    }
    log('REST and gRPC against a fixed response, then bare node:http');
    out.push(...(await measure(fixedRouter(), 'fixed response', files)));
    out.push(...(await measureBare(paths)));
    const rps = (prefix: string, fixed: boolean): number =>
      out.find((row) => row.name.startsWith(prefix) && row.unit === 'req/s' && row.name.includes('fixed') === fixed)!.value;
    const bare = rps('REST bare', true);
    out.push({ name: 'REST balances (fixed response) / bare node:http', value: +(rps('REST balances (', true) / bare).toFixed(2), unit: 'ratio' });
    out.push({ name: 'REST balances (real state, first poll) / bare node:http', value: +(rps('REST balances (', false) / bare).toFixed(2), unit: 'ratio' });
    const polled = (server: string, suffix: string): number =>
      out.find((row) => row.name === `${server} (${ACCOUNTS} accounts, polling again${suffix}) requests/s`)!.value;
    out.push({ name: 'REST balances (real state, polling again) / bare node:http', value: +(polled('REST balances', '') / bare).toFixed(2), unit: 'ratio' });
    out.push({ name: 'REST balances (real state, polling again, own thread) / bare node:http', value: +(polled('REST balances', ', REST on its own thread') / bare).toFixed(2), unit: 'ratio' });
    out.push({ name: 'REST polling again: kept / nothing kept', value: +(polled('REST balances', '') / polled('REST balances', ', nothing kept')).toFixed(2), unit: 'ratio' });
    out.push({ name: 'gRPC polling again: kept / nothing kept', value: +(polled('gRPC AllBalances', '') / polled('gRPC AllBalances', ', nothing kept')).toFixed(2), unit: 'ratio' });
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await run();
  const width = Math.max(...result.map((row) => row.name.length));
  for (const row of result) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
