/**
 * Issue 10 — the PreBlock cost of x/upgrade on every block. With no plan it reads one key (the
 * plan) after a once-per-process check of the last applied upgrade; with a plan not yet due it
 * also decodes the plan. CPU time per block (process.cpuUsage), keeper's preBlock run block after
 * block on one branch of a committed chain as the app runs it; the median of several rounds; and,
 * for scale, a whole empty block (FinalizeBlock + Commit) of the same app.
 *
 *   npx tsx bench/upgrade/upgrade.bench.ts
 *   UPGRADE_BENCH_BLOCKS=50000 npx tsx bench/upgrade/upgrade.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { PlanSchema } from '../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { Context, emptyHeader } from '../../src/node/modules/shared/context.js';
import type { UpgradeKeeper } from '../../src/node/modules/upgrade/keeper.js';
import { CHAIN_ID, TOKEN, buildAppState, startChain, testKey, type Chain } from '../../test/node/app/helpers.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU µs per PreBlock over `blocks` consecutive heights on one branch of `chain`'s committed state. */
async function perBlock(chain: Chain, keeper: UpgradeKeeper, blocks: number): Promise<number> {
  const branch = chain.store.branchCommitted();
  const started = cpuMicros();
  for (let i = 0; i < blocks; i++) {
    await keeper.preBlock(new Context({ mode: 'block', multiStore: branch, header: emptyHeader(CHAIN_ID, chain.height + 1 + i) }));
  }
  return (cpuMicros() - started) / blocks;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const blocks = Number(process.env['UPGRADE_BENCH_BLOCKS'] ?? 20000);
  const rounds = Number(process.env['UPGRADE_BENCH_ROUNDS'] ?? 7);
  const validator = testKey('validator');
  const chain = await startChain(buildAppState({ accounts: [[validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  try {
    await chain.block([]);
    const keeper = chain.app.manager.keeper<UpgradeKeeper>('upgrade');
    await perBlock(chain, keeper, 100); // warm-up (and the once-per-process downgrade check)
    const none: number[] = [];
    for (let r = 0; r < rounds; r++) none.push(await perBlock(chain, keeper, blocks));

    // A plan far ahead: every block reads and decodes it.
    const branch = chain.store.branch();
    await keeper.scheduleUpgrade(new Context({ mode: 'block', multiStore: branch, header: emptyHeader(CHAIN_ID, chain.height + 1) }), create(PlanSchema, { name: 'far', height: 10n ** 12n }));
    branch.write();
    await chain.block([]);
    const pending: number[] = [];
    for (let r = 0; r < rounds; r++) pending.push(await perBlock(chain, keeper, blocks));
    // For scale: a whole empty block (FinalizeBlock + Commit) of the same app, CPU µs.
    const emptyBlocks = Number(process.env['UPGRADE_BENCH_APP_BLOCKS'] ?? 200);
    const started = cpuMicros();
    for (let i = 0; i < emptyBlocks; i++) await chain.block([]);
    const emptyBlock = (cpuMicros() - started) / emptyBlocks;
    const rows: Row[] = [
      { name: 'preBlock, no plan', value: median(none), unit: 'µs CPU/block' },
      { name: 'preBlock, plan not yet due', value: median(pending), unit: 'µs CPU/block' },
      { name: 'empty block (finalize+commit)', value: emptyBlock, unit: 'µs CPU/block' },
      { name: 'preBlock share of empty block', value: (100 * median(none)) / emptyBlock, unit: '%' },
    ];
    for (const row of rows) log(`${row.name}: ${row.value.toFixed(2)} ${row.unit}`);
    return rows;
  } finally {
    await chain.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run(console.error)) console.log(`${row.name}\t${row.value.toFixed(2)}\t${row.unit}`);
}
