/**
 * The EVM in the app and the Ethereum JSON-RPC (issue 12), on a real LevelDB (temp dir):
 *
 *   value transfers   ethers-signed EIP-1559 transfers (carried as eth_sendRawTransaction
 *                     carries them) through CheckTx → FinalizeBlock → Commit
 *   contract calls    calls of a contract that does one SSTORE and one LOG (the shape of an
 *                     ERC-20 transfer: storage write + Transfer event), same path
 *   eth_call          latency of the EthCall query (abci_query path of eth_call)
 *   JSON-RPC          eth_blockNumber req/s through the EthRpcServer (HTTP on the main thread, and on
 *                     its own thread) vs. a bare node:http server
 *                     answering the same JSON, same client, same run
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { Wallet, getCreateAddress, hexlify, getBytes } from 'ethers';
import { Agent, request } from 'undici';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, type App } from '../../src/node/app/index.js';
import { gentx, makeKeys } from '../app/send.bench.js';
import { commonFor, cosmosTxBytes, recoverSender, txFromRaw } from '../../src/node/modules/evm/ethTx.js';
import { EthCallRequestSchema } from '../../src/gen/ethermint/evm/v1/query_pb.js';
import { EthRpcServer } from '../../src/node/ethrpc/server.js';
import type { RpcEnvironment } from '../../src/node/rpc/environment.js';

interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN_ID = 'bench_9000-1';
const DENOM = 'attotoken';
const TOKEN = 10n ** 18n;
const GWEI = 10n ** 9n;
const RUNTIME = '60003580600055600052602a60206000a160206000f3';
const INIT = '0x6016600c60003960166000f3' + RUNTIME;

async function finalize(app: App, height: number, txs: Uint8Array[]): Promise<void> {
  // As the mempool does: every arriving tx's pre-check (signature work on the worker threads,
  // batched) starts at once, and CheckTx runs in order, each after its own pre-check.
  const prechecks = txs.map((tx) => app.precheckTx(tx));
  for (let i = 0; i < txs.length; i++) {
    await prechecks[i];
    const checked = await app.checkTx({ tx: txs[i]!, type: 0 } as never);
    if (checked.code !== 0) throw new Error(`CheckTx failed: ${checked.log}`);
  }
  const response = await app.finalizeBlock({
    txs,
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: sha256(new TextEncoder().encode(`block-${height}`)),
    height,
    time: new Date(Date.parse('2024-01-01T00:00:00Z') + height * 1000),
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  });
  await app.commit();
  const failed = response.txResults.find((r) => r.code !== 0);
  if (failed !== undefined) throw new Error(`tx failed at height ${height}: ${failed.log}`);
}

/** CPU time of the main thread (ms) from /proc (Linux; undefined elsewhere): workers not counted. */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the command).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function loadgen(url: string, body: string, seconds: number, concurrency: number): Promise<number> {
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const response = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
        await response.body.text();
        done++;
      }
    }),
  );
  await agent.close();
  return done / seconds;
}

/** What a measurement reports: the commit rate, process CPU and main-thread CPU per tx. */
interface Measured {
  rate: number;
  cpuPerTx: number;
  mainPerTx: number | undefined;
}

/**
 * The in-process chain the EVM benches measure on: a real app on LevelDB (temp dir), EVM_BENCH_SENDERS
 * funded senders, a first block, and the SSTORE+LOG contract deployed. `measure` signs
 * EVM_BENCH_BLOCKS blocks of EVM_BENCH_BLOCK_TXS txs and times them through CheckTx →
 * FinalizeBlock → Commit.
 */
export interface EvmChain {
  app: App;
  /** The funded senders (txs are signed by them in turn). */
  wallets: Wallet[];
  /** EIP-1559 fee fields every bench tx carries. */
  fee: { type: number; chainId: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  contract: string;
  /** The next height to finalize. */
  height(): number;
  measure(label: string, build: (w: Wallet, k: number, nonce: number) => Promise<string>): Promise<Measured>;
  close(): Promise<void>;
}

export async function openEvmChain(log: (line: string) => void = () => undefined): Promise<EvmChain> {
  const senders = Number(process.env['EVM_BENCH_SENDERS'] ?? 500);
  const perBlock = Number(process.env['EVM_BENCH_BLOCK_TXS'] ?? 500);
  const blocks = Number(process.env['EVM_BENCH_BLOCKS'] ?? 3);
  const wallets = Array.from({ length: senders }, (_, i) => new Wallet(hexlify(sha256(new TextEncoder().encode(`evm-bench-${i}`)))));
  const dir = await mkdtemp(join(tmpdir(), 'tokend-evm-bench-'));
  const db = await openDatabase(dir);
  const validator = makeKeys(1)[0]!;
  let opened: Awaited<ReturnType<typeof openApp>> | undefined;
  const close = async (): Promise<void> => {
    await opened?.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    let appState = defaultAppState({ denom: DENOM });
    appState = addGenesisAccounts(
      appState,
      [
        ...wallets.map((w) => ({ address: keyPairFromPrivateKey('eth_secp256k1', getBytes(w.privateKey)).address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] })),
        { address: validator.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] },
      ],
    );
    appState = collectGentxs(appState, [gentx(validator)], CHAIN_ID);
    // EVM_BENCH_WORKERS: signature worker threads (default: the node's default).
    const workers = process.env['EVM_BENCH_WORKERS'];
    opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', ...(workers === undefined ? {} : { sigVerifyWorkers: Number(workers) }) });
    log(`signature workers: ${opened.app.verifierThreads}`);
    const app = opened.app;
    await app.initChain({ time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
    let height = 1;
    await finalize(app, height++, []);
    const common = commonFor(9000n, 'cancun');
    const carry = (raw: string) => {
      const tx = txFromRaw(getBytes(raw), common);
      return cosmosTxBytes(tx, hexlify(recoverSender(tx)), DENOM);
    };
    const nonces = wallets.map(() => 0);
    const fee = { type: 2, chainId: 9000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };

    // Contract for the call benchmark.
    await finalize(app, height++, [carry(await wallets[0]!.signTransaction({ ...fee, nonce: nonces[0]!++, data: INIT, gasLimit: 200000n }))]);
    const contract = getCreateAddress({ from: wallets[0]!.address, nonce: 0 });

    const measure = async (label: string, build: (w: Wallet, k: number, nonce: number) => Promise<string>): Promise<Measured> => {
      log(`${label}: signing ${blocks} × ${perBlock} txs`);
      const plan: Uint8Array[][] = [];
      let k = 0;
      for (let b = 0; b < blocks; b++) {
        const txs: Uint8Array[] = [];
        for (let j = 0; j < perBlock; j++, k++) {
          const i = k % senders;
          txs.push(carry(await build(wallets[i]!, k, nonces[i]!++)));
        }
        plan.push(txs);
      }
      const profile = process.env['EVM_BENCH_PROFILE'];
      const session = profile === undefined ? undefined : new Session();
      if (session !== undefined) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: Number(process.env['EVM_BENCH_PROFILE_INTERVAL'] ?? 100) });
        await session.post('Profiler.start');
      }
      const cpu = process.cpuUsage();
      const mainCpu = mainThreadCpuMs();
      const started = performance.now();
      for (const txs of plan) await finalize(app, height++, txs);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const mainCpuEnd = mainThreadCpuMs();
      if (session !== undefined) {
        const { profile: result } = await session.post('Profiler.stop');
        await writeFile(`${profile}-${label.replace(/ /g, '-')}.cpuprofile`, JSON.stringify(result));
        session.disconnect();
      }
      const rate = (blocks * perBlock) / seconds;
      // Process CPU (all threads) per tx: steadier than wall time on a shared machine.
      const cpuPerTx = (used.user + used.system) / (blocks * perBlock);
      const mainPerTx = mainCpu === undefined || mainCpuEnd === undefined ? undefined : ((mainCpuEnd - mainCpu) * 1000) / (blocks * perBlock);
      log(`${label}: ${rate.toFixed(0)} tx/s, ${cpuPerTx.toFixed(0)} µs CPU/tx, main thread ${mainPerTx?.toFixed(0) ?? '?'} µs/tx`);
      return { rate, cpuPerTx, mainPerTx };
    };
    return { app, wallets, fee, contract, height: () => height, measure, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

/** Value transfers (each to the next sender) through the chain: the rate and the CPU per tx. */
export async function valueTransferRows(chain: EvmChain): Promise<Row[]> {
  const { wallets, fee } = chain;
  const transfers = await chain.measure('value transfers', (w, k, nonce) => w.signTransaction({ ...fee, nonce, to: wallets[(k + 1) % wallets.length]!.address, value: 1n, gasLimit: 21000n }));
  const rows: Row[] = [];
  rows.push({ name: 'evm value transfer → commit', value: transfers.rate, unit: 'tx/s' });
  rows.push({ name: 'evm value transfer, process CPU', value: transfers.cpuPerTx, unit: 'µs/tx' });
  if (transfers.mainPerTx !== undefined) rows.push({ name: 'evm value transfer, main-thread CPU', value: transfers.mainPerTx, unit: 'µs/tx' });
  return rows;
}

/** Calls of the SSTORE+LOG contract (an ERC-20 transfer's shape) through the chain: the rate and the CPU per tx. */
export async function contractCallRows(chain: EvmChain): Promise<Row[]> {
  const { contract, fee } = chain;
  const calls = await chain.measure('contract calls', (w, k, nonce) => w.signTransaction({ ...fee, nonce, to: contract, data: '0x' + k.toString(16).padStart(64, '0'), gasLimit: 100000n }));
  const rows: Row[] = [];
  rows.push({ name: 'evm contract call (sstore+log) → commit', value: calls.rate, unit: 'tx/s' });
  rows.push({ name: 'evm contract call, process CPU', value: calls.cpuPerTx, unit: 'µs/tx' });
  if (calls.mainPerTx !== undefined) rows.push({ name: 'evm contract call, main-thread CPU', value: calls.mainPerTx, unit: 'µs/tx' });
  return rows;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const chain = await openEvmChain(log);
  const { app, contract } = chain;
  const rows: Row[] = [];
  try {
    rows.push(...(await valueTransferRows(chain)));
    rows.push(...(await contractCallRows(chain)));

    // eth_call latency through the query path.
    const args = new TextEncoder().encode(JSON.stringify({ to: contract, data: '0x' + '01'.padStart(64, '0') }));
    const data = toBinary(EthCallRequestSchema, create(EthCallRequestSchema, { args, gasCap: 25_000_000n }));
    const queries = 300;
    const started = performance.now();
    for (let i = 0; i < queries; i++) {
      const response = await app.query({ path: '/ethermint.evm.v1.Query/EthCall', data, height: 0, prove: false });
      if (response.code !== 0) throw new Error(response.log);
    }
    rows.push({ name: 'eth_call (EthCall query)', value: (performance.now() - started) / queries, unit: 'ms' });

    // JSON-RPC server overhead: eth_blockNumber vs a bare node:http answer.
    const height = chain.height();
    const env = { blockStore: { height: () => height - 1 }, stateStore: { load: () => ({ lastBlockHeight: height - 1 }) } } as unknown as RpcEnvironment;
    const server = new EthRpcServer({ env, address: '127.0.0.1:0' });
    const { url } = await server.start();
    // The same, with the HTTP side on its own thread ([json-rpc] http-thread, the default): the
    // repeated eth_blockNumber is answered there from the kept result.
    const threaded = new EthRpcServer({ env, address: '127.0.0.1:0', thread: true, stateHeight: () => height - 1, watchStateHeight: () => () => undefined });
    const { url: threadedUrl } = await threaded.start();
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: `0x${(height - 1).toString(16)}` }));
      });
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    const seconds = Number(process.env['EVM_BENCH_RPC_SECONDS'] ?? 3);
    // Warm both (JIT, connection pools) before measuring; then measure each the same way.
    await loadgen(bareUrl, body, 1, 32);
    await loadgen(url, body, 1, 32);
    await loadgen(threadedUrl, body, 1, 32);
    const baseline = await loadgen(bareUrl, body, seconds, 32);
    const ours = await loadgen(url, body, seconds, 32);
    const oursThreaded = await loadgen(threadedUrl, body, seconds, 32);
    rows.push({ name: 'eth_blockNumber (JSON-RPC, main thread)', value: ours, unit: 'req/s' });
    rows.push({ name: 'eth_blockNumber (JSON-RPC, HTTP on its own thread)', value: oursThreaded, unit: 'req/s' });
    rows.push({ name: 'eth_blockNumber (bare node:http)', value: baseline, unit: 'req/s' });
    await server.stop();
    await threaded.stop();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
  } finally {
    await chain.close();
  }
  return rows;
}
