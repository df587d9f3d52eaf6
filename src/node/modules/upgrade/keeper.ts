/**
 * The upgrade keeper (x/upgrade, SDK 0.47): the scheduled plan, the upgrades done, the module
 * version map, the protocol version, the upgraded IBC client/consensus state of a plan; and the
 * PreBlock check that stops an out-of-date binary at the plan height or carries the upgrade out.
 */
import { create } from '@bufbuild/protobuf';
import { PlanSchema, type Plan } from '../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { TokendError } from '../../../util/errors.js';
import type { Logger } from '../../logger.js';
import type { ModuleMigrator, UpgradeHandler, UpgradeSettings, VersionMap } from '../../platform/upgrades.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { CurrentPlan, DONE_MARKER, DoneUpgrades, ModuleVersions, ProtocolVersion, UpgradedIbcState, upgradedClientKey, upgradedConsStateKey } from './keys.js';
import { planDue, planDueAt, planError, upgradeNeededMessage, writeUpgradeInfo } from './plan.js';

/** Thrown by PreBlock to stop the node before a block it must not execute (the SDK panics). */
export class UpgradeHaltError extends TokendError {
  constructor(message: string) {
    super('ABORTED', message);
    this.name = 'UpgradeHaltError';
  }
}

export class UpgradeKeeper {
  private readonly handlers: ReadonlyMap<string, UpgradeHandler>;
  private readonly skipHeights: ReadonlySet<number>;
  private readonly logger: Logger;
  /** The once-per-process check that this binary knows the last applied upgrade (the SDK's downgradeVerified). */
  private downgradeVerified = false;

  constructor(
    readonly authority: Uint8Array,
    private readonly settings: UpgradeSettings,
    private readonly migrator: ModuleMigrator,
  ) {
    const handlers = new Map<string, UpgradeHandler>();
    for (const { name, handler } of settings.handlers) {
      if (handlers.has(name)) throw new Error(`upgrade handler ${name} is registered twice`);
      handlers.set(name, handler);
    }
    this.handlers = handlers;
    this.skipHeights = new Set(settings.skipHeights);
    this.logger = settings.logger;
  }

  hasHandler(name: string): boolean {
    return this.handlers.has(name);
  }

  isSkipHeight(height: number): boolean {
    return this.skipHeights.has(height);
  }

  // ------------------------------------------------------------------ plan

  getUpgradePlan(ctx: Context): Plan | undefined {
    return CurrentPlan.get(ctx);
  }

  /**
   * ScheduleUpgrade: validates the plan, refuses one in the past or one whose name was already
   * applied, and replaces any scheduled plan (dropping the IBC state stored for it).
   */
  async scheduleUpgrade(ctx: Context, plan: Plan): Promise<void> {
    const invalid = planError(plan);
    if (invalid !== undefined) throw invalid;
    // A plan at the current height is allowed (emergency hard forks from a BeginBlocker, as the SDK).
    if (plan.height < BigInt(ctx.header.height)) throw SdkErrors.InvalidRequest.wrap('upgrade cannot be scheduled in the past');
    if ((await this.getDoneHeight(ctx, plan.name)) !== 0n) throw SdkErrors.InvalidRequest.wrap(`upgrade with name ${plan.name} has already been completed`);
    const old = CurrentPlan.get(ctx);
    if (old !== undefined) this.clearIbcState(ctx, old.height);
    CurrentPlan.set(ctx, create(PlanSchema, { name: plan.name, height: plan.height, info: plan.info, ...(plan.time ? { time: plan.time } : {}) }));
  }

  /** ClearUpgradePlan: the scheduled plan and its IBC state are removed (a no-op when none). */
  clearUpgradePlan(ctx: Context): void {
    const old = CurrentPlan.get(ctx);
    if (old !== undefined) this.clearIbcState(ctx, old.height);
    CurrentPlan.remove(ctx);
  }

  // ------------------------------------------------------------------ done upgrades

  /** The height at which `name` was applied; 0 when it was not. */
  async getDoneHeight(ctx: Context, name: string): Promise<bigint> {
    for await (const [height, done] of DoneUpgrades.keys(ctx)) if (done === name) return height;
    return 0n;
  }

  /** The last applied upgrade (highest height), if any. */
  async getLastCompletedUpgrade(ctx: Context): Promise<{ name: string; height: bigint } | undefined> {
    for await (const [height, name] of DoneUpgrades.keys(ctx, { reverse: true })) return { name, height };
    return undefined;
  }

  private setDone(ctx: Context, name: string): void {
    DoneUpgrades.set(ctx, [BigInt(ctx.header.height), name], DONE_MARKER);
  }

  // ------------------------------------------------------------------ versions

  setModuleVersionMap(ctx: Context, versions: VersionMap): void {
    for (const name of Object.keys(versions).sort()) ModuleVersions.set(ctx, name, BigInt(versions[name]!));
  }

  async getModuleVersionMap(ctx: Context): Promise<VersionMap> {
    const map: VersionMap = {};
    for await (const [name, version] of ModuleVersions.iterate(ctx)) map[name] = Number(version);
    return map;
  }

  /** Every module's version, by name (the store's order). */
  async getModuleVersions(ctx: Context): Promise<{ name: string; version: bigint }[]> {
    const out: { name: string; version: bigint }[] = [];
    for await (const [name, version] of ModuleVersions.iterate(ctx)) out.push({ name, version });
    return out;
  }

  getModuleVersion(ctx: Context, name: string): bigint | undefined {
    return ModuleVersions.get(ctx, name);
  }

  getProtocolVersion(ctx: Context): bigint {
    return ProtocolVersion.get(ctx) ?? 0n;
  }

  // ------------------------------------------------------------------ IBC (ibc-go's upgrade proposals)

  /** The client state the counterparties upgrade to, stored at the last height of this chain (plan height − 1). */
  setUpgradedClient(ctx: Context, planHeight: bigint, bytes: Uint8Array): void {
    UpgradedIbcState.set(ctx, upgradedClientKey(planHeight), bytes);
  }

  getUpgradedClient(ctx: Context, height: bigint): Uint8Array | undefined {
    const bytes = UpgradedIbcState.get(ctx, upgradedClientKey(height));
    return bytes === undefined || bytes.length === 0 ? undefined : bytes;
  }

  setUpgradedConsensusState(ctx: Context, planHeight: bigint, bytes: Uint8Array): void {
    UpgradedIbcState.set(ctx, upgradedConsStateKey(planHeight), bytes);
  }

  getUpgradedConsensusState(ctx: Context, lastHeight: bigint): Uint8Array | undefined {
    const bytes = UpgradedIbcState.get(ctx, upgradedConsStateKey(lastHeight));
    return bytes === undefined || bytes.length === 0 ? undefined : bytes;
  }

  clearIbcState(ctx: Context, lastHeight: bigint): void {
    UpgradedIbcState.remove(ctx, upgradedClientKey(lastHeight));
    UpgradedIbcState.remove(ctx, upgradedConsStateKey(lastHeight));
  }

  // ------------------------------------------------------------------ the block hook

  /**
   * PreBlock (the SDK's BeginBlocker of x/upgrade). With no plan this reads one key (and, once per
   * process, the last applied upgrade). A due plan is skipped (operator's skip height), carried
   * out (this binary has its handler) or stops the node before the block: the error thrown here
   * fails FinalizeBlock, so nothing of the block is written, and a restart stops at the same place.
   */
  async preBlock(ctx: Context): Promise<void> {
    const plan = CurrentPlan.get(ctx);
    const height = ctx.header.height;
    const due = plan !== undefined && planDue(plan, height);
    if (!this.downgradeVerified) {
      this.downgradeVerified = true;
      // A binary older than the last applied upgrade must not run this state.
      if (plan === undefined || !due || this.isSkipHeight(height)) {
        const last = await this.getLastCompletedUpgrade(ctx);
        if (last !== undefined && !this.hasHandler(last.name)) {
          const message = `Wrong app version ${ctx.consensusParams?.version.app ?? 0n}, upgrade handler is missing for ${last.name} upgrade plan`;
          this.logger.error(message);
          throw new UpgradeHaltError(message);
        }
      }
    }
    if (plan === undefined) return;

    if (due) {
      if (this.isSkipHeight(height)) {
        this.logger.info(`UPGRADE "${plan.name}" SKIPPED at ${plan.height}: ${plan.info}`);
        this.clearUpgradePlan(ctx);
        return;
      }
      if (!this.hasHandler(plan.name)) {
        let infoFile: string | undefined;
        if (this.settings.homeDir !== undefined) {
          try {
            infoFile = writeUpgradeInfo(this.settings.homeDir, height, plan);
          } catch (err) {
            throw new UpgradeHaltError(`unable to write upgrade info to filesystem: ${(err as Error).message}`);
          }
        }
        const message = upgradeNeededMessage(plan);
        this.logger.error(message, infoFile !== undefined ? { upgradeInfo: infoFile } : undefined);
        throw new UpgradeHaltError(message);
      }
      this.logger.info(`applying upgrade "${plan.name}" at ${planDueAt(plan)}`);
      await this.applyUpgrade(ctx, plan);
      return;
    }

    // A plan not yet due whose handler this binary already has: started too early.
    if (this.hasHandler(plan.name)) {
      const message = `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${plan.name}" - in binary but not executed on chain. Downgrade your binary`;
      this.logger.error(message);
      throw new UpgradeHaltError(message);
    }
  }

  /** ApplyUpgrade: the handler, the new version map, protocol version + 1, the plan cleared and marked done. */
  async applyUpgrade(ctx: Context, plan: Plan): Promise<void> {
    const handler = this.handlers.get(plan.name);
    if (handler === undefined) throw new Error(`no upgrade handler for ${plan.name}`);
    const updated = await handler(ctx, plan, await this.getModuleVersionMap(ctx), this.migrator);
    this.setModuleVersionMap(ctx, updated);
    ProtocolVersion.set(ctx, this.getProtocolVersion(ctx) + 1n);
    this.clearIbcState(ctx, plan.height);
    this.clearUpgradePlan(ctx);
    this.setDone(ctx, plan.name);
  }
}
