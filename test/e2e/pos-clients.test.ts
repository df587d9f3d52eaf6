/**
 * CosmJS against a node started by the test, for proof-of-stake: the stock staking,
 * distribution and slashing query extensions, and delegate / undelegate / withdraw-rewards signed
 * by SigningStargateClient with no custom code beyond the EthAccount parser.
 */
import { jest } from '@jest/globals';
import { join } from 'node:path';
import { REPO_ROOT, runCli, cliOk as ok, runNodeScript } from '../helpers/cli.js';
import { JUNK, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(120_000);




describe('CosmJS staking, distribution and slashing', () => {
  let bg: BackgroundNode | undefined;
  let home: string;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-pos-clients-');
    fastBlocks(home);
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('queries and delegate / undelegate / withdraw-rewards', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const out = JSON.parse(await runNodeScript(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-staking.cjs'), [url, JUNK]));
    expect(out.validators).toHaveLength(1);
    expect(out.validators[0].tokens).toBe('1000000000000000000000');
    expect(out.stakingParams).toBe('attotoken');
    expect(out.slashingParams).toBe(100);
    expect(out.signingInfos).toBe(1);
    expect(out.distributionParams).toBe(true);
    expect([out.delegateCode, out.undelegateCode, out.withdrawCode]).toEqual([0, 0, 0]);
    expect(out.delegationBalance).toBe('1005000000000000000000');
    expect(out.unbonding).toEqual(['1000000000000000000']);
    expect(out.rewardsDenoms).toEqual(['attotoken']);
    expect(out.commissionQuery).toBe(true);
  });

  test('the CLI: withdraw-rewards --commission, withdraw-all-rewards, q distribution rewards, q slashing signing-infos, q evidence', async () => {
    const n = ['--node', bg!.node];
    const kb = ['--keyring-backend', 'test', '--home', home, ...n];
    const keys = JSON.parse(await ok(['keys', 'show', 'alice', '--bech', 'val', '--keyring-backend', 'test', '--home', home, '-o', 'json']));
    const valoper: string = keys.address;
    // Its fee is allocated in the next block: the validator then has commission to withdraw.
    const all = JSON.parse(await ok(['tx', 'distribution', 'withdraw-all-rewards', '--from', 'alice', '--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json', ...kb]));
    expect(all.code).toBe(0);
    const both = JSON.parse(await ok(['tx', 'distribution', 'withdraw-rewards', valoper, '--commission', '--from', 'alice', '--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json', ...kb]));
    expect(both.code).toBe(0);
    const delegator: string = JSON.parse(await ok(['keys', 'show', 'alice', '--keyring-backend', 'test', '--home', home, '-o', 'json'])).address;
    const rewards = JSON.parse(await ok(['q', 'distribution', 'rewards', delegator, '-o', 'json', ...n]));
    expect(rewards.rewards.map((r: { validator_address: string }) => r.validator_address)).toEqual([valoper]);
    const infos = JSON.parse(await ok(['q', 'slashing', 'signing-infos', '-o', 'json', ...n]));
    expect(infos.info).toHaveLength(1);
    const evidence = JSON.parse(await ok(['q', 'evidence', '-o', 'json', ...n]));
    expect(evidence.evidence).toEqual([]);
    const bad = await runCli(['q', 'evidence', 'not-hex', ...n]);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
    // withdraw-rewards with neither a validator nor --commission: a usage error, nothing sent.
    const none = await runCli(['tx', 'distribution', 'withdraw-rewards', '--from', 'alice', '--fees', '200000attotoken', '--yes', ...kb]);
    expect([none.code, none.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(none.stderr).toMatch(/no validator given/);
    // withdraw-all-rewards from an account with no delegations: one line saying so, exit 1.
    await ok(['keys', 'add', 'bob', '--keyring-backend', 'test', '--home', home]);
    const noDelegations = await runCli(['tx', 'distribution', 'withdraw-all-rewards', '--from', 'bob', '--fees', '200000attotoken', '--yes', ...kb]);
    expect([noDelegations.code, noDelegations.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(noDelegations.stderr).toMatch(/has no delegations/);
  });
});
