/**
 * Governance benchmark (issue 10): the tally of a proposal with 100 bonded validators and
 * 100,000 delegators who all vote (each delegator overriding its validator's vote), on the app's
 * modules over LevelDB (no consensus):
 *
 *   - the live tally (the TallyResult query while the proposal is voted on);
 *   - the EndBlock that ends the voting period: tally (votes consumed), refund, status;
 *   - an ordinary EndBlock with that proposal still in its voting period (the queue is peeked,
 *     nothing is tallied: the tally runs only when the voting period ends).
 *
 * Times are wall-clock on a shared, loaded machine; compare within a run.
 *
 *   npx tsx bench/gov/gov.bench.ts
 *   GOV_BENCH_VOTES=5000 npx tsx bench/gov/gov.bench.ts   (a quick look)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { PubKeySchema as Ed25519PubKeySchema } from '../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { ProposalSchema, ProposalStatus, VoteOption, VoteSchema } from '../../src/gen/cosmos/gov/v1/gov_pb.js';
import { CommissionRatesSchema, CommissionSchema, DescriptionSchema, ValidatorSchema } from '../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { sha256 } from '../../src/keyring/hash.js';
import { openApp } from '../../src/node/app/index.js';
import { createModuleManager } from '../../src/node/app/modules.js';
import { anyPack } from '../../src/node/codec/index.js';
import type { BankKeeper } from '../../src/node/modules/bank/keeper.js';
import type { GovKeeper } from '../../src/node/modules/gov/keeper.js';
import { ActiveProposalQueue, Votes } from '../../src/node/modules/gov/keys.js';
import { defaultGovParams } from '../../src/node/modules/gov/params.js';
import { accString, valString } from '../../src/node/modules/shared/address.js';
import { Context, type BlockHeader } from '../../src/node/modules/shared/context.js';
import type { StakingKeeper } from '../../src/node/modules/staking/keeper.js';
import { BondStatus, newValidator } from '../../src/node/modules/staking/validator.js';
import { openDatabase } from '../../src/node/store/db/database.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const DENOM = 'attotoken';
const TOKEN = 10n ** 18n;
const GENESIS = Date.UTC(2024, 0, 1);
const VALIDATORS = 100;

const address = (label: string): Uint8Array => sha256(new TextEncoder().encode(label)).slice(0, 20);

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const voters = Number(process.env.GOV_BENCH_VOTES ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'tokend-gov-bench-'));
  const opened = await openApp(await openDatabase(dir), { chainId: 'bench-1', sigVerifyWorkers: 0 }, { syncCommits: false });
  const manager = createModuleManager();
  const staking = manager.keeper<StakingKeeper>('staking');
  const bank = manager.keeper<BankKeeper>('bank');
  const gov = manager.keeper<GovKeeper>('gov');
  let branch = opened.store.branch();
  let time = GENESIS;
  const ctx = (): Context => {
    const header: BlockHeader = { height: 2, time: new Date(time), chainId: 'bench-1', proposerAddress: new Uint8Array(20), hash: new Uint8Array(32).fill(1), nextValidatorsHash: new Uint8Array(32) };
    return new Context({ mode: 'block', multiStore: branch, header });
  };
  const commit = async (): Promise<void> => {
    branch.write();
    await opened.store.commit();
    branch = opened.store.branch();
  };
  const rows: Row[] = [];
  try {
    // 100 bonded validators, `voters` delegators (one delegation each), gov params.
    const setup = ctx();
    gov.setParams(setup, defaultGovParams(DENOM));
    for (let i = 0; i < VALIDATORS; i++) {
      const operator = address(`gov-bench-validator-${i}`);
      let validator = newValidator(valString(operator), anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: sha256(new TextEncoder().encode(`gov-bench-cons-${i}`)) })), create(DescriptionSchema, { moniker: `v${i}` }));
      validator = create(ValidatorSchema, {
        ...validator,
        commission: create(CommissionSchema, { commissionRates: create(CommissionRatesSchema, { rate: (TOKEN / 10n).toString(), maxRate: (TOKEN / 5n).toString(), maxChangeRate: (TOKEN / 100n).toString() }), updateTime: timestampFromDate(new Date(GENESIS)) }),
      });
      staking.setValidator(setup, validator);
      staking.setValidatorByConsAddr(setup, validator);
      staking.setValidatorByPowerIndex(setup, validator);
      await staking.hooks.afterValidatorCreated(setup, operator);
      bank.addCoins(setup, operator, [{ denom: DENOM, amount: 1000n * TOKEN }]);
      await staking.delegate(setup, operator, 100n * TOKEN, BondStatus.UNBONDED, staking.getValidator(setup, operator)!);
    }
    await manager.endBlock(() => setup);
    await commit();
    const started = performance.now();
    for (let i = 0; i < voters; i++) {
      const c = ctx();
      const delegator = address(`gov-bench-delegator-${i}`);
      bank.addCoins(c, delegator, [{ denom: DENOM, amount: TOKEN }]);
      await staking.delegate(c, delegator, TOKEN, BondStatus.UNBONDED, staking.getValidator(c, address(`gov-bench-validator-${i % VALIDATORS}`))!);
      if (i % 5000 === 4999) await commit();
    }
    await commit();
    log(`${voters} delegations to ${VALIDATORS} validators set up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // A proposal in its voting period; every validator and every delegator votes.
    const endMs = time + 10_000;
    const c = ctx();
    const proposal = create(ProposalSchema, { id: 1n, status: ProposalStatus.VOTING_PERIOD, metadata: 'bench', submitTime: timestampFromMs(time), depositEndTime: timestampFromMs(time), votingStartTime: timestampFromMs(time), votingEndTime: timestampFromMs(endMs), totalDeposit: [] });
    gov.setProposal(c, proposal);
    gov.setProposalID(c, 2n);
    ActiveProposalQueue.set(c, [endMs, 1n], 1n);
    const vote = (voter: Uint8Array, option: VoteOption) => create(VoteSchema, { proposalId: 1n, voter: accString(voter), options: [{ option, weight: '1.000000000000000000' }] });
    for (let i = 0; i < VALIDATORS; i++) {
      const operator = address(`gov-bench-validator-${i}`);
      Votes.set(c, [1n, operator], vote(operator, VoteOption.YES));
    }
    for (let i = 0; i < voters; i++) {
      const delegator = address(`gov-bench-delegator-${i}`);
      Votes.set(ctx(), [1n, delegator], vote(delegator, i % 3 === 0 ? VoteOption.NO : VoteOption.YES));
      if (i % 20000 === 19999) await commit();
    }
    await commit();

    const liveTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      // As the TallyResult query runs it: a query context over the committed state.
      const query = new Context({ mode: 'query', multiStore: opened.store.branchCommitted(), header: ctx().header });
      const t0 = performance.now();
      const outcome = await gov.tally(query, proposal, false);
      liveTimes.push(performance.now() - t0);
      if (i === 0) log(`tally: yes ${outcome.tally.yesCount}, no ${outcome.tally.noCount}, passes ${outcome.passes}`);
    }
    rows.push({ name: `live tally, ${VALIDATORS} vals, ${voters / 1000}k delegator votes`, value: Math.min(...liveTimes), unit: 'ms' });

    // Blocks before the end of the voting period: the queue is peeked, nothing tallied.
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      time += 100;
      const b = ctx();
      const t0 = performance.now();
      await gov.endBlock(b);
      idle.push(performance.now() - t0);
    }
    rows.push({ name: 'gov EndBlock while the proposal is voted on', value: idle.sort((a, b) => a - b)[10]! * 1000, unit: 'µs' });

    time = endMs;
    const final = ctx();
    const t0 = performance.now();
    await gov.endBlock(final);
    const endBlockMs = performance.now() - t0;
    const settled = gov.getProposal(final, 1n)!;
    log(`end of voting: ${ProposalStatus[settled.status]}, yes ${settled.finalTallyResult?.yesCount}`);
    rows.push({ name: `EndBlock ending the voting period (tally + ${voters / 1000}k votes removed)`, value: endBlockMs, unit: 'ms' });
    await commit();
  } finally {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(2)} ${row.unit}\n`);
}
