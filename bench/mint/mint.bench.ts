/**
 * Issue 9 — the BeginBlock cost of the mint and bonus modules.
 *
 * 1. Keeper level: `MintKeeper.beginBlock` (mint one block's provision into the mint account,
 *    pay two allocations and the fee collector) and `BonusKeeper.beginBlock` (pay the bonus from
 *    the pool to the fee collector), block after block on one branch of a committed chain, as the
 *    app runs them. CPU time per block (process.cpuUsage, so time descheduled on a shared machine
 *    does not count); the median of several rounds.
 * 2. App level: an empty block (FinalizeBlock + Commit) on a chain whose mint and bonus pay every
 *    block vs the same chain with both switched off (inflation 0, bonus 0), rounds alternating
 *    back to back; the median of the paired differences is what mint + bonus add to a block,
 *    store writes and IAVL commit included.
 *
 *   npx tsx bench/mint/mint.bench.ts
 *   MINT_BENCH_BLOCKS=5000 MINT_BENCH_ROUNDS=9 npx tsx bench/mint/mint.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import { createModuleManager } from '../../src/node/app/modules.js';
import type { BonusKeeper } from '../../src/node/modules/bonus/keeper.js';
import type { MintKeeper } from '../../src/node/modules/mint/keeper.js';
import { accString, moduleAddress } from '../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../src/node/modules/shared/context.js';
import { CHAIN_ID, DENOM, TOKEN, buildAppState, startChain, testKey, type Chain } from '../../test/node/app/helpers.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const alice = testKey('alice');
const validator = testKey('validator');
const POOL = 10n ** 30n;

function economy(active: boolean): any {
  const state = buildAppState({ accounts: [[alice, 1_000_000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as any;
  state.mint.params = {
    mint_denom: DENOM,
    blocks_per_year: '6311520',
    start_height: '1',
    inflation: active ? '0.000000013654032124' : '0',
    additional_allocations: [
      { address: testKey('carol').bech32, rate: '0.1' },
      { address: testKey('dave').bech32, rate: '0.05' },
    ],
  };
  state.bonus.params = { bonus_denom: DENOM, bonus_amount: active ? '4753213172104342535' : '0' };
  state.bank.balances.push({ address: accString(moduleAddress('bonus')), coins: [{ denom: DENOM, amount: POOL.toString() }] });
  const supply = state.bank.supply.find((coin: { denom: string }) => coin.denom === DENOM);
  supply.amount = (BigInt(supply.amount) + POOL).toString();
  return state;
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU µs per call of `step` over `blocks` consecutive heights on one branch. */
function perBlock(chain: Chain, blocks: number, step: (ctx: Context) => void): number {
  const branch = chain.store.branchCommitted();
  const started = cpuMicros();
  for (let i = 0; i < blocks; i++) {
    const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(CHAIN_ID, chain.height + 1 + i) });
    step(ctx);
  }
  return (cpuMicros() - started) / blocks;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const blocks = Number(process.env['MINT_BENCH_BLOCKS'] ?? 2000);
  const rounds = Number(process.env['MINT_BENCH_ROUNDS'] ?? 7);
  const appBlocks = Number(process.env['MINT_BENCH_APP_BLOCKS'] ?? 50);
  const active = await startChain(economy(true));
  const idle = await startChain(economy(false));
  try {
    await active.block([]);
    await idle.block([]);
    const manager = createModuleManager();
    const mint = manager.keeper<MintKeeper>('mint');
    const bonus = manager.keeper<BonusKeeper>('bonus');

    // Keeper level.
    const mintTimes: number[] = [];
    const bonusTimes: number[] = [];
    const bothTimes: number[] = [];
    perBlock(active, 200, (ctx) => mint.beginBlock(ctx)); // warm-up
    for (let r = 0; r < rounds; r++) {
      mintTimes.push(perBlock(active, blocks, (ctx) => mint.beginBlock(ctx)));
      bonusTimes.push(perBlock(active, blocks, (ctx) => bonus.beginBlock(ctx)));
      bothTimes.push(perBlock(active, blocks, (ctx) => {
        mint.beginBlock(ctx);
        bonus.beginBlock(ctx);
      }));
      log(`round ${r + 1}/${rounds}: mint ${mintTimes.at(-1)!.toFixed(1)} µs, bonus ${bonusTimes.at(-1)!.toFixed(1)} µs, both ${bothTimes.at(-1)!.toFixed(1)} µs per block`);
    }

    // App level: empty blocks with mint + bonus paying vs switched off.
    const blockCpu = async (chain: Chain): Promise<number> => {
      const started = cpuMicros();
      for (let i = 0; i < appBlocks; i++) await chain.block([]);
      return (cpuMicros() - started) / appBlocks;
    };
    await blockCpu(active);
    await blockCpu(idle);
    const diffs: number[] = [];
    const activeTimes: number[] = [];
    const idleTimes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const on = await blockCpu(active);
      const off = await blockCpu(idle);
      activeTimes.push(on);
      idleTimes.push(off);
      diffs.push(on - off);
      log(`app round ${r + 1}/${rounds}: empty block ${on.toFixed(0)} µs with mint+bonus, ${off.toFixed(0)} µs without`);
    }
    return [
      { name: 'mint BeginBlock (2 allocations)', value: median(mintTimes), unit: 'µs/block' },
      { name: 'bonus BeginBlock', value: median(bonusTimes), unit: 'µs/block' },
      { name: 'mint + bonus BeginBlock', value: median(bothTimes), unit: 'µs/block' },
      { name: 'empty block, mint+bonus on', value: median(activeTimes), unit: 'µs/block' },
      { name: 'empty block, mint+bonus off', value: median(idleTimes), unit: 'µs/block' },
      { name: 'mint+bonus added to a block', value: median(diffs), unit: 'µs/block' },
    ];
  } finally {
    await active.close();
    await idle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  for (const row of rows) process.stdout.write(`${row.name}: ${row.value.toFixed(1)} ${row.unit}\n`);
}
