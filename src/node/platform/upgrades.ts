/**
 * What an upgrade handler is (x/upgrade's UpgradeHandler, registered in a Cosmos SDK app.go with
 * SetUpgradeHandler) and what the app hands the upgrade module: this binary's handlers, the plan
 * heights the operator skips (`start --unsafe-skip-upgrades`), where upgrade-info.json goes.
 *
 * The handlers of this binary are one list, src/node/app/upgrades.ts.
 */
import type { Plan } from '../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import type { Logger } from '../logger.js';
import type { Context } from '../modules/shared/context.js';

/** The module versions of a state (x/upgrade's VersionMap): module name → consensus version. */
export type VersionMap = Record<string, number>;

/** The module manager's part in an upgrade: this binary's versions and the migrations between them. */
export interface ModuleMigrator {
  /** This binary's consensus version of every module. */
  versionMap(): VersionMap;
  /**
   * Runs every module's migrations from the versions in `from` up to this binary's (a module
   * missing from `from` is new: its InitGenesis runs with its default genesis); returns the new map.
   */
  runMigrations(ctx: Context, from: VersionMap): Promise<VersionMap>;
}

/**
 * Carries out the upgrade `plan` at its height, in the block's context, before anything else of
 * that block runs: `from` is the version map stored on chain; the returned map is stored as the
 * new one. Normally `migrator.runMigrations(ctx, from)`, plus whatever else the release needs.
 */
export type UpgradeHandler = (ctx: Context, plan: Plan, from: VersionMap, migrator: ModuleMigrator) => Promise<VersionMap>;

export interface UpgradeHandlerEntry {
  /** The plan name this handler carries out. */
  readonly name: string;
  readonly handler: UpgradeHandler;
}

/** The upgrade module's settings from the app (the x/upgrade keeper's arguments in an app.go). */
export interface UpgradeSettings {
  readonly handlers: readonly UpgradeHandlerEntry[];
  /** Heights at which a due plan is skipped (cleared, not applied): --unsafe-skip-upgrades. */
  readonly skipHeights: readonly number[];
  /** The node's home: upgrade-info.json goes to <home>/data when a plan is due and this binary has no handler. Unset: not written. */
  readonly homeDir?: string;
  readonly logger: Logger;
}
