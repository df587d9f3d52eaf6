/**
 * Proof-of-stake benchmark (issue 9): the modules' own block work and F1's promise, on the
 * app's modules over an in-memory store branch (no consensus, no commit):
 *
 *   - BeginBlock + EndBlock of distribution, slashing, evidence and staking with 100 bonded
 *     validators and 100,000 delegations, every validator signing, fees to allocate each block;
 *   - one reward withdrawal after 10 blocks and after 10,000 blocks of allocations (F1: the same
 *     cost — a withdrawal reads two period ratios, not the blocks in between);
 *   - the EndBlock that matures 10,000 unbonding entries at once.
 *
 * Times are wall-clock medians of CPU-bound loops on a shared, loaded machine; compare within a run.
 *
 *   npx tsx bench/pos/pos.bench.ts
 *   POS_BENCH_DELEGATIONS=2000 POS_BENCH_BLOCKS=200 POS_BENCH_UNBONDINGS=500 npx tsx bench/pos/pos.bench.ts   (a quick look)
 */
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { PubKeySchema as Ed25519PubKeySchema } from '../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { CommissionRatesSchema, CommissionSchema, DescriptionSchema, ValidatorSchema } from '../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import type { VoteInfo } from '../../src/node/abci/types.js';
import { openApp } from '../../src/node/app/index.js';
import { createModuleManager } from '../../src/node/app/modules.js';
import { anyPack } from '../../src/node/codec/index.js';
import type { BankKeeper } from '../../src/node/modules/bank/keeper.js';
import type { DistributionKeeper } from '../../src/node/modules/distribution/keeper.js';
import { valString } from '../../src/node/modules/shared/address.js';
import { Context, type BlockHeader } from '../../src/node/modules/shared/context.js';
import type { StakingKeeper } from '../../src/node/modules/staking/keeper.js';
import { BondStatus, newValidator, validatorConsAddress } from '../../src/node/modules/staking/validator.js';
import { sha256 } from '../../src/keyring/hash.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModuleManager } from '../../src/node/platform/manager.js';
import type { CacheMultiStore } from '../../src/node/store/index.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const DENOM = 'attotoken';
const TOKEN = 10n ** 18n;
const GENESIS = Date.UTC(2024, 0, 1);

const address = (label: string): Uint8Array => sha256(new TextEncoder().encode(label)).slice(0, 20);

interface World {
  manager: ModuleManager;
  branch: CacheMultiStore;
  /** Writes the branch into the store, commits, and opens a new branch (as a block does). */
  commit(): Promise<void>;
  height: number;
  time: number;
  votes: VoteInfo[];
  proposer: Uint8Array;
  ctx(): Context;
  staking: StakingKeeper;
  bank: BankKeeper;
  distribution: DistributionKeeper;
  close(): Promise<void>;
}

async function world(validators: number): Promise<World> {
  // LevelDB in a temp dir, as a node runs (the in-memory database scans on iteration).
  const dir = mkdtempSync(join(tmpdir(), 'tokend-pos-bench-'));
  const opened = await openApp(await openDatabase(dir), { chainId: 'bench-1', sigVerifyWorkers: 0 }, { syncCommits: false });
  const manager = createModuleManager();
  const w: World = {
    manager,
    branch: opened.store.branch(),
    async commit() {
      w.branch.write();
      await opened.store.commit();
      w.branch = opened.store.branch();
    },
    height: 1,
    time: GENESIS,
    votes: [],
    proposer: new Uint8Array(20),
    ctx() {
      const header: BlockHeader = { height: w.height, time: new Date(w.time), chainId: 'bench-1', proposerAddress: w.proposer, hash: new Uint8Array(32).fill(1), nextValidatorsHash: new Uint8Array(32) };
      return new Context({ mode: 'block', multiStore: w.branch, header, cometInfo: { lastCommit: { round: 0, votes: w.votes }, misbehavior: [] } });
    },
    staking: manager.keeper<StakingKeeper>('staking'),
    bank: manager.keeper<BankKeeper>('bank'),
    distribution: manager.keeper<DistributionKeeper>('distribution'),
    async close() {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const ctx = w.ctx();
  for (let i = 0; i < validators; i++) {
    const operator = address(`bench-validator-${i}`);
    const consKey = sha256(new TextEncoder().encode(`bench-cons-${i}`));
    let validator = newValidator(valString(operator), anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: consKey })), create(DescriptionSchema, { moniker: `v${i}` }));
    validator = create(ValidatorSchema, {
      ...validator,
      commission: create(CommissionSchema, { commissionRates: create(CommissionRatesSchema, { rate: (TOKEN / 10n).toString(), maxRate: (TOKEN / 5n).toString(), maxChangeRate: (TOKEN / 100n).toString() }), updateTime: timestampFromDate(new Date(GENESIS)) }),
    });
    w.staking.setValidator(ctx, validator);
    w.staking.setValidatorByConsAddr(ctx, validator);
    w.staking.setValidatorByPowerIndex(ctx, validator);
    await w.staking.hooks.afterValidatorCreated(ctx, operator);
    w.bank.addCoins(ctx, operator, [{ denom: DENOM, amount: 1000n * TOKEN }]);
    await w.staking.delegate(ctx, operator, 100n * TOKEN + BigInt(i) * TOKEN, BondStatus.UNBONDED, w.staking.getValidator(ctx, operator)!);
  }
  await manager.endBlock(() => ctx);
  w.votes = (await w.staking.getLastValidators(ctx)).map((validator) => ({ validatorAddress: validatorConsAddress(validator), power: BigInt(validator.tokens) / TOKEN, blockIdFlag: 2 as const }));
  w.proposer = w.votes[0]!.validatorAddress;
  await w.commit();
  return w;
}

async function delegate(w: World, delegator: Uint8Array, validatorIndex: number, amount: bigint): Promise<void> {
  const ctx = w.ctx();
  const operator = address(`bench-validator-${validatorIndex}`);
  w.bank.addCoins(ctx, delegator, [{ denom: DENOM, amount }]);
  await w.staking.delegate(ctx, delegator, amount, BondStatus.UNBONDED, w.staking.getValidator(ctx, operator)!);
}

/**
 * One block of the modules' work on a fresh branch: fees into the fee collector, then BeginBlock
 * and EndBlock (timed: the returned ms), then write + commit (not timed).
 */
async function block(w: World, fee = 1_000_000n): Promise<number> {
  w.height++;
  w.time += 5000;
  const ctx = w.ctx();
  const feeCollector = w.manager.keeper<{ getModuleAddress(name: string): Uint8Array | undefined }>('auth').getModuleAddress('fee_collector')!;
  if (fee > 0n) w.bank.addCoins(ctx, feeCollector, [{ denom: DENOM, amount: fee }]);
  const started = performance.now();
  await w.manager.beginBlock(() => ctx);
  await w.manager.endBlock(() => ctx);
  const elapsed = performance.now() - started;
  await w.commit();
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const rows: Row[] = [];
  const delegations = Number(process.env.POS_BENCH_DELEGATIONS ?? 100_000);
  const longRun = Number(process.env.POS_BENCH_BLOCKS ?? 10_000);
  const unbondings = Number(process.env.POS_BENCH_UNBONDINGS ?? 10_000);

  // 1. BeginBlock + EndBlock with 100 validators and `delegations` delegations.
  {
    const w = await world(100);
    const started = performance.now();
    for (let i = 0; i < delegations; i++) {
      await delegate(w, address(`bench-delegator-${i}`), i % 100, TOKEN);
      if (i % 5000 === 4999) await w.commit();
    }
    await w.commit();
    log(`${delegations} delegations to 100 validators set up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (let i = 0; i < 5; i++) await block(w); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 50; i++) times.push(await block(w));
    rows.push({ name: `begin+end block, 100 vals, ${delegations / 1000}k delegations`, value: median(times), unit: 'ms/block' });
    const problems = [...(await w.staking.invariants(w.ctx())), ...(await w.distribution.invariants(w.ctx()))];
    if (problems.length > 0) throw new Error(`invariants broken: ${problems.join('; ')}`);
    await w.close();
  }

  // 2. Withdrawal after 10 and after 10,000 blocks of allocations (4 validators, 200 delegators).
  {
    const w = await world(4);
    const delegators = Array.from({ length: 200 }, (_, i) => address(`bench-withdrawer-${i}`));
    for (let i = 0; i < delegators.length; i++) await delegate(w, delegators[i]!, i % 4, 10n * TOKEN);
    await w.commit();
    const withdraw = async (from: number, to: number): Promise<number> => {
      const times: number[] = [];
      for (let i = from; i < to; i++) {
        const ctx = w.ctx();
        const operator = address(`bench-validator-${i % 4}`);
        const started = performance.now();
        await w.distribution.withdrawRewards(ctx, delegators[i]!, operator);
        times.push(performance.now() - started);
      }
      await w.commit();
      return median(times);
    };
    for (let i = 0; i < 10; i++) await block(w);
    const after10 = await withdraw(0, 100);
    for (let i = 10; i < longRun; i++) await block(w);
    const after10k = await withdraw(100, 200);
    rows.push({ name: 'withdraw rewards after 10 blocks', value: after10 * 1000, unit: 'µs' });
    rows.push({ name: `withdraw rewards after ${longRun.toLocaleString('en-US')} blocks`, value: after10k * 1000, unit: 'µs' });
    rows.push({ name: `withdraw cost ratio ${longRun}/10 blocks`, value: after10k / after10, unit: 'x' });
    await w.close();
  }

  // 3. 10,000 unbonding entries maturing in one EndBlock.
  {
    const w = await world(4);
    const count = unbondings;
    for (let i = 0; i < count; i++) {
      const delegator = address(`bench-unbonder-${i}`);
      await delegate(w, delegator, i % 4, 2n * TOKEN);
      await w.staking.undelegate(w.ctx(), delegator, address(`bench-validator-${i % 4}`), TOKEN * TOKEN);
      if (i % 5000 === 4999) await w.commit();
    }
    await w.commit();
    await block(w, 0n);
    w.time += 21 * 24 * 3600 * 1000; // past the unbonding time: everything matures in the next EndBlock
    w.height++;
    const endCtx = w.ctx();
    const started = performance.now();
    await w.manager.endBlock(() => endCtx);
    const elapsed = performance.now() - started;
    const left = (await w.staking.getAllUnbondingDelegations(endCtx)).length;
    if (left !== 0) throw new Error(`${left} unbonding delegations did not mature`);
    rows.push({ name: `EndBlock maturing ${count} unbonding entries`, value: elapsed, unit: 'ms' });
    await w.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(3)} ${row.unit}\n`);
}
