/**
 * A software upgrade decided by governance, with the real binary (issue 10's first "Done when"):
 * a chain with a short voting period; a v1 proposal carrying MsgSoftwareUpgrade (authority: the
 * gov module account) is submitted with `tx gov submit-proposal`, voted yes and passes; `q upgrade
 * plan` shows the plan; at the plan height this checkout's binary (no handler for the plan) stops,
 * non-zero, with the SDK's `UPGRADE "v2" NEEDED at height: H` line and data/upgrade-info.json,
 * without committing that height; a build with the handler (test/helpers/upgradeBuild.ts) continues
 * from that height and `q upgrade applied v2` names it. `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliOk as ok, runCli } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { fastBlocks, nextBlock, startOnFreePorts, stopNode, waitForBlockTime, waitForHeight, waitForStatus, type BackgroundNode } from '../helpers/node.js';
import { upgradeBuild, type UpgradeBuild } from '../helpers/upgradeBuild.js';

jest.setTimeout(300_000);

const FEES = '200000attotoken';
/** Long enough for a vote cast right after the submission on a loaded machine. */
const VOTING_SECONDS = 20;

describe('a software upgrade by governance', () => {
  let home: string;
  let next: UpgradeBuild;
  const running: BackgroundNode[] = [];

  beforeAll(async () => {
    next = upgradeBuild('v2');
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-upgrade-gov-');
    const h = ['--home', home];
    fastBlocks(home);
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    Object.assign(genesis.app_state.gov.params, { min_deposit: [{ denom: 'attotoken', amount: '10000000' }], max_deposit_period: `${VOTING_SECONDS}s`, voting_period: `${VOTING_SECONDS}s` });
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    await ok(['validate-genesis', ...h]);
  });

  afterAll(async () => {
    for (const bg of running) if (bg.child.exitCode === null) await stopNode(bg, 'SIGKILL');
    next?.cleanup();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  async function start(bin?: string): Promise<BackgroundNode> {
    const bg = await startOnFreePorts(home, 1, [], 60_000, bin);
    running.push(bg);
    return bg;
  }

  /** The latest height, from the RPC's /status over HTTP (no CLI process per look). */
  async function height(node: string): Promise<number> {
    return (await waitForStatus(node, () => true, 'unreachable')).height;
  }

  test('the proposal passes, the old binary stops at the plan height, the build with the handler continues', async () => {
    const old = await start();
    await waitForHeight(old.node, 2, 60_000);
    const n = ['--node', old.node];
    const kb = ['--keyring-backend', 'test', '--home', home, ...n];

    // The plan height must come after the voting period ends: measure this machine's block rate.
    const h0 = await height(old.node);
    const t0 = Date.now();
    await waitForHeight(old.node, h0 + 10, 60_000);
    const perSecond = (await height(old.node) - h0) / ((Date.now() - t0) / 1000);
    // Room for the submission, the voting period and the checks after it, with a margin for a
    // block rate that changes under load.
    const planHeight = (await height(old.node)) + Math.max(40, Math.ceil(perSecond * (VOTING_SECONDS + 25)));

    // As an operator would, with the SDK 0.47 command (a v1 proposal carrying MsgSoftwareUpgrade
    // with the gov account as authority).
    const submitted = JSON.parse(await ok(['tx', 'upgrade', 'software-upgrade', 'v2', '--upgrade-height', String(planHeight), '--upgrade-info', 'v2 release', '--title', 'Upgrade to v2', '--summary', 'Switch to the v2 release at the plan height', '--deposit', '10000000attotoken', '--from', 'alice', '--fees', FEES, '--yes', '-b', 'block', '-o', 'json', ...kb]));
    expect(submitted.code).toBe(0);
    const tx = async (args: string[]): Promise<{ code: number; raw_log: string }> => JSON.parse(await ok(['tx', 'gov', ...args, '--from', 'alice', '--fees', FEES, '--yes', '-b', 'block', '-o', 'json', ...kb]));
    // Vote first, then look: on a loaded machine the CLI calls before a vote could outlast a short voting period.
    expect((await tx(['vote', '1', 'yes'])).code).toBe(0);
    const gov: string = JSON.parse(await ok(['q', 'auth', 'module-account', 'gov', '-o', 'json', ...n])).account.base_account.address;
    const stored = JSON.parse(await ok(['q', 'gov', 'proposal', '1', '-o', 'json', ...n])).proposal;
    expect(stored.messages).toEqual([{ '@type': '/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade', authority: gov, plan: expect.objectContaining({ name: 'v2', height: String(planHeight), info: 'v2 release' }) }]);
    // Passed at the end of the voting period: the plan is scheduled.
    for (;;) {
      const proposal = JSON.parse(await ok(['q', 'gov', 'proposal', '1', '-o', 'json', ...n])).proposal;
      if (proposal.status === 'PROPOSAL_STATUS_PASSED') break;
      expect(proposal.status).toBe('PROPOSAL_STATUS_VOTING_PERIOD');
      // The tally runs in the first block past voting_end_time: wait for the chain time over HTTP.
      await waitForBlockTime(old.node, Date.parse(proposal.voting_end_time), 60_000);
      await nextBlock(old.node, 60_000);
    }
    expect(JSON.parse(await ok(['q', 'upgrade', 'plan', '-o', 'json', ...n])).plan).toMatchObject({ name: 'v2', height: String(planHeight), info: 'v2 release' });
    expect(await height(old.node)).toBeLessThan(planHeight);

    // This binary has no handler for v2: it stops before executing the plan height.
    expect(await old.exited).not.toBe(0);
    expect(old.logs()).toContain(`UPGRADE "v2" NEEDED at height: ${planHeight}: v2 release`);
    expect(JSON.parse(readFileSync(join(home, 'data', 'upgrade-info.json'), 'utf8'))).toMatchObject({ name: 'v2', height: planHeight, info: 'v2 release' });

    // The release with the handler picks up at the plan height and goes on.
    const upgraded = await start(next.bin);
    await waitForHeight(upgraded.node, planHeight + 2, 120_000);
    const applied = await runCli(['q', 'upgrade', 'applied', 'v2', '--node', upgraded.node, '-o', 'json']);
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(applied.stdout)).toEqual({ height: String(planHeight) });
    expect(JSON.parse(await ok(['q', 'upgrade', 'plan', '--node', upgraded.node, '-o', 'json'])).plan).toBeNull();
    expect(await stopNode(upgraded)).toBe(0);
  });

  test('software-upgrade bad input: one line, exit 2, nothing signed', async () => {
    const kb = ['--keyring-backend', 'test', '--home', home, '--from', 'alice', '--title', 't', '--summary', 's', '--yes'];
    const height = await runCli(['tx', 'upgrade', 'software-upgrade', 'v3', '--upgrade-height', 'soon', ...kb]);
    expect([height.code, height.stderr.trim().split('\n')[0]]).toEqual([2, 'Error: invalid --upgrade-height "soon": expected a positive integer']);
    const deposit = await runCli(['tx', 'upgrade', 'software-upgrade', 'v3', '--upgrade-height', '10', '--deposit', 'lots', ...kb]);
    expect(deposit.code).toBe(2);
    expect(deposit.stderr).toMatch(/^Error: invalid --deposit "lots"/);
    const cancel = await runCli(['tx', 'upgrade', 'cancel-software-upgrade', '--deposit', 'lots', ...kb]);
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toMatch(/^Error: invalid --deposit "lots"/);
  });
});
