/**
 * Governance end to end with the real binary and a short deposit/voting period set in genesis:
 * CosmJS queries gov and signs MsgSubmitProposal / MsgDeposit / MsgVote in direct and amino
 * modes; a parameter-change proposal submitted with `tx gov submit-legacy-proposal param-change`
 * passes and `q staking params` / `q params subspace` show the new value; a proposal nobody votes
 * on is rejected for lack of quorum and its deposit refunded; bad input is one line.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, cliOk as ok, runCli, runNodeScript } from '../helpers/cli.js';
import { JUNK, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, nextBlock, startOnFreePorts, stopNode, waitForBlockTime } from '../helpers/node.js';

jest.setTimeout(180_000);

const MIN_DEPOSIT = '10000000attotoken';
const FEES = '200000attotoken';

describe('governance with the real binary', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let n: string[];
  let kb: string[];

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-gov-');
    const h = ['--home', home];
    fastBlocks(home);
    await ok(['keys', 'add', 'bob', '--keyring-backend', 'test', ...h]);
    await ok(['add-genesis-account', 'bob', '1000000000000000000attotoken', '--keyring-backend', 'test', ...h]);
    // The short periods an operator sets in genesis for a test network.
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    Object.assign(genesis.app_state.gov.params, { min_deposit: [{ denom: 'attotoken', amount: '10000000' }], max_deposit_period: '25s', voting_period: '25s' });
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    await ok(['validate-genesis', ...h]);
    bg = await startOnFreePorts(home, 2);
    n = ['--node', bg.node];
    kb = ['--keyring-backend', 'test', '--home', home, ...n];
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  async function proposalStatus(id: number): Promise<string> {
    return JSON.parse(await ok(['q', 'gov', 'proposal', String(id), '-o', 'json', ...n])).proposal.status;
  }

  async function waitForStatus(id: number, wanted: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const proposal = JSON.parse(await ok(['q', 'gov', 'proposal', String(id), '-o', 'json', ...n])).proposal;
      const current: string = proposal.status;
      if (current === wanted) return;
      if (current !== 'PROPOSAL_STATUS_VOTING_PERIOD' && current !== 'PROPOSAL_STATUS_DEPOSIT_PERIOD') throw new Error(`proposal ${id} ended ${current}, expected ${wanted}`);
      if (Date.now() > deadline) throw new Error(`proposal ${id} still ${current}`);
      // The period ends in the first block whose time is past its end: wait for that over HTTP.
      const end = current === 'PROPOSAL_STATUS_VOTING_PERIOD' ? proposal.voting_end_time : proposal.deposit_end_time;
      if (end) await waitForBlockTime(bg!.node, Date.parse(end), Math.max(1000, deadline - Date.now()));
      await nextBlock(bg!.node);
    }
  }

  async function tx(args: string[]): Promise<{ code: number; raw_log: string; events?: unknown[] }> {
    return JSON.parse(await ok(['tx', 'gov', ...args, '--fees', FEES, '--yes', '-b', 'block', '-o', 'json', ...kb]));
  }

  test('CosmJS: gov queries, and submit / deposit / vote signed in direct and amino modes', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const out = JSON.parse(await runNodeScript(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-gov.cjs'), [url, JUNK]));
    expect([out.directSubmit, out.directDeposit, out.directVote]).toEqual([0, 0, 0]);
    expect(out.directStatusBefore).toBe(1);
    expect(out.directStatus).toBe(2);
    expect(out.totalDeposit).toEqual(['10000000']);
    expect(out.vote).toEqual([[1, '1000000000000000000']]);
    expect(out.votingProposals).toContain('1');
    expect(out.deposits).toEqual([true]);
    expect(out.tallyYes).toBe('1000000000000000000000');
    expect(out.votingPeriod).toBe('25');
    expect(out.quorum).toBe('334000000000000000');
    expect(out.funded).toBe(0);
    expect(out.aminoSubmit).toEqual([0, '']);
    expect(out.aminoDeposit).toEqual([0, '']);
    expect(out.aminoVote).toEqual([0, '']);
    expect(out.aminoVoteStored).toEqual([3]);
    expect(out.byVoter).toEqual(['2']);
  });

  test('a parameter-change proposal passes and the parameter changes; a proposal without quorum is rejected and its deposit refunded', async () => {
    // bob's proposal gets no votes: rejected (quorum), and with burn_vote_quorum false his deposit comes back.
    // Submitted first (bob's own account, nothing shared with alice's txs), so its voting period runs
    // while alice's proposals are handled; checked at the end.
    const bobAddress = (await ok(['keys', 'show', 'bob', '-a', '--keyring-backend', 'test', '--home', home])).trim();
    const balanceOf = async (): Promise<bigint> => BigInt(JSON.parse(await ok(['q', 'bank', 'balances', bobAddress, '-o', 'json', ...n])).balances.find((c: { denom: string }) => c.denom === 'attotoken').amount);
    const bobBefore = await balanceOf();
    const text = await tx(['submit-legacy-proposal', '--type', 'text', '--title', 'Nobody cares', '--description', 'No votes', '--deposit', MIN_DEPOSIT, '--from', 'bob']);
    expect(text.code).toBe(0);
    const bobId = Math.max(...JSON.parse(await ok(['q', 'gov', 'proposals', '--depositor', bobAddress, '-o', 'json', ...n])).proposals.map((p: { id: string }) => Number(p.id)));
    expect(await balanceOf()).toBe(bobBefore - 200000n - 10000000n);

    const before = JSON.parse(await ok(['q', 'params', 'subspace', 'staking', 'MaxValidators', '-o', 'json', ...n]));
    expect(before.param.value).toBe('100');
    const file = join(home, 'param-change.json');
    writeFileSync(file, JSON.stringify({ title: 'More validators', description: 'Raise MaxValidators to 42', changes: [{ subspace: 'staking', key: 'MaxValidators', value: 42 }], deposit: MIN_DEPOSIT }));
    const submitted = await tx(['submit-legacy-proposal', 'param-change', file, '--from', 'alice']);
    expect(submitted.code).toBe(0);
    const list = JSON.parse(await ok(['q', 'gov', 'proposals', '-o', 'json', ...n]));
    const id = Math.max(...list.proposals.map((p: { id: string }) => Number(p.id)));
    expect(await proposalStatus(id)).toBe('PROPOSAL_STATUS_VOTING_PERIOD');
    expect((await tx(['vote', String(id), 'yes', '--from', 'alice'])).code).toBe(0);
    const aliceAddress = (await ok(['keys', 'show', 'alice', '-a', '--keyring-backend', 'test', '--home', home])).trim();
    const vote = JSON.parse(await ok(['q', 'gov', 'vote', String(id), aliceAddress, '-o', 'json', ...n]));
    expect(vote.vote.options).toEqual([{ option: 'VOTE_OPTION_YES', weight: '1.000000000000000000' }]);

    // A v1 proposal from a JSON file (messages + metadata + deposit + title + summary), half the
    // deposit at submission and the rest with `tx gov deposit`, then a weighted vote.
    const govAddress: string = JSON.parse(await ok(['q', 'auth', 'module-account', 'gov', '-o', 'json', ...n])).account.base_account.address;
    const v1File = join(home, 'v1-proposal.json');
    writeFileSync(v1File, JSON.stringify({
      messages: [{ '@type': '/cosmos.bank.v1beta1.MsgSetSendEnabled', authority: govAddress, send_enabled: [{ denom: 'stake', enabled: false }], use_default_for: [] }],
      metadata: 'ipfs://none',
      deposit: '5000000attotoken',
      title: 'Disable stake transfers',
      summary: 'A v1 proposal',
    }));
    expect((await tx(['submit-proposal', v1File, '--from', 'alice'])).code).toBe(0);
    const v1Id = id + 1;
    expect(await proposalStatus(v1Id)).toBe('PROPOSAL_STATUS_DEPOSIT_PERIOD');
    expect((await tx(['deposit', String(v1Id), '5000000attotoken', '--from', 'alice'])).code).toBe(0);
    expect(await proposalStatus(v1Id)).toBe('PROPOSAL_STATUS_VOTING_PERIOD');
    expect((await tx(['weighted-vote', String(v1Id), 'yes=0.7,abstain=0.3', '--from', 'alice'])).code).toBe(0);

    await waitForStatus(id, 'PROPOSAL_STATUS_PASSED');
    await waitForStatus(v1Id, 'PROPOSAL_STATUS_PASSED');
    const sendEnabled = JSON.parse(await ok(['q', 'bank', 'send-enabled', 'stake', '-o', 'json', ...n]));
    expect(sendEnabled.send_enabled).toEqual([{ denom: 'stake', enabled: false }]);
    const v1Tally = JSON.parse(await ok(['q', 'gov', 'tally', String(v1Id), '-o', 'json', ...n]));
    expect(v1Tally.tally.yes_count).toBe('700000000000000000000');
    const staking = JSON.parse(await ok(['q', 'staking', 'params', '-o', 'json', ...n]));
    expect(staking.params.max_validators).toBe(42);
    const after = JSON.parse(await ok(['q', 'params', 'subspace', 'staking', 'MaxValidators', '-o', 'json', ...n]));
    expect(after.param.value).toBe('42');
    const tally = JSON.parse(await ok(['q', 'gov', 'tally', String(id), '-o', 'json', ...n]));
    expect(tally.tally.yes_count).toBe('1000000000000000000000');

    // bob's proposal, submitted at the start: rejected for lack of quorum, deposit refunded.
    await waitForStatus(bobId, 'PROPOSAL_STATUS_REJECTED');
    expect(await balanceOf()).toBe(bobBefore - 200000n);
    const deposits = JSON.parse(await ok(['q', 'gov', 'deposits', String(bobId), '-o', 'json', ...n]));
    expect(deposits.deposits).toEqual([]);
  });

  test('bad input: one line, non-zero exit, nothing written', async () => {
    const unknown = await runCli(['tx', 'gov', 'vote', '999', 'yes', '--from', 'alice', '--fees', FEES, '--yes', '-b', 'block', ...kb]);
    expect(unknown.code).not.toBe(0);
    expect(`${unknown.stdout}${unknown.stderr}`).toMatch(/unknown proposal/);
    const option = await runCli(['tx', 'gov', 'vote', '1', 'maybe', '--from', 'alice', '--fees', FEES, '--yes', ...kb]);
    expect(option.code).not.toBe(0);
    expect(option.stderr.trim().split('\n')).toHaveLength(1);
    expect(option.stderr).toMatch(/invalid vote option "maybe"/);
    const weights = await runCli(['tx', 'gov', 'weighted-vote', '1', 'yes=0.6,no=0.3', '--from', 'alice', '--fees', FEES, '--yes', '-b', 'block', ...kb]);
    expect(weights.code).not.toBe(0);
    expect(`${weights.stdout}${weights.stderr}`).toMatch(/total weight lower than 1.00|inactive proposal/);
    const missing = await runCli(['tx', 'gov', 'submit-legacy-proposal', 'param-change', join(home, 'nope.json'), '--from', 'alice', '--yes', ...kb]);
    expect([missing.code, missing.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(missing.stderr).toMatch(/cannot read proposal file/);
  });
});
