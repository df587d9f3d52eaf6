/**
 * RPC benchmark.
 *
 * 1. tx_search by recipient with 1M indexed txs (real LevelDB in a temp directory): the latency
 *    of page 1 and page 100 (per_page 100) for a recipient with 100k txs, the last page, a rare
 *    recipient, and a two-condition query — through the HTTP server, plus the indexing rate.
 * 2. requests/s and p50/p99 latency of `status` and `abci_query` (POST) and `status` (GET), from a
 *    load generator in a second process (undici, 50 connections, bounded in time), next to a bare
 *    node:http server answering a fixed 300-byte JSON in the same run (ratios matter on shared
 *    machines).
 *
 *   npx tsx bench/rpc/rpc.bench.ts
 *   RPC_BENCH_TXS=200000 RPC_BENCH_SECONDS=3 npx tsx bench/rpc/rpc.bench.ts
 *   RPC_BENCH_INDEX_DIR=/tmp/rpc-idx npx tsx bench/rpc/rpc.bench.ts   (build the 1M index once, reuse it)
 *   RPC_BENCH_TXS=0 …                                                  (throughput part only)
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import type { AbciEvent, ExecTxResult } from '../../src/node/abci/types.js';
import { EventBus } from '../../src/node/consensus/events.js';
import type { BlockStoreReader } from '../../src/node/consensus/store/blockStore.js';
import type { StateStoreReader } from '../../src/node/consensus/store/stateStore.js';
import type { MempoolReader } from '../../src/node/consensus/mempool/mempool.js';
import type { GenesisDoc } from '../../src/node/consensus/types/genesis.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { Ed25519PrivateKey, pubKeyAddress } from '../../src/node/consensus/types/keys.js';
import { openDatabase, type Database } from '../../src/node/store/db/database.js';
import { IndexerService } from '../../src/node/indexer/service.js';
import { NullBlockIndexer } from '../../src/node/indexer/blockIndex.js';
import { NullTxIndexer } from '../../src/node/indexer/txIndex.js';
import { Query } from '../../src/node/indexer/query.js';
import type { TxIndexer } from '../../src/node/indexer/types.js';
import { RpcServer } from '../../src/node/rpc/server.js';
import type { RpcEnvironment } from '../../src/node/rpc/environment.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const TXS_PER_BLOCK = 1000;
const HOT_EVERY = 10; // every 10th tx goes to the hot recipient: 100k of 1M
const COLD_RECIPIENTS = 50_000;
const SENDERS = 20_000;
const PER_PAGE = 100;
const SAMPLES = 30;
const WARMUP_SAMPLES = 10;

const enc = new TextEncoder();

function address(kind: string, n: number): string {
  return `token1${kind}${n.toString(36).padStart(8, '0')}qy352eufqy352eufqy352euf`;
}

const HOT = address('hot', 0);
const RARE = address('rare', 0);

function txEvents(n: number): AbciEvent[] {
  const sender = address('s', n % SENDERS);
  const recipient = n % HOT_EVERY === 0 ? HOT : n % 100_003 === 7 ? RARE : address('r', (n * 7919) % COLD_RECIPIENTS);
  const amount = `${(n * 37) % 100_000}attotoken`;
  const attr = (key: string, value: string): { key: string; value: string; index: boolean } => ({ key, value, index: true });
  return [
    { type: 'message', attributes: [attr('action', '/cosmos.bank.v1beta1.MsgSend'), attr('sender', sender)] },
    { type: 'transfer', attributes: [attr('recipient', recipient), attr('sender', sender), attr('amount', amount)] },
  ];
}

/** Index `total` txs into a fresh LevelDB; returns the indexer service and the indexing rate. */
async function buildIndex(db: Database, total: number, log: (line: string) => void): Promise<{ service: IndexerService; txsPerSecond: number }> {
  const service = new IndexerService({
    db,
    blockStore: { base: () => 0, height: () => 0 } as unknown as BlockStoreReader,
    stateStore: {} as StateStoreReader,
    eventBus: new EventBus(),
  });
  const started = performance.now();
  const blocks = Math.ceil(total / TXS_PER_BLOCK);
  for (let b = 0; b < blocks; b++) {
    const txs: Uint8Array[] = [];
    const results: ExecTxResult[] = [];
    for (let i = 0; i < TXS_PER_BLOCK && b * TXS_PER_BLOCK + i < total; i++) {
      const n = b * TXS_PER_BLOCK + i;
      txs.push(enc.encode(`bench-tx-${n}-${'x'.repeat(180)}`));
      results.push({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 200_000n, gasUsed: 65_000n, events: txEvents(n), codespace: '' });
    }
    await service.indexBlock(b + 1, txs, results, [{ type: 'mint', attributes: [{ key: 'amount', value: String(b), index: true }] }]);
    if ((b + 1) % 100 === 0) log(`rpc bench: indexed ${(b + 1) * TXS_PER_BLOCK} txs`);
  }
  const seconds = (performance.now() - started) / 1000;
  return { service, txsPerSecond: Math.round(total / seconds) };
}

export function benchEnvironment(overrides: Partial<RpcEnvironment>): RpcEnvironment {
  const key = Ed25519PrivateKey.generate();
  const pubKey = key.pubKey;
  const genesis: GenesisDoc = {
    genesisTime: { seconds: 1_700_000_000, nanos: 0 },
    chainId: 'bench',
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: [{ address: pubKeyAddress(pubKey), pubKey, power: 10n, name: 'v' }],
    appHash: new Uint8Array(0),
    appStateJson: '{}',
    layout: 'cometbft',
  };
  const hash = new Uint8Array(32).fill(7);
  const values = new Map<string, Uint8Array>([['balance', enc.encode('x'.repeat(100))]]);
  return {
    blockStore: { base: () => 1, height: () => 1000, loadBlock: () => undefined } as unknown as BlockStoreReader,
    stateStore: {} as StateStoreReader,
    mempool: {} as MempoolReader,
    eventBus: new EventBus(),
    genesis,
    app: {
      info: async () => ({ data: 'bench', version: '1', appVersion: 1n, lastBlockHeight: 1000, lastBlockAppHash: hash }),
      checkTx: async () => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' }),
      query: async (req) => ({
        code: 0,
        log: '',
        info: '',
        index: 0n,
        key: req.data,
        value: values.get(new TextDecoder().decode(req.data)) ?? new Uint8Array(0),
        height: 1000,
        codespace: '',
      }),
    },
    status: () => ({
      chainId: 'bench',
      nodeId: 'ab'.repeat(20),
      latestBlockHash: hash,
      latestAppHash: hash,
      latestBlockHeight: 1000,
      latestBlockTime: { seconds: 1_700_001_000, nanos: 123_456_789 },
      earliestBlockHash: hash,
      earliestAppHash: hash,
      earliestBlockHeight: 1,
      earliestBlockTime: { seconds: 1_700_000_000, nanos: 0 },
      catchingUp: false,
      validatorInfo: { address: pubKeyAddress(pubKey), pubKey, votingPower: 10n },
    }),
    nodeInfo: () => ({ id: 'ab'.repeat(20), listenAddr: 'tcp://0.0.0.0:26656', network: 'bench', moniker: 'bench' }),
    txIndexer: new NullTxIndexer(),
    blockIndexer: new NullBlockIndexer(),
    ...overrides,
  };
}

async function timeCall(pool: Pool, method: string, params: Record<string, unknown>): Promise<{ ms: number; result: Record<string, unknown> }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const t0 = performance.now();
  const res = await pool.request({ path: '/', method: 'POST', body, headers: { 'content-type': 'application/json' } });
  const text = await res.body.text();
  const ms = performance.now() - t0;
  const parsed = JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
  if (!parsed.result) throw new Error(`${method} failed: ${text.slice(0, 300)}`);
  return { ms, result: parsed.result };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function latency(pool: Pool, params: Record<string, unknown>): Promise<{ coldMs: number; ms: number; total: number; count: number }> {
  const times: number[] = [];
  const cold = await timeCall(pool, 'tx_search', params);
  let result: Record<string, unknown> = cold.result;
  for (let i = 0; i < WARMUP_SAMPLES; i++) await timeCall(pool, 'tx_search', params);
  for (let i = 0; i < SAMPLES; i++) {
    const r = await timeCall(pool, 'tx_search', params);
    times.push(r.ms);
    result = r.result;
  }
  return { coldMs: +cold.ms.toFixed(2), ms: +median(times).toFixed(2), total: Number(result['total_count']), count: (result['txs'] as unknown[]).length };
}

/** The same search straight on the indexer (no HTTP, no JSON): median of SAMPLES after warm-up. */
async function directLatency(indexer: TxIndexer, query: string, page: number): Promise<number> {
  const q = Query.parse(query);
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    await indexer.search(q, { page, perPage: PER_PAGE, orderBy: 'asc' });
    return performance.now() - t0;
  };
  for (let i = 0; i < WARMUP_SAMPLES; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await once());
  return +median(times).toFixed(2);
}

async function openIndex(total: number, log: (line: string) => void): Promise<{ db: Database; service: IndexerService; txsPerSecond?: number; cleanup: () => Promise<void> }> {
  const keep = process.env['RPC_BENCH_INDEX_DIR'];
  const dir = keep ?? (await mkdtemp(join(tmpdir(), 'tokend-rpc-bench-')));
  const db = await openDatabase(join(dir, 'db'));
  const cleanup = async (): Promise<void> => {
    await db.close();
    if (!keep) await rm(dir, { recursive: true, force: true });
  };
  const existing = new IndexerService({ db, blockStore: { base: () => 0, height: () => 0 } as unknown as BlockStoreReader, stateStore: {} as StateStoreReader, eventBus: new EventBus() });
  if (keep && existing.txIndexer.indexedRange().count === total) {
    log(`rpc bench: reusing the index of ${total} txs in ${dir}`);
    return { db, service: existing, cleanup };
  }
  if (existing.txIndexer.indexedRange().count > 0) {
    await cleanup();
    throw new Error(`${dir} holds a different index; remove it or unset RPC_BENCH_INDEX_DIR`);
  }
  log(`rpc bench: indexing ${total} txs (5 indexed attributes each)`);
  const { service, txsPerSecond } = await buildIndex(db, total, log);
  return { db, service, txsPerSecond, cleanup };
}

async function benchSearch(rows: Row[], log: (line: string) => void): Promise<void> {
  const total = Number(process.env['RPC_BENCH_TXS'] ?? 1_000_000);
  if (!(total > 0)) return;
  const { service, txsPerSecond, cleanup } = await openIndex(total, log);
  try {
    if (txsPerSecond !== undefined) rows.push({ name: `tx index: indexing rate (${total / 1e6}M txs, blocks of ${TXS_PER_BLOCK})`, value: txsPerSecond, unit: 'txs/s' });
    const server = new RpcServer({ env: benchEnvironment({ txIndexer: service.txIndexer, blockIndexer: service.blockIndexer }), options: { laddr: 'tcp://127.0.0.1:0' } });
    const { url } = await server.start();
    const pool = new Pool(url, { connections: 1 });
    try {
      const hotQuery = `transfer.recipient='${HOT}'`;
      const hotTotal = Math.ceil(total / HOT_EVERY);
      const lastPage = Math.ceil(hotTotal / PER_PAGE);
      const label = `${hotTotal >= 1000 ? `${hotTotal / 1000}k` : hotTotal} txs`;
      const cases: [string, Record<string, unknown>][] = [
        [`tx_search recipient with ${label}: page 1 (per_page ${PER_PAGE})`, { query: hotQuery, per_page: String(PER_PAGE) }],
        [`tx_search recipient with ${label}: page 100`, { query: hotQuery, per_page: String(PER_PAGE), page: '100' }],
        [`tx_search recipient with ${label}: last page (${lastPage})`, { query: hotQuery, per_page: String(PER_PAGE), page: String(lastPage) }],
        [`tx_search recipient with ${label}: page 100, order desc`, { query: hotQuery, per_page: String(PER_PAGE), page: '100', order_by: 'desc' }],
        [`tx_search recipient with ${label} AND tx.height window: page 1`, { query: `${hotQuery} AND tx.height > ${Math.floor(total / TXS_PER_BLOCK / 2)}`, per_page: String(PER_PAGE) }],
        ['tx_search rare recipient (few txs): page 1', { query: `transfer.recipient='${RARE}'`, per_page: String(PER_PAGE) }],
        ['tx_search sender (≈50 txs) AND hot recipient: page 1', { query: `message.sender='${address('s', 10)}' AND ${hotQuery}`, per_page: String(PER_PAGE) }],
      ];
      for (const [name, params] of cases) {
        const r = await latency(pool, params);
        log(`rpc bench: ${name}: ${r.ms} ms (first call ${r.coldMs} ms; total_count ${r.total}, ${r.count} txs)`);
        rows.push({ name: `${name} over HTTP [total_count ${r.total}]`, value: r.ms, unit: 'ms' });
        if (name.includes('page 1 (per_page')) rows.push({ name: `${name} over HTTP, first call (cold caches)`, value: r.coldMs, unit: 'ms' });
      }
      for (const page of [1, 100]) {
        const ms = await directLatency(service.txIndexer, hotQuery, page);
        log(`rpc bench: indexer.search page ${page} in-process: ${ms} ms`);
        rows.push({ name: `tx index search recipient with ${label}: page ${page}, in-process (no HTTP/JSON)`, value: ms, unit: 'ms' });
      }
    } finally {
      await pool.close();
      await server.stop();
    }
  } finally {
    await cleanup();
  }
}

interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

function loadgen(url: string, method: string, params: Record<string, unknown>, seconds: number, connections: number, mode: 'post' | 'get' = 'post'): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'loadgen.ts'), url, method, JSON.stringify(params), String(seconds), String(connections), mode], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) reject(new Error(`load generator failed (${code}): ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

async function benchThroughput(rows: Row[], log: (line: string) => void): Promise<void> {
  const seconds = Number(process.env['RPC_BENCH_SECONDS'] ?? 5);
  const connections = 50;
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { value: 'x'.repeat(250) } });
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const server = new RpcServer({ env: benchEnvironment({}), options: { laddr: 'tcp://127.0.0.1:0' } });
  const { url } = await server.start();
  try {
    const runs: [string, string, string, Record<string, unknown>, 'post' | 'get'][] = [
      ['bare node:http (300 B JSON)', bareUrl, 'status', {}, 'post'],
      ['status POST', url, 'status', {}, 'post'],
      ['status GET', url, 'status', {}, 'get'],
      ['abci_query POST', url, 'abci_query', { path: '/store/key', data: Buffer.from('balance').toString('hex') }, 'post'],
    ];
    let bareRps = 0;
    for (const [name, target, method, params, mode] of runs) {
      const r = await loadgen(target, method, params, seconds, connections, mode);
      log(`rpc bench: ${name}: ${r.rps} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}`);
      if (r.errors > 0) throw new Error(`${name}: ${r.errors} failed requests`);
      rows.push({ name: `${name}: requests/s (${connections} conns, 2nd process)`, value: r.rps, unit: 'req/s' });
      rows.push({ name: `${name}: p50 latency`, value: r.p50Ms, unit: 'ms' });
      rows.push({ name: `${name}: p99 latency`, value: r.p99Ms, unit: 'ms' });
      if (name.startsWith('bare')) bareRps = r.rps;
      else rows.push({ name: `${name}: throughput vs bare node:http`, value: +(r.rps / bareRps).toFixed(2), unit: 'x' });
    }
  } finally {
    await server.stop();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const rows: Row[] = [];
  await benchThroughput(rows, log);
  await benchSearch(rows, log);
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const progress = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const rows = await run(progress);
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
