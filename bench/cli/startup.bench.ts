/**
 * CLI start-up: whole-process wall time of the built binary (bin/run.js, so `npm run build`
 * first) for `--help`, `query bank balances ADDR` and `query staking validators` against a node
 * this benchmark starts, each as the median of several runs taken in turn with `node -e 0` (the
 * yardstick: the ratio is what to compare across machines; issue 15 aims at ≤ 3× for a balance
 * query).
 *
 *   npx tsx bench/cli/startup.bench.ts
 *   CLI_BENCH_RUNS=20 npx tsx bench/cli/startup.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'run.js');
const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 10);

function tokend(args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tokend ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Wall milliseconds of one whole process run. */
function timeRun(command: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${command.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median wall time of `command` and of `node -e 0`, run in turn (A B A B …) after one warm-up each. */
async function measure(command: string[]): Promise<{ ms: number; ratio: number }> {
  const yardstick = [process.execPath, '-e', '0'];
  await timeRun(command);
  await timeRun(yardstick);
  const ratios: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = await timeRun(command);
    const b = await timeRun(yardstick);
    times.push(a);
    ratios.push(a / b);
  }
  return { ms: median(times), ratio: median(ratios) };
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

async function waitForNode(node: string, deadlineMs: number): Promise<void> {
  while (Date.now() < deadlineMs) {
    const result = spawnSync(process.execPath, [BIN, 'status', '--node', node, '-o', 'json'], { encoding: 'utf8' });
    if (result.status === 0 && Number(JSON.parse(result.stdout).sync_info.latest_block_height) >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`node ${node} did not start`);
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const home = mkdtempSync(join(tmpdir(), 'tokend-cli-bench-'));
  const h = ['--home', home];
  tokend(['init', 'bench', '--chain-id', 'testnet', ...h]);
  const configPath = join(home, 'config', 'config.toml');
  writeFileSync(configPath, readFileSync(configPath, 'utf8').replace(/^timeout_commit = .*$/m, 'timeout_commit = "200ms"'));
  const address = JSON.parse(tokend(['keys', 'add', 'alice', '--keyring-backend', 'test', '-o', 'json', ...h])).address as string;
  tokend(['add-genesis-account', 'alice', '1000000000000000000000000attotoken', '--keyring-backend', 'test', ...h]);
  tokend(['gentx', 'alice', '1000000000000000000000attotoken', '--keyring-backend', 'test', ...h]);
  tokend(['collect-gentxs', ...h]);
  const port = await freePort();
  const node = `tcp://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'start', ...h, '--rpc.laddr', node, '--api.address', `tcp://127.0.0.1:${await freePort()}`, '--grpc.address', `127.0.0.1:${await freePort()}`], { stdio: 'ignore' });
  const rows: Row[] = [];
  try {
    await waitForNode(node, Date.now() + 60_000);
    const cases: [string, string[]][] = [
      ['tokend --help', ['--help']],
      ['tokend q bank balances ADDR', ['q', 'bank', 'balances', address, '--node', node]],
      ['tokend q staking validators', ['q', 'staking', 'validators', '--node', node]],
    ];
    for (const [name, args] of cases) {
      const { ms, ratio } = await measure([process.execPath, BIN, ...args]);
      log(`${name}: ${ms.toFixed(0)} ms, ${ratio.toFixed(2)}× node -e 0 (median of ${RUNS})`);
      rows.push({ name: `${name} wall`, value: ms, unit: 'ms' }, { name: `${name} / node -e 0`, value: ratio, unit: '×' });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}\t${row.value.toFixed(2)} ${row.unit}\n`);
}
