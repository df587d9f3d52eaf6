/**
 * x/upgrade under a whole node in-process (consensus, block store, WAL): at the plan height a
 * node without the handler stops by itself before executing the block (the stop reason carries
 * the SDK's UPGRADE … NEEDED line), upgrade-info.json is in data/, and started again it stops
 * again at the same height with nothing committed; a node with the handler on the same home
 * carries the upgrade out and commits past it; --unsafe-skip-upgrades lets the old binary skip it.
 * The plan is scheduled by a test module that sends MsgSoftwareUpgrade as the authority (as gov will).
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MsgSoftwareUpgradeSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { PlanSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import type { RunningNode } from '../../../../src/node/node.js';
import type { UpgradeHandlerEntry } from '../../../../src/node/platform/upgrades.js';
import { pack } from '../../app/helpers.js';
import { CapturingLogger, devnetHome, removeHomes, startFast, waitFor } from '../../faults/helpers.js';
import { UpgradeDriver } from '../../../helpers/upgradeDriver.js';

jest.setTimeout(120_000);

const homes: string[] = [];
afterAll(() => removeHomes(homes));

const PLAN_HEIGHT = 6;
const v2: UpgradeHandlerEntry = { name: 'v2', handler: (ctx, _plan, from, migrator) => migrator.runMigrations(ctx, from) };

/** The app's last committed height (RPC abci_info), which the decided-but-refused block does not move. */
async function appHeight(node: RunningNode): Promise<number> {
  const res = await fetch(`${node.rpcAddress.url}/abci_info`);
  const body = (await res.json()) as { result: { response: { last_block_height: string } } };
  return Number(body.result.response.last_block_height);
}

describe('a node at the plan height', () => {
  it('stops before the block without the handler, stops again when restarted, continues with the handler', async () => {
    const home = await devnetHome('upgrade', homes);
    const driver = new UpgradeDriver();
    driver.send((authority) => pack(MsgSoftwareUpgradeSchema, { authority, plan: create(PlanSchema, { name: 'v2', height: BigInt(PLAN_HEIGHT), info: 'see release notes' }) }));

    const logger = new CapturingLogger();
    const old = await startFast(home, { logger, moduleSet: driver.moduleSet(1) });
    try {
      const reason = await old.stopped;
      expect(reason).toBe(`consensus failure: UPGRADE "v2" NEEDED at height: ${PLAN_HEIGHT}: see release notes`);
      expect(driver.outcomes.map((o) => o.error)).toEqual([undefined]);
      // The block at the plan height is decided (in the block store) but not executed.
      expect(await appHeight(old)).toBe(PLAN_HEIGHT - 1);
      expect(old.health()).toMatchObject({ healthy: false });
      expect(logger.errors().some((line) => line.startsWith(`UPGRADE "v2" NEEDED at height: ${PLAN_HEIGHT}: see release notes`))).toBe(true);
    } finally {
      await old.stop();
    }
    expect(JSON.parse(readFileSync(join(home, 'data', 'upgrade-info.json'), 'utf8'))).toMatchObject({ name: 'v2', height: PLAN_HEIGHT });

    // The same binary again: it stops at the same place (the block is replayed from the block
    // store and refused again), committing nothing.
    const again = await startFast(home, { moduleSet: driver.moduleSet(1) }).then(
      async (node) => {
        try {
          return { stopped: await node.stopped, height: await appHeight(node) };
        } finally {
          await node.stop();
        }
      },
      (err: Error) => ({ stopped: err.message, height: undefined }),
    );
    expect(again.stopped).toContain(`UPGRADE "v2" NEEDED at height: ${PLAN_HEIGHT}: see release notes`);
    if (again.height !== undefined) expect(again.height).toBe(PLAN_HEIGHT - 1);

    // The new binary (the handler, a module with a new consensus version) continues.
    const next = await startFast(home, { moduleSet: driver.moduleSet(2), upgradeHandlers: [v2] });
    try {
      await waitFor(() => next.consensus.status().latestBlockHeight >= PLAN_HEIGHT + 2, `height ${PLAN_HEIGHT + 2}`);
      expect(driver.migrations).toEqual([`evolving 1→2 at ${PLAN_HEIGHT}`]);
      expect(next.health()).toMatchObject({ healthy: true });
    } finally {
      await next.stop();
    }
  });

  it('--unsafe-skip-upgrades: the old binary skips the plan at that height and continues', async () => {
    const home = await devnetHome('upgrade-skip', homes);
    const driver = new UpgradeDriver();
    driver.send((authority) => pack(MsgSoftwareUpgradeSchema, { authority, plan: create(PlanSchema, { name: 'v2', height: BigInt(PLAN_HEIGHT) }) }));
    const node = await startFast(home, { moduleSet: driver.moduleSet(1), unsafeSkipUpgrades: [PLAN_HEIGHT] });
    try {
      await waitFor(() => node.consensus.status().latestBlockHeight >= PLAN_HEIGHT + 2, `height ${PLAN_HEIGHT + 2}`);
      expect(node.health()).toMatchObject({ healthy: true });
      expect(existsSync(join(home, 'data', 'upgrade-info.json'))).toBe(false);
    } finally {
      await node.stop();
    }
  });
});
