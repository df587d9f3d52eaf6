/**
 * The commit cost of a 2,000-send block alone (issue 8's bound: hash + persist within 1.5× of the
 * old hash-bucket tree): N accounts (3 keys each, as bench/store/store.bench.ts) in a LevelDB in a
 * temp directory, the trees fully in memory (populated in this process), a few warm-up blocks,
 * then `COMMIT_BENCH_BLOCKS` blocks of 2,000 sends, each executed through runTx-shaped branches
 * and then hashed (`workingHash`, FinalizeBlock) and persisted (`commit`, one fsync'd batch);
 * medians (wall time, and the process's CPU time, which a shared machine inflates less). Uses only the multistore's public calls, so the same file runs against an older
 * checkout of the store (copy it into that checkout's bench/store/) for a back-to-back comparison.
 *
 *   COMMIT_BENCH_ACCOUNTS=10000,100000 npx tsx bench/store/commit.bench.ts
 *   COMMIT_BENCH_PROFILE=out.cpuprofile …   CPU profile of the measured blocks only
 *   COMMIT_BENCH_PAIR=/path/to/other/checkout …   paired with another checkout (below)
 *
 * Paired mode: on a shared machine the load drifts within minutes, so two runs one after the
 * other compare poorly. With COMMIT_BENCH_PAIR, each size is populated in two child processes at
 * once — this checkout's store and the other checkout's (which must hold this same file) — and
 * then they take turns, one block each per round (alternating which goes first), so every pair of
 * blocks ran under the same load; the rows give both medians and the median of the per-round
 * ratios (this checkout / the other).
 *
 * `run()` returns rows {name, value, unit} for bench/run.js (`npm run bench -- store-commit`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector';
import { createHash } from 'node:crypto';
import { openDatabase } from '../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../src/node/store/commitmulti.js';
import { PRUNING_DEFAULT } from '../../src/node/store/options.js';
import { populate, rng, sendBlock } from './sendShapes.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const STORES = ['auth', 'bank', 'distribution', 'gov', 'mint', 'params', 'staking'];
const WARMUP_BLOCKS = 4;
const SENDS = 2000;

const now = (): number => performance.now();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function post<T>(session: Session, method: string): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, (err, result) => (err ? reject(err) : resolve(result as T)));
  });
}

async function benchSize(accounts: number, blocks: number, rows: Row[], log: (line: string) => void, profile: string | undefined): Promise<void> {
  const label = accounts >= 1_000_000 ? `${accounts / 1_000_000}M` : `${accounts / 1000}k`;
  const dir = await mkdtemp(join(tmpdir(), 'tokend-commit-bench-'));
  const db = await openDatabase(dir);
  try {
    const cms = await openCommitMultiStore(db, { stores: STORES, pruning: PRUNING_DEFAULT, syncCommits: true });
    const t = now();
    await populate(cms, accounts);
    log(`  populated ${label} accounts in ${((now() - t) / 1000).toFixed(1)} s`);
    const random = rng(accounts);
    for (let b = 0; b < WARMUP_BLOCKS; b++) {
      sendBlock(cms, accounts, SENDS, random);
      await cms.commit();
    }
    const session = profile === undefined ? undefined : new Session();
    if (session !== undefined) {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.start');
    }
    const hashes: number[] = [];
    const persists: number[] = [];
    const cpus: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const times = await measureBlock(cms, accounts, random);
      hashes.push(times.hash);
      persists.push(times.persist);
      cpus.push(times.cpu);
    }
    if (session !== undefined) {
      const { profile: data } = await post<{ profile: unknown }>(session, 'Profiler.stop');
      await writeFile(`${profile}.${label}.cpuprofile`, JSON.stringify(data));
      session.disconnect();
    }
    const totals = hashes.map((h, i) => h + persists[i]!);
    rows.push({ name: `2,000-send block: workingHash @${label}`, value: +median(hashes).toFixed(1), unit: 'ms' });
    rows.push({ name: `2,000-send block: commit (persist) @${label}`, value: +median(persists).toFixed(1), unit: 'ms' });
    rows.push({ name: `2,000-send block: hash+persist @${label} (median of ${blocks})`, value: +median(totals).toFixed(1), unit: 'ms' });
    rows.push({ name: `2,000-send block: hash+persist, best @${label}`, value: +Math.min(...totals).toFixed(1), unit: 'ms' });
    rows.push({ name: `2,000-send block: hash+persist, process CPU time @${label}`, value: +median(cpus).toFixed(1), unit: 'ms' });
    await cms.close();
  } finally {
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

interface BlockTimes {
  hash: number;
  persist: number;
  cpu: number;
}

async function measureBlock(cms: RootMultiStore, accounts: number, random: () => number): Promise<BlockTimes> {
  sendBlock(cms, accounts, SENDS, random);
  const cpu = process.cpuUsage();
  let t = now();
  cms.workingHash();
  const hash = now() - t;
  t = now();
  await cms.commit();
  const persist = now() - t;
  const used = process.cpuUsage(cpu);
  return { hash, persist, cpu: (used.user + used.system) / 1000 };
}

/** Child of a paired run: populate, say "ready", then one block per "block" line on stdin. */
async function serve(accounts: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-commit-bench-'));
  const db = await openDatabase(dir);
  const cms = await openCommitMultiStore(db, { stores: STORES, pruning: PRUNING_DEFAULT, syncCommits: true });
  try {
    await populate(cms, accounts);
    const random = rng(accounts);
    for (let b = 0; b < WARMUP_BLOCKS; b++) {
      sendBlock(cms, accounts, SENDS, random);
      await cms.commit();
    }
    process.stdout.write('ready\n');
    for await (const line of createInterface({ input: process.stdin })) {
      if (line !== 'block') break;
      process.stdout.write(`${JSON.stringify(await measureBlock(cms, accounts, random))}\n`);
    }
    await cms.close();
  } finally {
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

class Server {
  private readonly lines: AsyncIterator<string>;

  constructor(private readonly child: ChildProcess) {
    this.lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  }

  static start(checkout: string, accounts: number): Server {
    const script = join(checkout, 'bench', 'store', 'commit.bench.ts');
    const child = spawn(process.execPath, [...process.execArgv, script, '--serve', String(accounts)], { cwd: checkout, stdio: ['pipe', 'pipe', 'inherit'] });
    return new Server(child);
  }

  async next(): Promise<string> {
    const { value, done } = await this.lines.next();
    if (done === true) throw new Error('benchmark child exited early');
    return value;
  }

  async block(): Promise<BlockTimes> {
    this.child.stdin!.write('block\n');
    return JSON.parse(await this.next()) as BlockTimes;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end('quit\n');
    await exited;
  }
}

async function pairedSize(other: string, accounts: number, rounds: number, rows: Row[], log: (line: string) => void): Promise<void> {
  const label = accounts >= 1_000_000 ? `${accounts / 1_000_000}M` : `${accounts / 1000}k`;
  const here = fileURLToPath(new URL('../..', import.meta.url));
  const mine = Server.start(here, accounts);
  const theirs = Server.start(other, accounts);
  try {
    if ((await mine.next()) !== 'ready' || (await theirs.next()) !== 'ready') throw new Error('benchmark child did not start');
    log(`  both stores populated @${label}`);
    const a: BlockTimes[] = [];
    const b: BlockTimes[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        a.push(await mine.block());
        b.push(await theirs.block());
      } else {
        b.push(await theirs.block());
        a.push(await mine.block());
      }
    }
    const total = (x: BlockTimes): number => x.hash + x.persist;
    const med = (xs: BlockTimes[], f: (x: BlockTimes) => number): number => +median(xs.map(f)).toFixed(1);
    rows.push({ name: `paired @${label}: hash+persist, this checkout (median of ${rounds})`, value: med(a, total), unit: 'ms' });
    rows.push({ name: `paired @${label}: hash+persist, other checkout`, value: med(b, total), unit: 'ms' });
    rows.push({ name: `paired @${label}: workingHash / persist, this checkout`, value: med(a, (x) => x.hash), unit: `/ ${med(a, (x) => x.persist)} ms` });
    rows.push({ name: `paired @${label}: workingHash / persist, other checkout`, value: med(b, (x) => x.hash), unit: `/ ${med(b, (x) => x.persist)} ms` });
    rows.push({ name: `paired @${label}: ratio this/other, hash+persist wall (median of rounds)`, value: +median(a.map((x, i) => total(x) / total(b[i]!))).toFixed(2), unit: '×' });
    rows.push({ name: `paired @${label}: process CPU time, this / other`, value: med(a, (x) => x.cpu), unit: `/ ${med(b, (x) => x.cpu)} ms` });
    rows.push({ name: `paired @${label}: ratio this/other, CPU time (median of rounds)`, value: +median(a.map((x, i) => x.cpu / b[i]!.cpu)).toFixed(2), unit: '×' });
  } finally {
    await Promise.all([mine.stop(), theirs.stop()]);
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const sizes = (process.env.COMMIT_BENCH_ACCOUNTS ?? '10000,100000')
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  const blocks = Number(process.env.COMMIT_BENCH_BLOCKS ?? 9);
  const rows: Row[] = [];
  const input = new Uint8Array(75);
  const t = now();
  for (let i = 0; i < 200_000; i++) createHash('sha256').update(input).digest();
  rows.push({ name: 'yardstick: createHash sha256 of 75 bytes', value: +(((now() - t) * 1000) / 200_000).toFixed(3), unit: 'µs' });
  rows.push({ name: 'load average (1 min) at start', value: +loadavg()[0]!.toFixed(2), unit: '' });
  const other = process.env.COMMIT_BENCH_PAIR;
  for (const accounts of sizes) {
    log(`commit bench: ${accounts} accounts`);
    if (other !== undefined && other !== '') await pairedSize(other, accounts, Number(process.env.COMMIT_BENCH_ROUNDS ?? 15), rows, log);
    else await benchSize(accounts, blocks, rows, log, process.env.COMMIT_BENCH_PROFILE);
  }
  rows.push({ name: 'load average (1 min) at end', value: +loadavg()[0]!.toFixed(2), unit: '' });
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--serve') {
  await serve(Number(process.argv[3]));
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
