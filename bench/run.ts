/**
 * `npm run bench`: runs every subsystem benchmark and prints one table. Each suite measures its
 * own ratios within the same run (machines here are shared and noisy); pick suites with
 * `npm run bench -- store app`. Progress goes to stderr; the table to stdout.
 */
interface Row {
  name: string;
  value: number;
  unit: string;
}

type Suite = { name: string; load: () => Promise<{ run: (log?: (line: string) => void) => Promise<Row[]> }> };

const SUITES: Suite[] = [
  { name: 'store', load: () => import('./store/store.bench.js') },
  { name: 'store-commit', load: () => import('./store/commit.bench.js') },
  { name: 'app', load: () => import('./app/send.bench.js') },
  { name: 'stall', load: () => import('./app/stall.bench.js') },
  { name: 'collections', load: () => import('./collections/collections.bench.js') },
  { name: 'ante', load: () => import('./ante/signing.bench.js') },
  { name: 'consensus', load: () => import('./consensus/consensus.bench.js') },
  { name: 'results', load: () => import('./consensus/results.bench.js') },
  { name: 'rpc', load: () => import('./rpc/rpc.bench.js') },
  { name: 'api', load: () => import('./api/api.bench.js') },
  { name: 'cli', load: () => import('./cli/startup.bench.js') },
  { name: 'p2p', load: () => import('./p2p/p2p.bench.js') },
  { name: 'mint', load: () => import('./mint/mint.bench.js') },
  { name: 'upgrade', load: () => import('./upgrade/upgrade.bench.js') },
  { name: 'ibc', load: () => import('./ibc/client.bench.js') },
  { name: 'ibc-packets', load: () => import('./ibc/packet.bench.js') },
  { name: 'ibc-relay', load: () => import('./ibc/relay.bench.js') },
  { name: 'pos', load: () => import('./pos/pos.bench.js') },
  { name: 'authz', load: () => import('./authz/authz.bench.js') },
  { name: 'gov', load: () => import('./gov/gov.bench.js') },
  { name: 'faults', load: () => import('./faults/faults.bench.js') },
  { name: 'e2e', load: () => import('./e2e/e2e.bench.js') },
  { name: 'evm', load: () => import('./evm/evm.bench.js') },
  { name: 'evm-chain', load: () => import('./evm/chain.bench.js') },
  { name: 'evm-e2e', load: () => import('./evm/e2e.bench.js') },
  { name: 'evm-logs', load: () => import('./evm/logs.bench.js') },
  { name: 'group', load: () => import('./group/group.bench.js') },
  { name: 'trace', load: () => import('./evm/trace.bench.js') },
  { name: 'netrc20', load: () => import('./netrc20/netrc20.bench.js') },
  { name: 'eip712', load: () => import('./evm/eip712.bench.js') },
];

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const suites = wanted.length ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;
  const rows: (Row & { suite: string })[] = [];
  for (const suite of suites) {
    process.stderr.write(`== ${suite.name}\n`);
    const started = Date.now();
    try {
      const { run } = await suite.load();
      for (const row of await run((line) => process.stderr.write(`   ${line}\n`))) rows.push({ ...row, suite: suite.name });
    } catch (err) {
      process.stderr.write(`   ${suite.name} failed: ${(err as Error).stack ?? String(err)}\n`);
      rows.push({ suite: suite.name, name: 'FAILED', value: NaN, unit: (err as Error).message });
    }
    process.stderr.write(`   (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  const widths = [9, Math.max(20, ...rows.map((r) => r.name.length)), 14, 10];
  const line = (cells: string[]): string => cells.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  process.stdout.write(`${line(['suite', 'measure', 'value', 'unit'])}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of rows) process.stdout.write(`${line([row.suite, row.name, formatValue(row.value), row.unit])}\n`);
}

await main();
