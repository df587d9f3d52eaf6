/**
 * End-to-end throughput, as a user sees it (issue 15): a real node (the built binary, so
 * `npm run build` first; fast blocks, loopback ports) and a separate load-generator process
 * (bench/e2e/loadgen.ts) submitting pre-signed bank sends from many accounts over
 * `broadcast_tx_sync` with 50 connections. Commits are counted from the blocks themselves; the
 * in-process figure (bench/app) is measured in the same run, for the ratio.
 *
 *   npx tsx bench/e2e/e2e.bench.ts
 *   E2E_ACCOUNTS=2000 E2E_TXS_PER_ACCOUNT=3 E2E_BLOCK=1s E2E_LOAD_SECONDS=20 npx tsx bench/e2e/e2e.bench.ts
 *
 * Phases: (1) REST balance polling at 200 req/s on the idle node (p99), then REST saturated (50
 * connections, closed loop, E2E_REST_SECONDS) against the node and against a bare node:http server
 * answering the same bytes (bench/e2e/rest.ts); (2) saturation: every pre-signed tx submitted as
 * fast as the node answers → committed tx/s and submit→commit latency p50/p99; (3) 500 tx/s for
 * E2E_LOAD_SECONDS while REST is polled at 200 req/s (p99 under load), then REST saturated while
 * the 500 tx/s go on; node RSS sampled every second throughout (start, peak, after the load).
 *
 * E2E_PROBES=1: while REST is polled under the 500 tx/s phase, the same balance is also read
 * through the CometBFT RPC (`abci_query` of bank's Balance, GET), the Ethereum JSON-RPC
 * (`eth_getBalance`, POST) and gRPC (bank's Balance, unary), each at 100 req/s from its own
 * process: their p99 against the same reads on the idle node (phase 1). Off by default: the two more processes compete for the same
 * two cores and raise REST's own p99 under load (the issue's target is measured without them).
 *
 * E2E_NODE_PROFILE=<dir> makes the node write a CPU profile (node --cpu-prof) into <dir>.
 * E2E_JSON_RPC_THREAD=0|1: app.toml [json-rpc] http-thread for the node (default: as init writes it).
 * E2E_RPC_THREAD=0|1: config.toml [rpc] http_thread for the node (default: as init writes it).
 * E2E_GRPC_THREAD=0|1: app.toml [grpc] http-thread for the node (default: as init writes it).
 * E2E_HEAP_GROWING_PERCENT: app.toml [memory] heap-growing-percent for the node (default: as init writes it).
 * E2E_NODE_ARGS: extra node options for the node process (space-separated, e.g. V8 flags).
 * E2E_SETTLE_SECONDS (default 60): how long after the load the settled RSS is read.
 * E2E_MEMLOG=<dir>: the node runs with bench/e2e/memlog.mjs preloaded, logging its memory every
 * second to <dir>/memlog.jsonl and marking the start, the end of the load and the settled point
 * (E2E_MEMLOG_GC=1: each mark also after a full GC; E2E_HEAPSNAP=1: and a heap snapshot in <dir>,
 * summarised by bench/e2e/heapsummary.mjs; E2E_ALLOCPROF=1: what the node allocated from the start
 * mark to the end of the load, by function, in <dir>/alloc-2.heapprofile, summarised by
 * bench/e2e/allocsummary.mjs; E2E_ALLOCPROF=promoted: only what outlived the young generation).
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addGenesisAccounts } from '../../src/node/app/index.js';
import { sha256 } from '../../src/keyring/hash.js';
import { CHAIN_ID, DENOM, makeKeys, sendTx, type Key } from '../app/send.bench.js';
import { saturate, saturateBare, writePaths } from './rest.js';
import { setAppTomlKey, setConfigTomlKey } from '../support/appToml.js';
import { cpuMs, rssMiB } from '../support/proc.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'run.js');
const LOADGEN = join(ROOT, 'bench', 'e2e', 'loadgen.ts');

function tokend(args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`tokend ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function rpc<T>(url: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const reply = (await res.json()) as { result?: T; error?: unknown };
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
}

async function latestHeight(url: string): Promise<number> {
  return Number((await rpc<{ sync_info: { latest_block_height: string } }>(url, 'status')).sync_info.latest_block_height);
}

/** Run the load generator; resolves with the JSON it prints. */
function loadgen(args: string[]): { done: Promise<Record<string, unknown>>; child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', LOADGEN, ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, unknown>) : reject(new Error(`loadgen ${args[0]} exited ${code}`))));
  });
  return { done, child };
}

/** cosmos.bank.v1beta1.QueryBalanceRequest {address = 1, denom = 2}, encoded by hand (two short strings). */
function balanceRequest(address: string, denom: string): Uint8Array {
  const a = Buffer.from(address);
  const d = Buffer.from(denom);
  return Buffer.concat([Buffer.from([0x0a, a.length]), a, Buffer.from([0x12, d.length]), d]);
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Watches new heights: when each was first seen, and which tx (by hash) it committed. */
class CommitWatcher {
  readonly seenAt = new Map<number, number>();
  readonly committedAt = new Map<string, number>();
  committedOk = 0;
  private height: number;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    from: number,
  ) {
    this.height = from;
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const latest = await latestHeight(this.url).catch(() => this.height);
        const now = Date.now();
        for (let h = this.height + 1; h <= latest; h++) {
          if (!this.seenAt.has(h)) this.seenAt.set(h, now);
          let block, results;
          try {
            [block, results] = await Promise.all([
              rpc<{ block: { data: { txs: string[] | null } } }>(this.url, 'block', { height: String(h) }),
              rpc<{ txs_results: { code: number }[] | null }>(this.url, 'block_results', { height: String(h) }),
            ]);
          } catch {
            break; // results not stored yet: try this height again next round
          }
          const seen = this.seenAt.get(h)!;
          const txs = block.block.data.txs ?? [];
          (results.txs_results ?? []).forEach((result, i) => {
            if (result.code !== 0) return;
            this.committedOk++;
            this.committedAt.set(Buffer.from(sha256(Buffer.from(txs[i]!, 'base64'))).toString('hex'), seen);
          });
          this.height = h;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Wait until `count` txs in all were committed OK (or `ms` passed). */
  async waitFor(count: number, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.committedOk < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const accounts = Number(process.env['E2E_ACCOUNTS'] ?? 2000);
  const perAccount = Number(process.env['E2E_TXS_PER_ACCOUNT'] ?? 3);
  const loadSeconds = Number(process.env['E2E_LOAD_SECONDS'] ?? 20);
  // REST saturation runs (idle, bare node:http, under the 500 tx/s load), seconds each.
  const restSeconds = Number(process.env['E2E_REST_SECONDS'] ?? 5);
  const settleSeconds = Number(process.env['E2E_SETTLE_SECONDS'] ?? 60);
  const memlog = process.env['E2E_MEMLOG'];
  const blockInterval = process.env['E2E_BLOCK'] ?? '1s';
  const connections = 50;
  // The 500 tx/s phase: the p99 poll (loadSeconds), then REST saturation (1 s warm-up + restSeconds) and slack.
  const total = accounts * perAccount + 500 * (loadSeconds + restSeconds + 3);
  const rows: Row[] = [];
  const home = mkdtempSync(join(tmpdir(), 'tokend-e2e-bench-'));
  const h = ['--home', home];
  let node: ChildProcess | undefined;
  try {
    // Genesis: the node's own validator (gentx through the CLI) plus the bench accounts.
    tokend(['init', 'bench', '--chain-id', CHAIN_ID, ...h]);
    tokend(['keys', 'add', 'val', '--keyring-backend', 'test', ...h]);
    tokend(['add-genesis-account', 'val', `1000000000000000000000000${DENOM}`, '--keyring-backend', 'test', ...h]);
    tokend(['gentx', 'val', `1000000000000000000000${DENOM}`, '--chain-id', CHAIN_ID, '--keyring-backend', 'test', ...h]);
    log(`keys: ${accounts} accounts`);
    const keys = makeKeys(accounts);
    const genesisPath = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(genesisPath, 'utf8')) as { app_state: Record<string, unknown> };
    genesis.app_state = addGenesisAccounts(genesis.app_state, keys.map((key) => ({ address: key.address, coins: [{ denom: DENOM, amount: 10n ** 24n }] }))) as Record<string, unknown>;
    const numbers = new Map<string, bigint>();
    for (const account of (genesis.app_state['auth'] as { accounts: { base_account?: { address: string; account_number: string } }[] }).accounts) {
      if (account.base_account) numbers.set(account.base_account.address, BigInt(account.base_account.account_number));
    }
    for (const key of keys as Key[]) key.accountNumber = numbers.get(key.bech32) ?? key.accountNumber;
    writeFileSync(genesisPath, JSON.stringify(genesis));
    tokend(['collect-gentxs', ...h]);
    const configPath = join(home, 'config', 'config.toml');
    if (process.env['E2E_JSON_RPC_THREAD'] !== undefined) setAppTomlKey(home, 'json-rpc', 'http-thread', String(process.env['E2E_JSON_RPC_THREAD'] === '1'));
    if (process.env['E2E_RPC_THREAD'] !== undefined) setConfigTomlKey(home, 'rpc', 'http_thread', String(process.env['E2E_RPC_THREAD'] === '1'));
    if (process.env['E2E_GRPC_THREAD'] !== undefined) setAppTomlKey(home, 'grpc', 'http-thread', String(process.env['E2E_GRPC_THREAD'] === '1'));
    if (process.env['E2E_HEAP_GROWING_PERCENT'] !== undefined) {
      const appToml = join(home, 'config', 'app.toml');
      writeFileSync(appToml, readFileSync(appToml, 'utf8').replace(/^heap-growing-percent = .*$/m, `heap-growing-percent = ${Number(process.env['E2E_HEAP_GROWING_PERCENT'])}`));
    }
    writeFileSync(
      configPath,
      readFileSync(configPath, 'utf8')
        .replace(/^timeout_commit = .*$/m, `timeout_commit = "${blockInterval}"`)
        .replace(/^size = 5000$/m, `size = ${Math.max(5000, total)}`),
    );

    // Pre-signed sends, sequence by sequence over all accounts (each sends 1 to the next): the
    // saturation phase takes the first `perAccount` sequences of every account, the 500 tx/s phase
    // the next 500 × E2E_LOAD_SECONDS.
    log(`signing ${total} sends`);
    const signed: string[] = [];
    const hashes: string[] = [];
    for (let n = 0; n < total; n++) {
      const i = n % accounts;
      const tx = sendTx(keys[i]!, keys[(i + 1) % accounts]!, BigInt(Math.floor(n / accounts)));
      signed.push(Buffer.from(tx).toString('base64'));
      hashes.push(Buffer.from(sha256(tx)).toString('hex'));
    }
    const saturation = signed.slice(0, accounts * perAccount);
    const steady = signed.slice(accounts * perAccount);
    const saturationFile = join(home, 'saturation.txt');
    const steadyFile = join(home, 'steady.txt');
    writeFileSync(saturationFile, `${saturation.join('\n')}\n`);
    writeFileSync(steadyFile, `${steady.join('\n')}\n`);

    const rpcPort = await freePort();
    const apiPort = await freePort();
    const ethPort = await freePort();
    const grpcPort = await freePort();
    const url = `http://127.0.0.1:${rpcPort}`;
    // E2E_NODE_PROFILE=<dir>: the node writes a CPU profile there when it stops.
    const nodeLog = join(home, 'node.log');
    const profile = process.env['E2E_NODE_PROFILE'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['E2E_NODE_PROFILE']] : [];
    const memlogArgs = memlog ? [...(process.env['E2E_MEMLOG_GC'] === '1' ? ['--expose-gc'] : []), '--import', pathToFileURL(join(ROOT, 'bench', 'e2e', 'memlog.mjs')).href] : [];
    const memlogEnv = memlog
      ? {
          TOKEND_MEMLOG: join(memlog, 'memlog.jsonl'),
          ...(process.env['E2E_HEAPSNAP'] === '1' ? { TOKEND_MEMLOG_SNAPSHOTS: memlog } : {}),
          ...(process.env['E2E_ALLOCPROF'] ? { TOKEND_MEMLOG_ALLOCPROF: process.env['E2E_ALLOCPROF'] } : {}),
        }
      : {};
    const nodeArgs = (process.env['E2E_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
    // The node's log: <home>/node.log, or <dir>/node.log with E2E_MEMLOG (why it stopped, if it did).
    const logFile = memlog ? join(memlog, 'node.log') : nodeLog;
    node = spawn(process.execPath, [...profile, ...memlogArgs, ...nodeArgs, BIN, 'start', ...h, '--rpc.laddr', `tcp://127.0.0.1:${rpcPort}`, '--api.address', `tcp://127.0.0.1:${apiPort}`, '--grpc.address', `127.0.0.1:${grpcPort}`, '--p2p.laddr', `tcp://127.0.0.1:${await freePort()}`, '--json-rpc.address', `127.0.0.1:${ethPort}`, '--json-rpc.ws-address', `127.0.0.1:${await freePort()}`], {
      stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
      env: { ...process.env, ...memlogEnv },
    });
    const pid = node.pid!;
    // A memory mark in the node's log (bench/e2e/memlog.mjs), when it runs with it.
    const mark = async (what: string): Promise<void> => {
      if (!memlog) return;
      log(`memory mark: ${what}`);
      node!.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, process.env['E2E_HEAPSNAP'] === '1' ? 30_000 : 1000));
    };
    const deadline = Date.now() + 120_000;
    while ((await latestHeight(url).catch(() => 0)) < 2) {
      if (Date.now() > deadline || node.exitCode !== null) throw new Error(`node did not start; its log ends:\n${readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rss: { t: number; mib: number }[] = [];
    const t0 = Date.now();
    const sampler = setInterval(() => rss.push({ t: (Date.now() - t0) / 1000, mib: rssMiB(pid) }), 1000);
    const rssStart = rssMiB(pid);
    const cpuStart = cpuMs(pid);
    await mark('start');
    const balanceUrl = `http://127.0.0.1:${apiPort}/cosmos/bank/v1beta1/balances/${keys[0]!.bech32}`;

    // (1) REST idle: the p99 at 200 req/s, then saturating throughput against bare node:http
    // answering the same bytes (balances of 100 accounts, round-robin).
    const idle = await loadgen(['rest', balanceUrl, '200', '5']).done;
    log(`REST idle: ${JSON.stringify(idle)}`);
    // The same balance through the CometBFT RPC and the Ethereum JSON-RPC (100 req/s each).
    const rpcBalanceUrl = `${url}/abci_query?path=%22/cosmos.bank.v1beta1.Query/Balance%22&data=0x${Buffer.from(balanceRequest(keys[0]!.bech32, DENOM)).toString('hex')}`;
    const ethUrl = `http://127.0.0.1:${ethPort}`;
    const ethBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [`0x${Buffer.from(keys[0]!.address).toString('hex')}`, 'latest'] });
    const grpcBalance = ['grpc', `127.0.0.1:${grpcPort}`, '/cosmos.bank.v1beta1.Query/Balance', Buffer.from(balanceRequest(keys[0]!.bech32, DENOM)).toString('hex')];
    const probes = async (seconds: number): Promise<{ rpc: Record<string, unknown>; eth: Record<string, unknown>; grpc: Record<string, unknown> }> => {
      const [rpcProbe, ethProbe, grpcProbe] = await Promise.all([
        loadgen(['rest', rpcBalanceUrl, '100', String(seconds)]).done,
        loadgen(['rest', ethUrl, '100', String(seconds), ethBody]).done,
        loadgen([...grpcBalance, '100', String(seconds)]).done,
      ]);
      return { rpc: rpcProbe, eth: ethProbe, grpc: grpcProbe };
    };
    const withProbes = process.env['E2E_PROBES'] === '1';
    const idleProbes = withProbes ? await probes(5) : undefined;
    if (idleProbes) log(`RPC abci_query idle: ${JSON.stringify(idleProbes.rpc)}; eth_getBalance idle: ${JSON.stringify(idleProbes.eth)}; gRPC Balance idle: ${JSON.stringify(idleProbes.grpc)}`);
    const balancePaths = writePaths(
      join(home, 'balance-paths.txt'),
      keys.slice(0, 100).map((key) => `/cosmos/bank/v1beta1/balances/${key.bech32}`),
    );
    const restOrigin = `http://127.0.0.1:${apiPort}`;
    const restIdle = await saturate(restOrigin, balancePaths, restSeconds);
    const sampleBody = await (await fetch(`${restOrigin}/cosmos/bank/v1beta1/balances/${keys[1]!.bech32}`)).text();
    const bare = await saturateBare(sampleBody, balancePaths, restSeconds);
    log(`REST saturated, idle: ${JSON.stringify(restIdle)}; bare node:http, same answer: ${JSON.stringify(bare)}`);

    // (2) Saturation.
    const watcher = new CommitWatcher(url, await latestHeight(url));
    watcher.start();
    const satStart = Date.now();
    const cpuSatStart = cpuMs(pid);
    const submitFile = join(home, 'submitted.json');
    const sat = await loadgen(['txs', url, saturationFile, String(connections), '0', submitFile]).done;
    log(`saturation submit: ${JSON.stringify(sat)}`);
    await watcher.waitFor(Number(sat.accepted), 120_000);
    const satEnd = Math.max(...[...watcher.committedAt.values()]);
    const committed = watcher.committedOk;
    const cpuSatEnd = cpuMs(pid);
    // Node CPU per committed tx over the saturation phase (main thread, all threads): robust where
    // the wall rates are not, on a shared machine.
    const cpuPerTx =
      cpuSatStart && cpuSatEnd && committed > 0
        ? { main: Math.round(((cpuSatEnd.main - cpuSatStart.main) * 1000) / committed), all: Math.round(((cpuSatEnd.all - cpuSatStart.all) * 1000) / committed) }
        : undefined;
    const tps = committed / ((satEnd - satStart) / 1000);
    const submitted = JSON.parse(readFileSync(submitFile, 'utf8')) as (number | null)[];
    const latencies: number[] = [];
    submitted.forEach((at, i) => {
      const done = watcher.committedAt.get(hashes[i]!);
      if (at !== null && done !== undefined) latencies.push(done - at);
    });
    latencies.sort((a, b) => a - b);
    if (cpuPerTx) log(`saturation: node CPU per committed tx ${cpuPerTx.main} µs main thread, ${cpuPerTx.all} µs all threads`);
    log(`saturation: ${committed} committed in ${((satEnd - satStart) / 1000).toFixed(1)} s = ${tps.toFixed(0)} tx/s; submit→commit p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms`);

    // (3) 500 tx/s with REST polling.
    const rssBeforeLoad = rssMiB(pid);
    const before = watcher.committedOk;
    const steadyRun = loadgen(['txs', url, steadyFile, String(connections), '500', join(home, 'steady-submitted.json')]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [loaded, loadedProbes] = await Promise.all([loadgen(['rest', balanceUrl, '200', String(Math.max(3, loadSeconds - 4))]).done, withProbes ? probes(Math.max(3, loadSeconds - 4)) : undefined]);
    if (loadedProbes) log(`RPC abci_query under load: ${JSON.stringify(loadedProbes.rpc)}; eth_getBalance under load: ${JSON.stringify(loadedProbes.eth)}; gRPC Balance under load: ${JSON.stringify(loadedProbes.grpc)}`);
    const restLoaded = await saturate(restOrigin, balancePaths, restSeconds);
    log(`REST saturated under the 500 tx/s load: ${JSON.stringify(restLoaded)}`);
    const steadyResult = await steadyRun.done;
    const rssAfterLoad = rssMiB(pid);
    log(`500 tx/s: ${JSON.stringify(steadyResult)}; REST under load: ${JSON.stringify(loaded)}`);
    await watcher.waitFor(before + Number(steadyResult.accepted), 60_000);
    await watcher.stop();
    const loadEnded = Date.now();
    const rssEnd = rssMiB(pid);
    const cpuEnd = cpuMs(pid);
    await mark('end of load');
    const settle = async (seconds: number): Promise<void> => {
      const wait = loadEnded + seconds * 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    };
    await settle(Math.min(10, settleSeconds));
    const rss10 = rssMiB(pid);
    await settle(settleSeconds);
    const rssSettled = rssMiB(pid);
    await mark('settled');
    clearInterval(sampler);
    const rssPeak = Math.max(...rss.map((sample) => sample.mib));
    log(`RSS MiB over time: ${rss.map((sample) => `${sample.t.toFixed(0)}s=${sample.mib.toFixed(0)}`).join(' ')}`);

    // The in-process figure, same run.
    log('in-process (bench/app) for the ratio');
    process.env['APP_BENCH_BLOCKS'] ??= '5';
    process.env['APP_BENCH_PEER_BLOCKS'] ??= '1';
    const { run: runApp } = await import('../app/send.bench.js');
    const appRows = await runApp(() => undefined);
    const inProcess = appRows.find((row) => row.name.startsWith('app send: sustained'))?.value ?? NaN;

    rows.push(
      { name: `e2e: committed sends, saturated (${accounts} accounts, ${connections} connections, broadcast_tx_sync, timeout_commit ${blockInterval})`, value: Math.round(tps), unit: 'tx/s' },
      { name: 'e2e: in-process figure (bench/app), same run', value: inProcess, unit: 'tx/s' },
      { name: 'e2e: end-to-end / in-process', value: round(tps / inProcess), unit: '×' },
      { name: 'e2e: txs rejected by CheckTx at saturation', value: Number(sat.rejected), unit: 'count' },
      ...(cpuPerTx
        ? [
            { name: 'e2e: node CPU per committed tx, saturated, main thread', value: cpuPerTx.main, unit: 'µs' },
            { name: 'e2e: node CPU per committed tx, saturated, all threads', value: cpuPerTx.all, unit: 'µs' },
          ]
        : []),
      { name: 'e2e: submit→commit p50 (saturated)', value: quantile(latencies, 0.5), unit: 'ms' },
      { name: 'e2e: submit→commit p99 (saturated)', value: quantile(latencies, 0.99), unit: 'ms' },
      { name: 'e2e: REST balance p99 at 200 req/s, idle', value: Number(idle.p99Ms), unit: 'ms' },
      { name: `e2e: steady phase: ${steady.length} txs submitted in`, value: Math.round(Number(steadyResult.seconds)), unit: 's' },
      { name: 'e2e: steady phase: submit rate reached (offered 500 tx/s)', value: Math.round(Number(steadyResult.accepted) / Number(steadyResult.seconds)), unit: 'tx/s' },
      { name: 'e2e: REST balance p99 at 200 req/s, under the steady phase', value: Number(loaded.p99Ms), unit: 'ms' },
      { name: 'e2e: REST p99 under load / idle', value: round(Number(loaded.p99Ms) / Number(idle.p99Ms)), unit: '×' },
      ...(idleProbes && loadedProbes
        ? [
            { name: 'e2e: CometBFT RPC abci_query balance p99 at 100 req/s, idle', value: Number(idleProbes.rpc.p99Ms), unit: 'ms' },
            { name: 'e2e: CometBFT RPC abci_query balance p99 at 100 req/s, under the steady phase', value: Number(loadedProbes.rpc.p99Ms), unit: 'ms' },
            { name: 'e2e: eth_getBalance p99 at 100 req/s, idle', value: Number(idleProbes.eth.p99Ms), unit: 'ms' },
            { name: 'e2e: eth_getBalance p99 at 100 req/s, under the steady phase', value: Number(loadedProbes.eth.p99Ms), unit: 'ms' },
            { name: 'e2e: gRPC bank Balance p99 at 100 req/s, idle', value: Number(idleProbes.grpc.p99Ms), unit: 'ms' },
            { name: 'e2e: gRPC bank Balance p99 at 100 req/s, under the steady phase', value: Number(loadedProbes.grpc.p99Ms), unit: 'ms' },
            {
              name: 'e2e: probe errors (RPC, eth, gRPC; idle and under load)',
              value: [idleProbes, loadedProbes].reduce((sum, p) => sum + Number(p.rpc.errors) + Number(p.eth.errors) + Number(p.grpc.errors), 0),
              unit: 'count',
            },
          ]
        : []),
      { name: 'e2e: REST balance saturated, idle (50 connections)', value: restIdle.rps, unit: 'req/s' },
      { name: 'e2e: bare node:http saturated, same answer and client', value: bare.rps, unit: 'req/s' },
      { name: 'e2e: REST idle / bare node:http (target ≥ 0.8)', value: round(restIdle.rps / bare.rps), unit: '×' },
      { name: 'e2e: REST balance saturated, under the 500 tx/s load', value: restLoaded.rps, unit: 'req/s' },
      { name: 'e2e: REST saturated under load / idle (target ≥ 0.7)', value: round(restLoaded.rps / restIdle.rps), unit: '×' },
      { name: 'e2e: node RSS at start', value: Math.round(rssStart), unit: 'MiB' },
      { name: 'e2e: node RSS peak', value: Math.round(rssPeak), unit: 'MiB' },
      { name: 'e2e: node RSS before / after the 500 tx/s phase', value: Math.round(rssBeforeLoad), unit: `MiB → ${Math.round(rssAfterLoad)} MiB` },
      { name: 'e2e: node RSS when every accepted tx was committed (end of load)', value: Math.round(rssEnd), unit: 'MiB' },
      { name: 'e2e: node RSS 10 s after the load', value: Math.round(rss10), unit: 'MiB' },
      { name: `e2e: node RSS ${settleSeconds} s after the load`, value: Math.round(rssSettled), unit: 'MiB' },
      { name: `e2e: node RSS ${settleSeconds} s after / at start (target ≤ 1.2)`, value: round(rssSettled / rssStart), unit: '×' },
      { name: 'e2e: node RSS at the end of the load / at start (target ≤ 1.5)', value: round(rssEnd / rssStart), unit: '×' },
      // Beside the RSS: a memory setting that costs GC time shows here (all threads, REST phases included).
      ...(cpuStart && cpuEnd
        ? [{ name: 'e2e: node CPU per committed tx, start → end of the load (all threads)', value: round((cpuEnd.all - cpuStart.all) / watcher.committedOk), unit: 'ms' }]
        : []),
    );
  } finally {
    if (node && node.exitCode === null) {
      node.kill('SIGTERM');
      await new Promise((resolve) => node!.once('exit', resolve));
    }
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}\t${row.value} ${row.unit}\n`);
}
