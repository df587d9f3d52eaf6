/**
 * x/group end to end with the real binary: a group of three with a 2-of-3 threshold policy
 * executes a bank send through `tx group …` (the SDK's argument forms and JSON files), create-group,
 * create-group-policy (the decision policy nested in an Any), submit-proposal (the proposed MsgSend
 * nested), one vote and exec signed amino-json, the queries answering throughout,
 * and the refusals: bad input is one line with exit 2 and nothing sent; a proposal from a
 * non-member is the chain's group/7.
 */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, cliOk as ok } from '../helpers/cli.js';
import { ALICE_FUNDS, JUNK_ADDR, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(180_000);


describe('tx group / q group with the real binary', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  const address: Record<string, string> = {};

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-group-');
    const kb = ['--keyring-backend', 'test', '--home', home];
    fastBlocks(home);
    // The keys are independent files in the test keyring: added at once (alice's is the template's).
    address.alice = JUNK_ADDR;
    await Promise.all(
      ['bob', 'carol', 'dave'].map(async (name) => {
        address[name] = JSON.parse(await ok(['keys', 'add', name, '-o', 'json', ...kb])).address;
      }),
    );
    for (const name of ['bob', 'carol', 'dave']) await ok(['add-genesis-account', name, ALICE_FUNDS, ...kb]);
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('a 2-of-3 threshold policy executes a bank send', async () => {
    const n = ['--node', bg!.node];
    const tx = ['--keyring-backend', 'test', '--home', home, '--fees', '400000attotoken', '--gas', '400000', '--yes', '-b', 'block', '-o', 'json', ...n];
    const file = (name: string, json: unknown): string => {
      const path = join(home, name);
      writeFileSync(path, JSON.stringify(json));
      return path;
    };
    const members = file('members.json', { members: ['alice', 'bob', 'carol'].map((name) => ({ address: address[name], weight: '1', metadata: name })) });
    const policy = file('policy.json', { '@type': '/cosmos.group.v1.ThresholdDecisionPolicy', threshold: '2', windows: { voting_period: '1h', min_execution_period: '0s' } });

    const created = JSON.parse(await ok(['tx', 'group', 'create-group', 'alice', 'treasury', members, '--sign-mode', 'amino-json', ...tx]));
    expect(created.code).toBe(0);
    const groups = JSON.parse(await ok(['q', 'group', 'groups-by-admin', address.alice!, '-o', 'json', ...n]));
    expect(groups.groups.map((g: { id: string; total_weight: string }) => [g.id, g.total_weight])).toEqual([['1', '3']]);
    // The decision policy travels as a nested Any: signed in amino-json mode.
    const made = JSON.parse(await ok(['tx', 'group', 'create-group-policy', 'alice', '1', 'multisig', policy, '--sign-mode', 'amino-json', ...tx]));
    expect(made.code).toBe(0);
    const policies = JSON.parse(await ok(['q', 'group', 'group-policies-by-group', '1', '-o', 'json', ...n]));
    expect(policies.group_policies).toHaveLength(1);
    const policyAddress: string = policies.group_policies[0].address;
    expect(policies.group_policies[0].decision_policy).toMatchObject({ '@type': '/cosmos.group.v1.ThresholdDecisionPolicy', threshold: '2', windows: { voting_period: '3600s', min_execution_period: '0s' } });
    const info = JSON.parse(await ok(['q', 'group', 'group-policy-info', policyAddress, '-o', 'json', ...n]));
    expect(info.info.admin).toBe(address.alice);

    expect(JSON.parse(await ok(['tx', 'send', 'alice', policyAddress, '1000attotoken', ...tx])).code).toBe(0);
    const proposal = file('proposal.json', {
      group_policy_address: policyAddress,
      proposers: [address.alice],
      messages: [{ '@type': '/cosmos.bank.v1beta1.MsgSend', from_address: policyAddress, to_address: address.dave, amount: [{ denom: 'attotoken', amount: '300' }] }],
      metadata: '',
      title: 'pay dave',
      summary: '300attotoken to dave',
    });
    expect(JSON.parse(await ok(['tx', 'group', 'submit-proposal', proposal, '--sign-mode', 'amino-json', ...tx])).code).toBe(0);
    expect(JSON.parse(await ok(['q', 'group', 'proposal', '1', '-o', 'json', ...n])).proposal.status).toBe('PROPOSAL_STATUS_SUBMITTED');

    // Two signers' votes, independent of each other: sent at once.
    const [aliceVote, bobVote] = await Promise.all([ok(['tx', 'group', 'vote', '1', 'alice', 'VOTE_OPTION_YES', '', ...tx]), ok(['tx', 'group', 'vote', '1', 'bob', 'yes', 'lgtm', '--sign-mode', 'amino-json', ...tx])]);
    expect([JSON.parse(aliceVote).code, JSON.parse(bobVote).code]).toEqual([0, 0]);
    const [tallyOut, votesOut, daveBeforeOut] = await Promise.all([ok(['q', 'group', 'tally-result', '1', '-o', 'json', ...n]), ok(['q', 'group', 'votes-by-proposal', '1', '-o', 'json', ...n]), ok(['q', 'bank', 'balances', address.dave!, '-o', 'json', ...n])]);
    const tally = JSON.parse(tallyOut);
    expect(tally.tally).toMatchObject({ yes_count: '2', no_count: '0' });
    const votes = JSON.parse(votesOut);
    expect(votes.votes.map((v: { voter: string }) => v.voter).sort()).toEqual([address.alice, address.bob].sort());

    const daveBefore = JSON.parse(daveBeforeOut).balances[0].amount as string;
    const exec = JSON.parse(await ok(['tx', 'group', 'exec', '1', '--from', 'carol', '--sign-mode', 'amino-json', ...tx]));
    expect(exec.code).toBe(0);
    expect(JSON.stringify(exec.events)).toContain('PROPOSAL_EXECUTOR_RESULT_SUCCESS');
    const [daveAfterOut, policyOut, gone] = await Promise.all([ok(['q', 'bank', 'balances', address.dave!, '-o', 'json', ...n]), ok(['q', 'bank', 'balances', policyAddress, '-o', 'json', ...n]), runCli(['q', 'group', 'proposal', '1', ...n])]);
    const daveAfter = JSON.parse(daveAfterOut).balances[0].amount as string;
    expect(BigInt(daveAfter) - BigInt(daveBefore)).toBe(300n);
    const policyBalance = JSON.parse(policyOut).balances;
    expect(policyBalance).toEqual([{ denom: 'attotoken', amount: '700' }]);
    // Executed proposals are pruned.
    expect(gone.code).not.toBe(0);

    // A proposal from a non-member: the chain refuses it (group/7), exit 1.
    const outsider = file('outsider.json', {
      group_policy_address: policyAddress,
      proposers: [address.dave],
      messages: [{ '@type': '/cosmos.bank.v1beta1.MsgSend', from_address: policyAddress, to_address: address.dave, amount: [{ denom: 'attotoken', amount: '1' }] }],
    });
    const refused = await runCli(['tx', 'group', 'submit-proposal', outsider, ...tx]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(`not in group: ${address.dave}`);
  });

  test('bad input: one line, exit 2, nothing sent', async () => {
    const n = ['--node', bg!.node];
    const tx = ['--keyring-backend', 'test', '--home', home, '--fees', '400000attotoken', '--yes', '-b', 'block', ...n];
    const badPolicy = join(home, 'bad-policy.json');
    writeFileSync(badPolicy, JSON.stringify({ '@type': '/cosmos.group.v1.ThresholdDecisionPolicy', threshold: '2', windows: { voting_period: 'soon' } }));
    const notJson = join(home, 'not-json.json');
    writeFileSync(notJson, '{members: ');
    const cases: [string[], RegExp][] = [
      [['tx', 'group', 'vote', '1', 'alice', 'MAYBE', ''], /invalid vote option "MAYBE"/],
      [['tx', 'group', 'vote', 'one', 'alice', 'yes', ''], /invalid proposal id "one"/],
      [['tx', 'group', 'vote', '1', 'alice', 'yes', '', '--exec', 'now'], /invalid --exec "now"/],
      [['tx', 'group', 'submit-proposal', join(home, 'missing.json')], /cannot read proposal file .*missing\.json: ENOENT/],
      [['tx', 'group', 'create-group', 'alice', 'meta', notJson], /members file .* is not JSON/],
      [['tx', 'group', 'create-group-policy', 'alice', '1', 'meta', badPolicy], /invalid windows\.voting_period "soon"/],
      [['tx', 'group', 'update-group-members', 'alice', '0', notJson], /invalid group id "0"/],
    ];
    const heightBefore = JSON.parse(await ok(['q', 'group', 'groups', '-o', 'json', ...n])).groups.length as number;
    // Each is refused before signing: run at once.
    const results = await Promise.all(cases.map(([args]) => runCli([...args, ...tx], { timeoutMs: 60000 })));
    cases.forEach(([, message], i) => {
      const result = results[i]!;
      expect([result.code, result.stderr.trim().split('\n').length, result.stdout]).toEqual([2, 1, '']);
      expect(result.stderr).toMatch(message);
    });
    expect(JSON.parse(await ok(['q', 'group', 'groups', '-o', 'json', ...n])).groups).toHaveLength(heightBefore);
  });
});
