/**
 * Group benchmark (issue 10): tallying a group of 1,000 members, on the app's modules over a
 * LevelDB-backed store (no consensus):
 *
 *   - 1,000 MsgVote handlers on one proposal (each checks membership and stores the vote);
 *   - the live tally (Query/TallyResult while voting): every vote read with its member's weight;
 *   - the EndBlock at the end of the voting period: final tally, votes pruned, proposal stored.
 *
 * Times are wall-clock on a shared, loaded machine; compare within a run.
 *
 *   npx tsx bench/group/group.bench.ts
 *   GROUP_BENCH_MEMBERS=200 npx tsx bench/group/group.bench.ts   (a quick look)
 */
import { pathToFileURL } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { Exec } from '../../src/gen/cosmos/group/v1/tx_pb.js';
import { DecisionPolicyWindowsSchema, MemberRequestSchema, ProposalStatus, ThresholdDecisionPolicySchema, VoteOption } from '../../src/gen/cosmos/group/v1/types_pb.js';
import { openApp } from '../../src/node/app/index.js';
import { createModuleManager } from '../../src/node/app/modules.js';
import { anyPack } from '../../src/node/codec/index.js';
import type { GroupKeeper } from '../../src/node/modules/group/keeper.js';
import { Proposals } from '../../src/node/modules/group/keys.js';
import { accString } from '../../src/node/modules/shared/address.js';
import { Context, type BlockHeader } from '../../src/node/modules/shared/context.js';
import { sha256 } from '../../src/keyring/hash.js';
import { openDatabase } from '../../src/node/store/db/database.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const GENESIS = Date.UTC(2024, 0, 1);
const VOTING_SECONDS = 3600;

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const members = Number(process.env.GROUP_BENCH_MEMBERS ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), 'tokend-group-bench-'));
  const opened = await openApp(await openDatabase(dir), { chainId: 'bench-1', sigVerifyWorkers: 0 }, { syncCommits: false });
  const manager = createModuleManager();
  const keeper = manager.keeper<GroupKeeper>('group');
  let branch = opened.store.branch();
  let height = 1;
  let time = GENESIS;
  const ctx = (): Context => {
    const header: BlockHeader = { height, time: new Date(time), chainId: 'bench-1', proposerAddress: new Uint8Array(20), hash: new Uint8Array(32).fill(1), nextValidatorsHash: new Uint8Array(32) };
    return new Context({ mode: 'block', multiStore: branch, header });
  };
  const commit = async (): Promise<void> => {
    branch.write();
    await opened.store.commit();
    branch = opened.store.branch();
    height++;
    time += 1000;
  };
  const rows: Row[] = [];
  try {
    const addresses = Array.from({ length: members }, (_, i) => accString(sha256(new TextEncoder().encode(`bench-member-${i}`)).slice(0, 20)));
    const admin = addresses[0]!;
    const groupId = await keeper.createGroup(ctx(), admin, addresses.map((address) => create(MemberRequestSchema, { address, weight: '1' })), '');
    // Every member must vote YES: the result is final only at the end of the voting period.
    const windows = create(DecisionPolicyWindowsSchema, { votingPeriod: create(DurationSchema, { seconds: BigInt(VOTING_SECONDS) }) });
    const policy = await keeper.createGroupPolicy(ctx(), admin, groupId, '', anyPack(ThresholdDecisionPolicySchema, create(ThresholdDecisionPolicySchema, { threshold: String(members + 1), windows })));
    const send = anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: policy, toAddress: admin, amount: [{ denom: 'attotoken', amount: '1' }] }));
    const id = await keeper.submitProposal(ctx(), { groupPolicyAddress: policy, proposers: [admin], metadata: '', messages: [send], exec: Exec.UNSPECIFIED, title: '', summary: '' });
    await commit();
    log(`group of ${members} members, proposal ${id}`);

    let started = performance.now();
    const voteCtx = ctx();
    for (const [i, voter] of addresses.entries()) await keeper.vote(voteCtx, id, voter, i % 3 === 0 ? VoteOption.NO : VoteOption.YES, '', Exec.UNSPECIFIED);
    const voting = performance.now() - started;
    rows.push({ name: `${members} votes (MsgVote handler)`, value: voting, unit: 'ms' });
    rows.push({ name: 'one vote', value: (voting * 1000) / members, unit: 'µs' });
    await commit();

    started = performance.now();
    const tally = await keeper.tallyResult(ctx(), id);
    rows.push({ name: `live tally, ${members} votes`, value: performance.now() - started, unit: 'ms' });
    log(`live tally: yes ${tally.yesCount}, no ${tally.noCount}`);

    time = GENESIS + (VOTING_SECONDS + 10) * 1000;
    const endCtx = ctx();
    started = performance.now();
    await manager.endBlock(() => endCtx);
    rows.push({ name: `EndBlock final tally, ${members} votes`, value: performance.now() - started, unit: 'ms' });
    const proposal = Proposals.get(endCtx, id)!;
    if (proposal.status !== ProposalStatus.REJECTED) throw new Error(`expected the proposal rejected at the end of voting, got status ${proposal.status}`);
    log(`final: ${ProposalStatus[proposal.status]}, yes ${proposal.finalTallyResult?.yesCount}`);
    await commit();
  } finally {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(3)} ${row.unit}\n`);
}
