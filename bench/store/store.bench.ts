/**
 * State-store benchmark: IAVL leaf writes/s including the root hash, commit cost per block,
 * point reads (latest and historical), ICS23 proof latency, open time after kill -9 and after a
 * clean stop, the first block after an open (tree nodes read on first use), memory — at 10k,
 * 100k and 1M accounts (3 keys per account: auth account, two bank balances) on a real LevelDB
 * in a temp directory. A raw sha256 rate is measured in the same run as the yardstick (ratios
 * matter more than absolutes on shared machines).
 *
 *   npx tsx bench/store/store.bench.ts                      all sizes
 *   STORE_BENCH_ACCOUNTS=10000,100000 npx tsx bench/store/store.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openDatabase, type Database } from '../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../src/node/store/commitmulti.js';
import { PRUNING_DEFAULT } from '../../src/node/store/options.js';
import { sha256 } from '../../src/node/store/hash.js';
import { IavlTree } from '../../src/node/store/iavl/tree.js';
import { DENOM_A, DENOM_B, address, balanceKey, balanceValue, populate, rng, sendBlock } from './sendShapes.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const STORES = ['auth', 'bank', 'distribution', 'gov', 'mint', 'params', 'staking'];
const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];
const READ_SAMPLES = 50_000;
const HISTORICAL_SAMPLES = 20_000;
const BLOCKS_PER_SIZE = 3;
const WARMUP_BLOCKS = 5;

const now = (): number => performance.now();
const MB = 1024 * 1024;

/** One block of sends (sendShapes.ts); returns its execution ms. */
function executeBlock(cms: RootMultiStore, accounts: number, txs: number, random: () => number): number {
  const t0 = now();
  sendBlock(cms, accounts, txs, random);
  return now() - t0;
}

/** Random distinct existing keys written in one block (the brief's "10k–25k writes", all distinct). */
function writeRandomKeys(cms: RootMultiStore, accounts: number, keys: number, random: () => number): void {
  const bank = cms.getStore('bank');
  for (let i = 0; i < keys; i++) bank.set(balanceKey(address(Math.floor(random() * accounts)), DENOM_A), balanceValue(random()));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Run `populate` in a child process (same runtime flags, e.g. tsx's loader). */
function populateInChild(dir: string, accounts: number): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, '--populate', dir, String(accounts)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`populate child exited with ${code}`))));
  });
}

async function populateMain(dir: string, accounts: number): Promise<void> {
  const db = await openDatabase(dir);
  const cms = await openCommitMultiStore(db, { stores: STORES, pruning: PRUNING_DEFAULT, syncCommits: false });
  await populate(cms, accounts);
  // A few blocks of sends, then exit without closing anything: what kill -9 leaves behind.
  const random = rng(accounts + 1);
  for (let block = 0; block < 3; block++) {
    executeBlock(cms, accounts, 2000, random);
    await cms.commit();
  }
  process.exit(0);
}

async function benchSize(accounts: number, rows: Row[], log: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-store-bench-'));
  let db: Database = await openDatabase(dir);
  const label = accounts >= 1_000_000 ? `${accounts / 1_000_000}M` : `${accounts / 1000}k`;
  try {
    // Populate in a child process, so this process's heap and timings start clean.
    await db.close();
    let t = now();
    await populateInChild(dir, accounts);
    log(`  populated ${label} accounts (${accounts * 3} keys) in ${((now() - t) / 1000).toFixed(1)} s`);

    // Open after kill -9 (the populating process exited without closing): only the roots load.
    db = await openDatabase(dir);
    t = now();
    let cms = await openCommitMultiStore(db, { stores: STORES, pruning: PRUNING_DEFAULT, syncCommits: true });
    rows.push({ name: `open after kill -9 @${label} accounts`, value: Math.round(now() - t), unit: 'ms' });
    log(`  opened @${label} after kill -9`);

    // The first block after an open reads the tree nodes it touches from disk (the rest of the
    // trees load in the background meanwhile); then wait until they are fully in memory.
    const random = rng(accounts);
    executeBlock(cms, accounts, 2000, random);
    t = now();
    await cms.commit();
    rows.push({ name: `first block of 2,000 sends after open: hash+persist @${label}`, value: +(now() - t).toFixed(1), unit: 'ms' });
    log(`  first block after open committed @${label}`);
    t = now();
    await cms.waitForWarmUp();
    rows.push({ name: `background load of the rest of the trees after open @${label}`, value: Math.round(now() - t), unit: 'ms' });
    log(`  trees loaded @${label}`);

    for (let block = 0; block < WARMUP_BLOCKS; block++) {
      executeBlock(cms, accounts, 2000, random);
      await cms.commit();
    }

    // Point reads at the latest committed version, keys not read before (bucket cache cold).
    const committed = cms.branchCommitted().getStore('bank');
    const readKeys = Array.from({ length: READ_SAMPLES }, () => balanceKey(address(Math.floor(random() * accounts)), DENOM_A));
    t = now();
    for (const key of readKeys) committed.get(key);
    rows.push({ name: `point read, latest, first touch @${label}`, value: +(((now() - t) * 1000) / READ_SAMPLES).toFixed(2), unit: 'µs/read' });
    t = now();
    for (const key of readKeys) committed.get(key);
    rows.push({ name: `point read, latest, again @${label}`, value: +(((now() - t) * 1000) / READ_SAMPLES).toFixed(2), unit: 'µs/read' });

    // Blocks of bank sends: execute through branches, hash (FinalizeBlock), persist (Commit).
    for (const txs of [2000, 5000]) {
      const execs: number[] = [];
      const hashes: number[] = [];
      const persists: number[] = [];
      for (let block = 0; block < BLOCKS_PER_SIZE; block++) {
        execs.push(executeBlock(cms, accounts, txs, random));
        const dirty = cms.stats().pendingKeys;
        t = now();
        cms.workingHash();
        hashes.push(now() - t);
        t = now();
        await cms.commit();
        persists.push(now() - t);
        if (block === 0) log(`  ${txs} sends @${label}: ${dirty} distinct keys written`);
      }
      rows.push({ name: `block of ${txs} bank sends: execute @${label}`, value: +median(execs).toFixed(1), unit: 'ms' });
      rows.push({ name: `block of ${txs} bank sends: workingHash @${label}`, value: +median(hashes).toFixed(1), unit: 'ms' });
      rows.push({ name: `block of ${txs} bank sends: commit (persist) @${label}`, value: +median(persists).toFixed(1), unit: 'ms' });
      rows.push({ name: `block of ${txs} bank sends: hash+persist @${label}`, value: +median(hashes.map((h, i) => h + persists[i]!)).toFixed(1), unit: 'ms' });
    }
    for (const keys of [10_000, 25_000]) {
      const totals: number[] = [];
      for (let block = 0; block < BLOCKS_PER_SIZE; block++) {
        writeRandomKeys(cms, accounts, keys, random);
        t = now();
        cms.workingHash();
        await cms.commit();
        totals.push(now() - t);
      }
      rows.push({ name: `commit ${keys / 1000}k random distinct keys (hash+persist) @${label}`, value: +median(totals).toFixed(1), unit: 'ms' });
    }

    // Historical reads: a few versions back, through the per-version diffs.
    const latest = cms.latestVersion();
    for (const back of [1, 10]) {
      const version = latest - back;
      const keys = Array.from({ length: HISTORICAL_SAMPLES }, () => balanceKey(address(Math.floor(random() * accounts)), DENOM_A));
      t = now();
      for (const key of keys) cms.readAt(version, 'bank', key);
      rows.push({ name: `point read, ${back} version(s) back @${label}`, value: +(((now() - t) * 1000) / HISTORICAL_SAMPLES).toFixed(2), unit: 'µs/read' });
    }
    const feeCollector = balanceKey(address(accounts + 1), DENOM_A);
    t = now();
    for (let i = 0; i < 1000; i++) cms.readAt(latest - 10, 'bank', feeCollector);
    rows.push({ name: `hot key (changed every block) 10 versions back @${label}`, value: +(now() - t).toFixed(2), unit: 'µs/read' });

    // ICS23 proofs (existence and absence), latest (tree in memory) and older (nodes from disk).
    const proofKeys = Array.from({ length: 200 }, (_, i) => balanceKey(address(i * 7919 % accounts), i % 2 === 0 ? DENOM_A : DENOM_B));
    const absentKeys = Array.from({ length: 200 }, (_, i) => balanceKey(address(accounts + 10 + i), DENOM_A));
    for (const [what, keys] of [['existence', proofKeys], ['absence', absentKeys]] as const) {
      t = now();
      for (const key of keys) await cms.prove(latest, 'bank', key);
      rows.push({ name: `prove ${what}, latest @${label}`, value: +((now() - t) / keys.length).toFixed(3), unit: 'ms' });
      t = now();
      for (const key of keys.slice(0, 50)) await cms.prove(latest - 5, 'bank', key);
      rows.push({ name: `prove ${what}, 5 versions back @${label}`, value: +((now() - t) / 50).toFixed(3), unit: 'ms' });
    }
    rows.push({ name: `tree memory (arenas) @${label} accounts`, value: +(cms.stats().treeBytes / MB).toFixed(1), unit: 'MB' });
    rows.push({ name: `process RSS @${label} accounts`, value: Math.round(process.memoryUsage().rss / MB), unit: 'MB' });

    // Clean stop, then open again.
    await cms.close();
    await db.close();
    db = await openDatabase(dir);
    t = now();
    cms = await openCommitMultiStore(db, { stores: STORES, pruning: PRUNING_DEFAULT });
    rows.push({ name: `open after a clean stop @${label} accounts`, value: Math.round(now() - t), unit: 'ms' });
    await cms.close();
  } finally {
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * IAVL leaf writes per second including the root hash, tree in memory: a tree of N keys, then
 * blocks of 5,000 random existing keys updated in key order and the root hashed (what a commit
 * does before persisting). Plus one sha256 of 75 bytes (an inner node's input) as the yardstick.
 */
function leafWrites(rows: Row[], sizes: number[]): void {
  const input = new Uint8Array(75);
  let t = now();
  for (let i = 0; i < 200_000; i++) sha256(input);
  const hashUs = ((now() - t) * 1000) / 200_000;
  rows.push({ name: 'yardstick: sha256 of 75 bytes', value: +hashUs.toFixed(3), unit: 'µs' });
  for (const n of sizes) {
    const tree = new IavlTree(undefined, 1);
    const keys = Array.from({ length: n }, (_, i) => balanceKey(address(i), DENOM_A)).sort((a, b) => Buffer.compare(a, b));
    const valueHash = sha256(Uint8Array.of(1));
    t = now();
    for (const key of keys) tree.set(key, valueHash);
    tree.workingHash();
    const buildMs = now() - t;
    const commitTree = (): void => {
      tree.newNodes();
      tree.commit();
    };
    commitTree();
    const random = rng(n);
    const batch = 5000;
    const blocks = 4;
    t = now();
    for (let b = 0; b < blocks; b++) {
      const picked = Array.from({ length: batch }, () => keys[Math.floor(random() * n)]!).sort((a, c) => Buffer.compare(a, c));
      for (const key of picked) tree.set(key, sha256(key));
      tree.workingHash();
      commitTree();
    }
    const label = n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`;
    rows.push({ name: `IAVL leaf writes/s incl. root hash, ${batch} per block, tree of ${label} keys`, value: Math.round((batch * blocks) / ((now() - t) / 1000)), unit: 'writes/s' });
    rows.push({ name: `IAVL bulk insert of ${label} sorted keys + root hash`, value: Math.round(n / (buildMs / 1000)), unit: 'writes/s' });
  }
}

/**
 * The rejected alternative for synchronous iteration: an ordered in-memory index of every key
 * (33-byte keys as latin1 strings in sorted arrays of 256). Reported per key; ×3M for 1M accounts.
 */
function keyIndexMemory(rows: Row[]): void {
  const count = 300_000;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = new Uint8Array(33);
    key[0] = 2;
    key.set(address(i), 1);
    keys.push(Buffer.from(key).toString('latin1'));
  }
  keys.sort();
  const leaves: string[][] = [];
  for (let i = 0; i < count; i += 256) leaves.push(keys.slice(i, i + 256));
  keys.length = 0;
  gc?.();
  const perKey = (process.memoryUsage().heapUsed - before) / count;
  rows.push({ name: `rejected: in-memory ordered key index, heap per 33-byte key${gc === undefined ? ' (no --expose-gc: approximate)' : ''}`, value: Math.round(perKey), unit: 'B' });
  rows.push({ name: 'rejected: in-memory ordered key index at 1M accounts (3M keys)', value: Math.round((perKey * 3_000_000) / MB), unit: 'MB' });
  if (leaves.length === 0) throw new Error('unreachable');
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const sizes = (process.env.STORE_BENCH_ACCOUNTS ?? DEFAULT_SIZES.join(','))
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  const rows: Row[] = [];
  leafWrites(rows, sizes);
  keyIndexMemory(rows);
  for (const accounts of sizes) {
    log(`store bench: ${accounts} accounts`);
    await benchSize(accounts, rows, log);
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--populate') {
  await populateMain(process.argv[3]!, Number(process.argv[4]));
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const progress = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const rows = await run(progress);
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
