/**
 * x/upgrade with the real binary, and "a build with the handler" (test/helpers/upgradeBuild.ts:
 * a copy of this build whose upgrade-handler list has one more entry):
 *  - the copy runs (`version`, `start`, queries);
 *  - a plan is scheduled on a devnet home by a node of the library in-process whose test module
 *    sends MsgSoftwareUpgrade as the authority (the binary has no way but gov, which this branch
 *    does not have); that node stops before the plan height;
 *  - this checkout's binary (no handler) started on the home exits non-zero with the SDK's
 *    `UPGRADE "v2" NEEDED at height: 6: …` line, committing nothing; the copy with the handler
 *    continues past the height, and `query upgrade applied v2` / `plan` / `module_versions` say so;
 *    the old binary then refuses the upgraded state;
 *  - a malformed --unsafe-skip-upgrades is one line and a non-zero exit.
 * `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MsgSoftwareUpgradeSchema } from '../../src/gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { PlanSchema } from '../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { ensureDevnet } from '../../src/node/genesis/devnet.js';
import { pack } from '../node/app/helpers.js';
import { startFast } from '../node/faults/helpers.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { fastBlocks, spawnOnFreePorts, startOnFreePorts, stopNode, waitForHeight, type BackgroundNode } from '../helpers/node.js';
import { UpgradeDriver } from '../helpers/upgradeDriver.js';
import { upgradeBuild, type UpgradeBuild } from '../helpers/upgradeBuild.js';

jest.setTimeout(240_000);

const PLAN_HEIGHT = 6;
const cleanups: (() => void)[] = [];
const running: BackgroundNode[] = [];
afterAll(async () => {
  for (const bg of running) await stopNode(bg, 'SIGKILL');
  for (const fn of cleanups.reverse()) fn();
});

/** A node on kernel-picked ports, once it has a block. */
async function start(home: string, bin?: string, extra: string[] = []): Promise<BackgroundNode> {
  const bg = await startOnFreePorts(home, 1, extra, 60_000, bin);
  running.push(bg);
  return bg;
}

/** A start expected to stop by itself: spawned, not waited on. */
function startExpectingExit(home: string, bin?: string): Pick<BackgroundNode, 'child' | 'logs' | 'exited'> {
  const spawned = spawnOnFreePorts(home, [], bin);
  running.push({ ...spawned, node: '', api: '', grpc: '' });
  return spawned;
}

describe('a build with the handler (test/helpers/upgradeBuild.ts)', () => {
  let next: UpgradeBuild;

  beforeAll(() => {
    next = upgradeBuild('v2');
    cleanups.push(() => next.cleanup());
  });

  test('is a working copy of this build: version, start, queries', async () => {
    expect(readFileSync(join(next.dir, 'dist', 'node', 'app', 'upgrades.js'), 'utf8')).toContain('UPGRADE_HANDLERS.push({ name: "v2"');
    const ours = await runCli(['version']);
    const theirs = await runCli(['version'], { bin: next.bin });
    expect(theirs.code).toBe(0);
    expect(theirs.stdout).toBe(ours.stdout);

    const home = tempHome('tokend-upgrade-copy-');
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    await ensureDevnet(home);
    fastBlocks(home);
    const node = await start(home, next.bin);
    await waitForHeight(node.node, 2, 60_000);
    const versions = await runCli(['q', 'upgrade', 'module_versions', 'upgrade', '--node', node.node, '-o', 'json'], { bin: next.bin });
    expect(versions.code).toBe(0);
    expect(JSON.parse(versions.stdout)).toEqual({ module_versions: [{ name: 'upgrade', version: '2' }] });
    expect(await stopNode(node)).toBe(0);
  });

  test('the old binary stops at the plan height, the build with the handler continues past it', async () => {
    const home = tempHome('tokend-upgrade-flow-');
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    await ensureDevnet(home);
    fastBlocks(home);

    // Scheduled as gov will: MsgSoftwareUpgrade from the authority, by a test module in-process.
    const driver = new UpgradeDriver();
    driver.send((authority) => pack(MsgSoftwareUpgradeSchema, { authority, plan: create(PlanSchema, { name: 'v2', height: BigInt(PLAN_HEIGHT), info: 'v2 release' }) }));
    const scheduler = await startFast(home, { moduleSet: driver.moduleSet(1) });
    const reason = await scheduler.stopped.finally(() => scheduler.stop());
    expect(reason).toContain(`UPGRADE "v2" NEEDED at height: ${PLAN_HEIGHT}`);
    rmSync(join(home, 'data', 'upgrade-info.json'));

    // This checkout's binary has no handler: it stops at the same place, non-zero, saying why.
    const old = startExpectingExit(home);
    expect(await old.exited).not.toBe(0);
    expect(old.logs()).toMatch(new RegExp(`ERR UPGRADE "v2" NEEDED at height: ${PLAN_HEIGHT}: v2 release`));
    expect(JSON.parse(readFileSync(join(home, 'data', 'upgrade-info.json'), 'utf8'))).toEqual({ name: 'v2', time: '0001-01-01T00:00:00Z', height: PLAN_HEIGHT, info: 'v2 release' });

    // The build with the handler carries the upgrade out and keeps committing.
    const upgraded = await start(home, next.bin);
    await waitForHeight(upgraded.node, PLAN_HEIGHT + 2, 60_000);
    const q = async (...args: string[]): Promise<unknown> => {
      const res = await runCli(['q', 'upgrade', ...args, '--node', upgraded.node, '-o', 'json']);
      expect(res).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(res.stdout);
    };
    expect(await q('applied', 'v2')).toEqual({ height: String(PLAN_HEIGHT) });
    expect(await q('plan')).toEqual({ plan: null });
    expect(await q('module_versions', 'upgrade')).toEqual({ module_versions: [{ name: 'upgrade', version: '2' }] });
    expect(upgraded.logs()).toMatch(new RegExp(`INF applying upgrade "v2" at height: ${PLAN_HEIGHT} .*module=x/upgrade`));
    expect(await stopNode(upgraded)).toBe(0);

    // The old binary refuses the upgraded state.
    const downgraded = startExpectingExit(home);
    expect(await downgraded.exited).not.toBe(0);
    expect(downgraded.logs()).toContain('Wrong app version 0, upgrade handler is missing for v2 upgrade plan');
  });
});

describe('start --unsafe-skip-upgrades', () => {
  test('a malformed list is one line and a non-zero exit, before anything starts', async () => {
    const home = tempHome('tokend-upgrade-skip-');
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const res = await runCli(['start', '--home', home, '--unsafe-skip-upgrades', '10,abc']);
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toEqual(['Error: invalid --unsafe-skip-upgrades height "abc": expected comma-separated positive integers, e.g. 1000,2000']);
    expect(existsSync(join(home, 'data'))).toBe(false);
  });
});
