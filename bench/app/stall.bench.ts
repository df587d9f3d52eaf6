/**
 * Queries while a block executes (issue 15): the longest a balance query waits while
 * FinalizeBlock + Commit of a 2,000-send block run on the same thread, with block execution
 * yielding to the event loop every `executionSliceMs` (default) and running in one go (0),
 * alternating blocks in the same run.
 *
 *   npx tsx bench/app/stall.bench.ts
 *   STALL_ACCOUNTS=5000 STALL_BLOCK_TXS=2000 STALL_BLOCKS=6 npx tsx bench/app/stall.bench.ts
 *
 * A prober issues an in-process ABCI bank balance query every millisecond (the RPC/REST/gRPC
 * servers answer on the same event loop) and records how long each waited, from when it was due
 * until it was answered. The block's own time is reported too: yielding must not cost throughput.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { QueryBalanceRequestSchema } from '../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { defaultAppOptions } from '../../src/node/app/options.js';
import { DENOM, finalizeAndCommit, makeKeys, startChain, TxPlanner, type Chain, type Row } from './send.bench.js';

interface Probe {
  waits: number[];
  stop(): Promise<void>;
}

/** Queries `chain` every millisecond until stopped; each wait = answered − due. */
function probe(chain: Chain, address: string): Probe {
  const data = toBinary(QueryBalanceRequestSchema, create(QueryBalanceRequestSchema, { address, denom: DENOM }));
  const waits: number[] = [];
  let running = true;
  const loop = (async (): Promise<void> => {
    while (running) {
      const due = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1));
      const response = await chain.app.query({ path: '/cosmos.bank.v1beta1.Query/Balance', data, height: 0, prove: false });
      if (response.code !== 0) throw new Error(`balance query failed: ${response.log}`);
      waits.push(Math.max(0, performance.now() - due - 1));
    }
  })();
  return {
    waits,
    async stop() {
      running = false;
      await loop;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const accounts = Number(process.env['STALL_ACCOUNTS'] ?? 5000);
  const blockTxs = Number(process.env['STALL_BLOCK_TXS'] ?? 2000);
  const blocks = Number(process.env['STALL_BLOCKS'] ?? 6);
  const dir = await mkdtemp(join(tmpdir(), 'tokend-stall-bench-'));
  try {
    const keys = makeKeys(accounts);
    const validator = makeKeys(accounts + 1)[accounts]!;
    const planner = new TxPlanner(keys);
    const plan = planner.blocks(blocks + 2, blockTxs);
    const chain = await startChain(join(dir, 'chain'), keys, validator, 1);
    const results = new Map<number, { waits: number[]; blockMs: number[] }>();
    for (let b = 0; b < plan.length; b++) {
      const slice = b % 2 === 0 ? defaultAppOptions.executionSliceMs : 0;
      chain.app.setExecutionSlice(slice);
      for (const tx of plan[b]!) await chain.app.checkTx({ tx, type: 'new' });
      const prober = probe(chain, keys[0]!.bech32);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const timing = await finalizeAndCommit(chain, plan[b]!);
      await prober.stop();
      if (b < 2) continue; // warm-up: one block of each
      const entry = results.get(slice) ?? { waits: [], blockMs: [] };
      entry.waits.push(...prober.waits);
      entry.blockMs.push(timing.finalizeMs + timing.commitMs);
      results.set(slice, entry);
      const sorted = [...prober.waits].sort((x, y) => x - y);
      log(`block ${chain.height} (slice ${slice} ms): finalize ${timing.finalizeMs.toFixed(0)} ms, commit ${timing.commitMs.toFixed(0)} ms; ${sorted.length} queries, p99 wait ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms`);
    }
    await chain.close();
    const rows: Row[] = [];
    for (const [slice, { waits, blockMs }] of results) {
      const sorted = waits.sort((x, y) => x - y);
      const label = slice === 0 ? 'block in one go' : `yield every ${slice} ms`;
      rows.push({ name: `query wait during a ${blockTxs}-send block, ${label}: p50`, value: round(percentile(sorted, 50)), unit: 'ms' });
      rows.push({ name: `query wait during a ${blockTxs}-send block, ${label}: p99`, value: round(percentile(sorted, 99)), unit: 'ms' });
      rows.push({ name: `query wait during a ${blockTxs}-send block, ${label}: max`, value: round(percentile(sorted, 100)), unit: 'ms' });
      rows.push({ name: `queries answered during the block, ${label}`, value: sorted.length, unit: 'count' });
      rows.push({ name: `FinalizeBlock + Commit, ${label}`, value: round(blockMs.reduce((a, v) => a + v, 0) / blockMs.length), unit: 'ms/block' });
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run((line) => process.stderr.write(`${line}\n`))
    .then((rows) => {
      for (const row of rows) console.log(`${row.name.padEnd(80)} ${String(row.value).padStart(10)} ${row.unit}`);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
