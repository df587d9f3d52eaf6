/**
 * Operating under faults (issue 14):
 *  - recovery: a storage fault stops the node; time from the cause removed (the supervisor's
 *    restart) to the next committed block;
 *  - idle connections each server holds at the descriptor limit 1024 (caps fitted by the node),
 *    with 2,000 idle sockets per server: how many stay open (the rest evicted, never refused);
 *  - the durable mempool's cost on CheckTx throughput: real signed bank sends through the real
 *    app's CheckTx on LevelDB, 64 in flight, memory-only vs durable, and the cost at 2,000 tx/s;
 *  - Prometheus scrape latency.
 *
 *   npx tsx bench/faults/faults.bench.ts        (or: npm run bench -- faults)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Mempool } from '../../src/node/consensus/mempool/mempool.js';
import { MempoolStore } from '../../src/node/consensus/mempool/store.js';
import { ensureDevnet } from '../../src/node/genesis/devnet.js';
import { nullLogger } from '../../src/node/logger.js';
import { startNode, type NodeOverrides, type RunningNode } from '../../src/node/node.js';
import type { Database } from '../../src/node/store/db/database.js';
import { makeKeys, sendTx, startChain } from '../app/send.bench.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function start(home: string, overrides: NodeOverrides = {}): Promise<RunningNode> {
  return startNode(home, {
    logger: nullLogger,
    rpcLaddr: 'tcp://127.0.0.1:0',
    apiAddress: 'tcp://127.0.0.1:0',
    grpcAddress: '127.0.0.1:0',
    p2pLaddr: 'tcp://127.0.0.1:0',
    ...overrides,
    nodeConfig: (c) => {
      c.consensus.timeoutCommitMs = 100;
      c.consensus.timeoutProposeMs = 1000;
      overrides.nodeConfig?.(c);
    },
  });
}

/** A database whose writes fail with ENOSPC once armed (as LevelDB reports it). */
function faulty(inner: Database, armed: { on: boolean }): Database {
  const listeners: ((source: string, fault: { code: 'ENOSPC'; meaning: string; detail: string }, err: unknown) => void)[] = [];
  const check = (): void => {
    if (!armed.on) return;
    const err = new Error(`IO error: ${inner.location}/000042.log: No space left on device`);
    for (const l of listeners) l('database batch write', { code: 'ENOSPC', meaning: 'no space left on device', detail: err.message }, err);
    throw err;
  };
  return {
    location: inner.location,
    getSync: (k) => inner.getSync(k),
    get: (k) => inner.get(k),
    getMany: (ks) => inner.getMany(ks),
    put: async (k, v) => (check(), inner.put(k, v)),
    del: async (k) => (check(), inner.del(k)),
    batch: async (ops, o) => (check(), inner.batch(ops, o)),
    entries: (r) => inner.entries(r),
    chunks: (r, n) => inner.chunks(r, n),
    keys: (r) => inner.keys(r),
    clear: async (r) => (check(), inner.clear(r)),
    close: () => inner.close(),
    onStorageFault: (l) => {
      listeners.push(l);
      return () => undefined;
    },
  };
}

async function recovery(dir: string, log: (line: string) => void): Promise<Row[]> {
  const home = join(dir, 'recovery');
  await ensureDevnet(home);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const armed = { on: false };
    const node = await start(home, { wrapDatabase: (db) => faulty(db, armed) });
    await until(() => node.consensus.status().latestBlockHeight >= 2 + i * 3);
    armed.on = true;
    await node.stopped;
    const halted = node.consensus.status().latestBlockHeight;
    await node.stop();
    // The cause is gone: the supervisor starts the node again.
    const t0 = performance.now();
    const again = await start(home);
    await until(() => again.consensus.status().latestBlockHeight > halted);
    samples.push(performance.now() - t0);
    await again.stop();
  }
  samples.sort((a, b) => a - b);
  log(`restart to next block: ${samples.map((s) => s.toFixed(0)).join(', ')} ms (timeout_commit 100 ms)`);
  return [{ name: 'fault removed → next block (restart, median)', value: samples[2]!, unit: 'ms' }];
}

async function idleConnections(dir: string, log: (line: string) => void): Promise<Row[]> {
  const home = join(dir, 'idle');
  await ensureDevnet(home);
  const node = await start(home, { descriptorLimit: 1024 });
  const rows: Row[] = [];
  try {
    const servers = [
      { name: 'rpc', port: node.rpcAddress.port },
      { name: 'rest', port: node.apiAddress!.port },
      { name: 'grpc', port: node.grpcAddress!.port },
    ];
    for (const server of servers) {
      const sockets: Socket[] = [];
      let closed = 0;
      for (let i = 0; i < 2000; i++) {
        const s = connect({ host: '127.0.0.1', port: server.port });
        s.on('error', () => undefined);
        // Read (and drop) what the server sends (HTTP/2 SETTINGS), so its close is seen at once.
        s.resume();
        s.once('close', () => closed++);
        sockets.push(s);
      }
      await until(() => sockets.every((s) => !s.connecting));
      // Let the server accept the whole flood (the kernel backlog releases it over SYN retries)
      // and its evictions reach us: until nothing changes for 2 s.
      const heightBefore = node.consensus.status().latestBlockHeight;
      let last = -1;
      let stableSince = performance.now();
      await until(() => {
        if (closed !== last) {
          last = closed;
          stableSince = performance.now();
        }
        return performance.now() - stableSince > 2000;
      });
      await until(() => node.consensus.status().latestBlockHeight >= heightBefore + 2);
      const stats = node.connections()[server.name === 'rest' ? 'api' : server.name]!;
      const held = stats.open;
      log(`${server.name}: ${held} of 2000 idle sockets held (cap ${stats.max} after fitting ulimit -n 1024), ${stats.evicted} evicted, ${stats.refused} refused; consensus +2 blocks meanwhile`);
      rows.push({ name: `idle sockets held, ${server.name} (ulimit -n 1024)`, value: held, unit: 'conns' });
      for (const s of sockets) s.destroy();
      await until(() => closed === 2000);
      await until(() => node.connections()[server.name === 'rest' ? 'api' : server.name]!.open === 0);
    }
  } finally {
    await node.stop();
  }
  return rows;
}

async function durableMempool(dir: string, log: (line: string) => void): Promise<Row[]> {
  const accounts = Number(process.env['FAULTS_BENCH_TXS'] ?? 6000);
  const keys = makeKeys(accounts + 1);
  const validator = keys[accounts]!;
  const senders = keys.slice(0, accounts);
  log(`signing ${accounts} bank sends (one per account)`);
  const txs = senders.map((k, i) => sendTx(k, senders[(i + 1) % accounts]!, 0n));
  let runs = 0;
  const measure = async (durable: boolean, paced: number | undefined): Promise<{ rate: number; cpuMsPerTx: number }> => {
    const chain = await startChain(join(dir, `mempool-${durable ? 'durable' : 'memory'}-${paced ?? 'max'}-${++runs}`), senders, validator, 1);
    try {
      const pool = new Mempool(chain.app, { size: accounts + 10 }, nullLogger, durable ? new MempoolStore(chain.db) : undefined);
      const half = Math.floor(txs.length / 3);
      for (const tx of txs.slice(0, half)) await pool.checkTx(tx); // warm-up
      const rest = txs.slice(half);
      let next = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const worker = async (): Promise<void> => {
        for (;;) {
          const i = next++;
          if (i >= rest.length) return;
          if (paced) {
            const due = t0 + (i * 1000) / paced;
            const wait = due - performance.now();
            if (wait > 1) await new Promise((r) => setTimeout(r, wait));
          }
          const res = await pool.checkTx(rest[i]!);
          if (res.code !== 0) throw new Error(`CheckTx ${res.code}: ${res.log}`);
        }
      };
      await Promise.all(Array.from({ length: 64 }, () => worker()));
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      return { rate: rest.length / seconds, cpuMsPerTx: (cpu.user + cpu.system) / 1000 / rest.length };
    } finally {
      await chain.close();
    }
  };
  // Interleaved, the first pair discarded (JIT and disk warm-up).
  await measure(false, undefined);
  await measure(true, undefined);
  const memory = await measure(false, undefined);
  const durable = await measure(true, undefined);
  const memoryPaced = await measure(false, 2000);
  const durablePaced = await measure(true, 2000);
  const costMax = (1 - durable.rate / memory.rate) * 100;
  const costPaced = (durablePaced.cpuMsPerTx / memoryPaced.cpuMsPerTx - 1) * 100;
  log(`CheckTx max: memory ${memory.rate.toFixed(0)} tx/s, durable ${durable.rate.toFixed(0)} tx/s (${costMax.toFixed(1)}% less)`);
  log(`at 2,000 tx/s offered: memory ${memoryPaced.rate.toFixed(0)} tx/s ${memoryPaced.cpuMsPerTx.toFixed(3)} ms CPU/tx, durable ${durablePaced.rate.toFixed(0)} tx/s ${durablePaced.cpuMsPerTx.toFixed(3)} ms CPU/tx (${costPaced.toFixed(1)}% more CPU)`);
  return [
    { name: 'CheckTx, memory mempool (max)', value: memory.rate, unit: 'tx/s' },
    { name: 'CheckTx, durable mempool (max)', value: durable.rate, unit: 'tx/s' },
    { name: 'durable mempool cost (max rate)', value: costMax, unit: '%' },
    { name: 'durable: rate at 2,000 tx/s offered', value: durablePaced.rate, unit: 'tx/s' },
    { name: 'durable mempool CPU cost at 2,000 tx/s', value: costPaced, unit: '%' },
  ];
}

async function scrape(dir: string, log: (line: string) => void): Promise<Row[]> {
  const home = join(dir, 'scrape');
  await ensureDevnet(home);
  const node = await start(home, {
    nodeConfig: (c) => {
      c.instrumentation.prometheus = true;
      c.instrumentation.prometheusListenAddr = '127.0.0.1:0';
    },
  });
  try {
    await until(() => node.consensus.status().latestBlockHeight >= 3);
    const samples: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t0 = performance.now();
      const res = await fetch(node.metricsAddress!.url);
      await res.text();
      if (i >= 20) samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    const p50 = samples[Math.floor(samples.length / 2)]!;
    const p99 = samples[Math.floor(samples.length * 0.99)]!;
    log(`scrape: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
    return [
      { name: 'metrics scrape p50', value: p50, unit: 'ms' },
      { name: 'metrics scrape p99', value: p99, unit: 'ms' },
    ];
  } finally {
    await node.stop();
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-faults-bench-'));
  try {
    const parts = (process.env['FAULTS_BENCH_PARTS'] ?? 'recovery,idle,mempool,scrape').split(',');
    const rows: Row[] = [];
    if (parts.includes('recovery')) rows.push(...(await recovery(dir, log)));
    if (parts.includes('idle')) rows.push(...(await idleConnections(dir, log)));
    if (parts.includes('mempool')) rows.push(...(await durableMempool(dir, log)));
    if (parts.includes('scrape')) rows.push(...(await scrape(dir, log)));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(2)} ${row.unit}\n`);
}
