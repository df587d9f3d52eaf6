/**
 * A block's results as the node stores and serves them (`npm run bench -- results`): the
 * FinalizeBlock response of a real block of bank sends (bench/app's chain), written and read as the
 * state store's binary record against the tagged JSON it replaced, and `block_results` rendered in
 * one piece against in slices (the longest piece is what a query waits behind). Medians of
 * RESULTS_BENCH_ROUNDS rounds (default 15), all in the same run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../src/util/hash.js';
import { decodeTagged, encodeTagged } from '../../src/node/consensus/store/codec.js';
import { decodeResponse, encodeEvents, encodeResponse } from '../../src/node/consensus/store/resultsCodec.js';
import { renderBlockResults, renderBlockResultsText } from '../../src/node/consensus/json.js';
import type { ResponseFinalizeBlock } from '../../src/node/abci/types.js';
import { makeKeys, startChain, TxPlanner } from '../app/send.bench.js';

interface Row {
  name: string;
  value: number;
  unit: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

function time(f: () => unknown): number {
  const started = performance.now();
  f();
  return performance.now() - started;
}

/** Renders in slices, timing each synchronous piece between the loop's turns. */
async function slicedPieces(height: number, response: ResponseFinalizeBlock, sliceMs: number): Promise<{ totalMs: number; longestMs: number }> {
  const pieces: number[] = [];
  let last = performance.now();
  let done = false;
  const watch = (): void => {
    const now = performance.now();
    pieces.push(now - last);
    last = now;
    if (!done) setImmediate(watch);
  };
  const started = performance.now();
  setImmediate(watch);
  await renderBlockResultsText(height, response, sliceMs);
  done = true;
  const totalMs = performance.now() - started;
  pieces.push(performance.now() - last);
  return { totalMs, longestMs: Math.max(...pieces) };
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const rounds = Number(process.env['RESULTS_BENCH_ROUNDS'] ?? 15);
  const txs = Number(process.env['RESULTS_BENCH_TXS'] ?? 500);
  const keys = makeKeys(Math.max(txs, 10));
  const validator = makeKeys(keys.length + 1)[keys.length]!;
  const dir = await mkdtemp(join(tmpdir(), 'results-bench-'));
  const chain = await startChain(dir, keys, validator, 1);
  try {
    log(`executing a block of ${txs} sends`);
    const block = new TxPlanner(keys).blocks(1, txs)[0]!;
    const response = await chain.app.finalizeBlock({
      txs: block,
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: sha256(new TextEncoder().encode('results-bench')),
      height: chain.height + 1,
      time: new Date(),
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    const samples: Record<string, number[]> = {};
    const add = (key: string, ms: number): void => void (samples[key] ??= []).push(ms);
    let tagged: Uint8Array = new Uint8Array(0);
    let binary: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < rounds; i++) {
      add('tagged write', time(() => ((tagged = encodeTagged({ ...response, events: [] })), encodeTagged(response.events))));
      add('binary write', time(() => ((binary = encodeResponse(response)), encodeEvents(response.events))));
      add('tagged read', time(() => decodeTagged(tagged, 'bench')));
      add('binary read', time(() => decodeResponse(binary, 'bench')));
      add('whole', time(() => JSON.stringify(renderBlockResults(1, response))));
      const sliced = await slicedPieces(1, response, 4);
      add('sliced total', sliced.totalMs);
      add('sliced longest', sliced.longestMs);
    }
    const m = (key: string): number => median(samples[key]!);
    const n = `${txs} sends`;
    return [
      { name: `results record of ${n}: write, tagged JSON`, value: m('tagged write'), unit: 'ms' },
      { name: `results record of ${n}: write, binary with string table`, value: m('binary write'), unit: 'ms' },
      { name: `results record of ${n}: read, tagged JSON`, value: m('tagged read'), unit: 'ms' },
      { name: `results record of ${n}: read, binary`, value: m('binary read'), unit: 'ms' },
      { name: `results record of ${n}: size, tagged JSON`, value: tagged.length / 1024, unit: 'KiB' },
      { name: `results record of ${n}: size, binary`, value: binary.length / 1024, unit: 'KiB' },
      { name: `block_results of ${n}: rendered in one piece`, value: m('whole'), unit: 'ms' },
      { name: `block_results of ${n}: rendered in 4 ms slices, total`, value: m('sliced total'), unit: 'ms' },
      { name: `block_results of ${n}: rendered in 4 ms slices, longest piece`, value: m('sliced longest'), unit: 'ms' },
    ];
  } finally {
    await chain.close();
    await rm(dir, { recursive: true, force: true });
  }
}
