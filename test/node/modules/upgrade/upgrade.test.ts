/**
 * x/upgrade in the app (InitChain → FinalizeBlock → Commit over LevelDB): plans scheduled by the
 * authority through the message router (as gov will) or the legacy proposal contents; a plain
 * account refused with gov/13; plans in the past and malformed plans refused with the SDK's
 * errors; at the plan height a binary without the handler stops before the block — nothing of it
 * written, upgrade-info.json for cosmovisor, the SDK's log line — and stops again when reopened;
 * the binary with the handler (same data) runs the migrations and continues, `applied_plan`
 * showing the height; skip heights; a handler present too early; the old binary after the upgrade.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { AnySchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import {
  QueryAppliedPlanRequestSchema,
  QueryAppliedPlanResponseSchema,
  QueryAuthorityRequestSchema,
  QueryAuthorityResponseSchema,
  QueryCurrentPlanRequestSchema,
  QueryCurrentPlanResponseSchema,
  QueryModuleVersionsRequestSchema,
  QueryModuleVersionsResponseSchema,
  QueryUpgradedConsensusStateRequestSchema,
  QueryUpgradedConsensusStateResponseSchema,
} from '../../../../src/gen/cosmos/upgrade/v1beta1/query_pb.js';
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from '../../../../src/gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { CancelSoftwareUpgradeProposalSchema, PlanSchema, SoftwareUpgradeProposalSchema, type Plan } from '../../../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { openApp, type AppOptions } from '../../../../src/node/app/index.js';
import { accString } from '../../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import type { UpgradeKeeper } from '../../../../src/node/modules/upgrade/keeper.js';
import type { UpgradeHandlerEntry } from '../../../../src/node/platform/upgrades.js';
import { CapturingLogger } from '../../faults/helpers.js';
import { TOKEN, abciQuery, buildAppState, chainDriver, pack, signTx, startChain, tempLevelDb, testKey, type Chain } from '../../app/helpers.js';
import { UpgradeDriver } from '../../../helpers/upgradeDriver.js';

const alice = testKey('alice');
const validator = testKey('validator');
const appState = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });

const migrateAll: UpgradeHandlerEntry['handler'] = (ctx, _plan, from, migrator) => migrator.runMigrations(ctx, from);

function plan(init: { name: string; height: number; info?: string }): Plan {
  return create(PlanSchema, { name: init.name, height: BigInt(init.height), info: init.info ?? '' });
}

async function query<Req extends DescMessage, Res extends DescMessage>(chain: Chain, method: string, req: Req, init: Record<string, unknown>, res: Res): Promise<MessageShape<Res>> {
  const { response, value } = await abciQuery(chain.app, `/cosmos.upgrade.v1beta1.Query/${method}`, toBinary(req, create(req, init as never)), res);
  if (response.code !== 0) throw new Error(`${method}: ${response.codespace}/${response.code} ${response.log}`);
  return value!;
}

const currentPlan = async (chain: Chain): Promise<Plan | undefined> => (await query(chain, 'CurrentPlan', QueryCurrentPlanRequestSchema, {}, QueryCurrentPlanResponseSchema)).plan;
const appliedAt = async (chain: Chain, name: string): Promise<bigint> => (await query(chain, 'AppliedPlan', QueryAppliedPlanRequestSchema, { name }, QueryAppliedPlanResponseSchema)).height;
const versions = async (chain: Chain): Promise<Record<string, bigint>> =>
  Object.fromEntries((await query(chain, 'ModuleVersions', QueryModuleVersionsRequestSchema, {}, QueryModuleVersionsResponseSchema)).moduleVersions.map((v) => [v.name, v.version]));

describe('x/upgrade: scheduling, stopping at the height, continuing with the handler', () => {
  const driver = new UpgradeDriver();
  const home = mkdtempSync(join(tmpdir(), 'tokend-upgrade-'));
  let fixture: Awaited<ReturnType<typeof tempLevelDb>>;
  let chain: Chain;
  let logger: CapturingLogger;
  let planHeight = 0;

  function options(handlers: readonly UpgradeHandlerEntry[], version: number): Partial<AppOptions> {
    logger = new CapturingLogger();
    return { moduleSet: driver.moduleSet(version), upgrades: { handlers, homeDir: home }, logger };
  }

  /** The same data under another binary: the app closed and opened again (database kept). */
  async function reopen(handlers: readonly UpgradeHandlerEntry[], version: number): Promise<void> {
    await chain.close();
    const opened = await openApp(fixture.db, { chainId: chain.app.currentChainId, sigVerifyWorkers: 0, ...options(handlers, version) }, { syncCommits: false });
    chain = chainDriver(opened.app, opened.store, fixture.db, chain.init, opened.close);
  }

  beforeAll(async () => {
    fixture = await tempLevelDb();
    chain = await startChain(appState, { db: fixture.db, appOptions: options([], 1) });
    await chain.block([]);
  });

  afterAll(async () => {
    await chain.close();
    await fixture.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  test('InitGenesis stores the binary’s module versions; the authority is the gov module account; no plan', async () => {
    const map = await versions(chain);
    const binary = Object.fromEntries(Object.entries(chain.app.manager.versionMap()).map(([name, version]) => [name, BigInt(version)]));
    expect(map).toEqual(binary);
    expect(map).toMatchObject({ upgrade: 2n, evolving: 1n, driver: 1n });
    expect(Object.keys(map)).toEqual([...Object.keys(map)].sort());
    const one = await query(chain, 'ModuleVersions', QueryModuleVersionsRequestSchema, { moduleName: 'bank' }, QueryModuleVersionsResponseSchema);
    expect(one.moduleVersions.map((v) => [v.name, v.version])).toEqual([['bank', binary['bank']]]);
    const missing = await chain.app.query({ path: '/cosmos.upgrade.v1beta1.Query/ModuleVersions', data: toBinary(QueryModuleVersionsRequestSchema, create(QueryModuleVersionsRequestSchema, { moduleName: 'nope' })), height: 0, prove: false });
    expect([missing.codespace, missing.code]).toEqual(['sdk', 22]);
    expect(missing.log).toContain('x/upgrade: QueryModuleVersions module nope not found');
    const authority = await query(chain, 'Authority', QueryAuthorityRequestSchema, {}, QueryAuthorityResponseSchema);
    expect(authority.address).toBe(accString(driver.deps!.authority));
    expect(await currentPlan(chain)).toBeUndefined();
    expect(await appliedAt(chain, 'v2')).toBe(0n);
    const consensus = await query(chain, 'UpgradedConsensusState', QueryUpgradedConsensusStateRequestSchema, { lastHeight: 5n }, QueryUpgradedConsensusStateResponseSchema);
    expect(consensus.upgradedConsensusState).toEqual(new Uint8Array(0));
    expect((await chain.app.manager.exportGenesis(new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader('x', chain.height) })))['upgrade']).toEqual({});
  });

  test('a plain account signing MsgSoftwareUpgrade is refused with gov/13; nothing is scheduled', async () => {
    const msg = pack(MsgSoftwareUpgradeSchema, { authority: alice.bech32, plan: plan({ name: 'v2', height: chain.height + 10 }) });
    const result = (await chain.block([signTx({ signer: alice, msgs: [msg], sequence: 0n, accountNumber: 0n })])).txResults[0]!;
    expect([result.codespace, result.code]).toEqual(['gov', 13]);
    expect(result.log).toBe(`failed to execute message; message index: 0: expected ${accString(driver.deps!.authority)} got ${alice.bech32}: expected gov account as only signer for proposal message`);
    const cancel = pack(MsgCancelUpgradeSchema, { authority: alice.bech32 });
    const cancelled = (await chain.block([signTx({ signer: alice, msgs: [cancel], sequence: 1n, accountNumber: 0n })])).txResults[0]!;
    expect([cancelled.codespace, cancelled.code]).toEqual(['gov', 13]);
    expect(await currentPlan(chain)).toBeUndefined();
  });

  test('a plan in the past and malformed plans get the SDK’s InvalidRequest; nothing is scheduled', async () => {
    const next = chain.height + 1;
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'old', height: next - 1 }) }));
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: '', height: next + 5 }) }));
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'zero', height: 0 }) }));
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: create(PlanSchema, { name: 'timed', height: BigInt(next + 5), time: create(TimestampSchema, { seconds: 1_700_000_000n }) }) }));
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority) }));
    await chain.block([]);
    expect(driver.outcomes.splice(0).map((o) => [o.codespace, o.code, o.error])).toEqual([
      ['sdk', 18, 'upgrade cannot be scheduled in the past: invalid request'],
      ['sdk', 18, 'plan: name cannot be empty: invalid request'],
      ['sdk', 18, 'plan: height must be greater than 0: invalid request'],
      ['sdk', 18, 'plan: time-based upgrades have been deprecated in the SDK: invalid request'],
      ['sdk', 18, 'plan: name cannot be empty: invalid request'],
    ]);
    expect(await currentPlan(chain)).toBeUndefined();
  });

  test('scheduling replaces the plan; MsgCancelUpgrade and the legacy cancel content clear it', async () => {
    const authority = accString(driver.deps!.authority);
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority, plan: plan({ name: 'first', height: chain.height + 50 }) }));
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority, plan: plan({ name: 'second', height: chain.height + 60, info: 'x' }) }));
    await chain.block([]);
    expect(driver.outcomes.splice(0).map((o) => o.error)).toEqual([undefined, undefined]);
    expect(await currentPlan(chain)).toMatchObject({ name: 'second', info: 'x', height: BigInt(chain.height + 59) });
    driver.send(pack(MsgCancelUpgradeSchema, { authority }));
    await chain.block([]);
    expect(await currentPlan(chain)).toBeUndefined();

    // The legacy v1beta1 contents, carried out through the content router (what gov v1beta1 calls).
    const router = driver.deps!.contentRouter;
    expect(router.owner(`/${SoftwareUpgradeProposalSchema.typeName}`)).toBe('upgrade');
    expect(router.owner(`/${CancelSoftwareUpgradeProposalSchema.typeName}`)).toBe('upgrade');
    const branch = chain.store.branch();
    const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(chain.app.currentChainId, chain.height + 1) });
    const content = (schema: DescMessage, init: Record<string, unknown>) => create(AnySchema, { typeUrl: `/${schema.typeName}`, value: toBinary(schema, create(schema, init as never)) });
    await router.execute(ctx, content(SoftwareUpgradeProposalSchema, { title: 't', description: 'd', plan: plan({ name: 'legacy', height: chain.height + 70 }) }));
    const keeper = chain.app.manager.keeper<UpgradeKeeper>('upgrade');
    expect(keeper.getUpgradePlan(ctx)?.name).toBe('legacy');
    await expect(router.execute(ctx, content(SoftwareUpgradeProposalSchema, { title: 't', description: 'd', plan: plan({ name: 'legacy', height: chain.height }) }))).rejects.toThrow(
      'upgrade cannot be scheduled in the past: invalid request',
    );
    // ValidateBasic at submission: the plan's rules (gov adds its title/description checks).
    expect(() => router.validate(content(SoftwareUpgradeProposalSchema, { title: 't', description: 'd', plan: plan({ name: '', height: 5 }) }))).toThrow('name cannot be empty: invalid request');
    expect(() => router.validate(content(SoftwareUpgradeProposalSchema, { title: 't', description: 'd' }))).toThrow('name cannot be empty: invalid request');
    expect(router.validate(content(SoftwareUpgradeProposalSchema, { title: 't', description: 'd', plan: plan({ name: 'ok', height: 5 }) }))).toMatchObject({ plan: { name: 'ok' } });
    expect(() => router.validate(content(CancelSoftwareUpgradeProposalSchema, { title: 't', description: 'd' }))).not.toThrow();
    await router.execute(ctx, content(CancelSoftwareUpgradeProposalSchema, { title: 't', description: 'd' }));
    expect(keeper.getUpgradePlan(ctx)).toBeUndefined();
    branch.discard();
  });

  test('at the plan height a binary without the handler stops before the block: log line, upgrade-info.json, nothing written', async () => {
    planHeight = chain.height + 3;
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'v2', height: planHeight, info: '{"binaries":{}}' }) }));
    await chain.block([]);
    expect(driver.outcomes.splice(0).map((o) => o.error)).toEqual([undefined]);
    expect(await currentPlan(chain)).toMatchObject({ name: 'v2', height: BigInt(planHeight) });
    while (chain.height < planHeight - 1) await chain.block([]);

    const before = chain.store.lastCommitId();
    await expect(chain.block([])).rejects.toThrow(`UPGRADE "v2" NEEDED at height: ${planHeight}: {"binaries":{}}`);
    expect(logger.errors()).toEqual([expect.stringContaining(`UPGRADE "v2" NEEDED at height: ${planHeight}: {"binaries":{}}`)]);
    expect(chain.store.latestVersion()).toBe(planHeight - 1);
    expect(chain.store.lastCommitId()).toEqual(before);
    expect(chain.store.workingHash()).toEqual(before.hash);
    expect(JSON.parse(readFileSync(join(home, 'data', 'upgrade-info.json'), 'utf8'))).toEqual({ name: 'v2', time: '0001-01-01T00:00:00Z', height: planHeight, info: '{"binaries":{}}' });
  });

  test('the same binary opened again on that data stops again at the same height', async () => {
    await reopen([], 1);
    expect(chain.height).toBe(planHeight - 1);
    await expect(chain.block([])).rejects.toThrow(`UPGRADE "v2" NEEDED at height: ${planHeight}`);
    expect(chain.store.latestVersion()).toBe(planHeight - 1);
  });

  test('the binary with the handler runs the migrations at the height and continues; applied_plan shows the height', async () => {
    await reopen([{ name: 'v2', handler: migrateAll }], 2);
    await chain.block([]);
    expect(chain.store.latestVersion()).toBe(planHeight);
    expect(driver.migrations).toEqual([`evolving 1→2 at ${planHeight}`]);
    expect(logger.lines.some((l) => l.level === 'info' && l.msg === `applying upgrade "v2" at height: ${planHeight}`)).toBe(true);
    expect(await appliedAt(chain, 'v2')).toBe(BigInt(planHeight));
    expect(await currentPlan(chain)).toBeUndefined();
    expect(await versions(chain)).toMatchObject({ evolving: 2n, upgrade: 2n, bank: BigInt(chain.app.manager.versionMap()['bank']!) });
    await chain.block([]);
    await chain.block([]);
    expect(driver.migrations).toHaveLength(1);
    // A done name cannot be scheduled again.
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'v2', height: chain.height + 5 }) }));
    await chain.block([]);
    expect(driver.outcomes.splice(0).map((o) => o.error)).toEqual(['upgrade with name v2 has already been completed: invalid request']);
  });

  test('the old binary refuses the upgraded state (the SDK’s wrong app version check)', async () => {
    await reopen([], 2);
    const height = chain.height;
    await expect(chain.block([])).rejects.toThrow('Wrong app version 0, upgrade handler is missing for v2 upgrade plan');
    expect(chain.store.latestVersion()).toBe(height);
    await reopen([{ name: 'v2', handler: migrateAll }], 2);
    await chain.block([]);
  });
});

describe('x/upgrade: skipped heights and a handler present too early', () => {
  const driver = new UpgradeDriver();
  let chain: Chain | undefined;

  afterAll(async () => {
    await chain?.close();
  });

  test('a due plan at a skip height is cleared without running; the chain continues and the name stays unapplied', async () => {
    const logger = new CapturingLogger();
    const home = mkdtempSync(join(tmpdir(), 'tokend-upgrade-skip-'));
    chain = await startChain(appState, { appOptions: { moduleSet: driver.moduleSet(1), upgrades: { handlers: [], skipHeights: [5], homeDir: home }, logger } });
    await chain.block([]);
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'skipped', height: 5, info: 'i' }) }));
    while (chain.height < 6) await chain.block([]);
    expect(driver.outcomes.map((o) => o.error)).toEqual([undefined]);
    expect(await currentPlan(chain)).toBeUndefined();
    expect(await appliedAt(chain, 'skipped')).toBe(0n);
    expect(logger.lines.filter((l) => l.msg.startsWith('UPGRADE')).map((l) => [l.level, l.msg])).toEqual([['info', 'UPGRADE "skipped" SKIPPED at 5: i']]);
    expect(existsSync(join(home, 'data', 'upgrade-info.json'))).toBe(false);
    rmSync(home, { recursive: true, force: true });
    await chain.close();
    chain = undefined;
  });

  test('a binary that already has the handler of a plan not yet due refuses the block (BINARY UPDATED BEFORE TRIGGER)', async () => {
    const logger = new CapturingLogger();
    chain = await startChain(appState, { appOptions: { moduleSet: driver.moduleSet(1), upgrades: { handlers: [{ name: 'early', handler: migrateAll }] }, logger } });
    await chain.block([]);
    driver.send(pack(MsgSoftwareUpgradeSchema, { authority: accString(driver.deps!.authority), plan: plan({ name: 'early', height: 10 }) }));
    await chain.block([]);
    const height = chain.height;
    await expect(chain.block([])).rejects.toThrow('BINARY UPDATED BEFORE TRIGGER! UPGRADE "early" - in binary but not executed on chain. Downgrade your binary');
    expect(chain.store.latestVersion()).toBe(height);
    expect(logger.errors()).toEqual([expect.stringContaining('BINARY UPDATED BEFORE TRIGGER!')]);
  });
});
