/**
 * x/upgrade genesis: the SDK's upgrade genesis is empty (`{}`); InitGenesis stores this binary's
 * module version map (what the first upgrade's migrations start from) and export writes `{}`.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ModuleMigrator } from '../../platform/upgrades.js';
import type { Context } from '../shared/context.js';
import type { UpgradeKeeper } from './keeper.js';

export function defaultUpgradeGenesis(): JsonObject {
  return {};
}

export function validateUpgradeGenesis(json: JsonValue | undefined): string[] {
  if (json === undefined || json === null) return [];
  if (typeof json !== 'object' || Array.isArray(json)) return ['upgrade genesis must be a JSON object ({})'];
  return [];
}

export async function initUpgradeGenesis(ctx: Context, keeper: UpgradeKeeper, migrator: ModuleMigrator): Promise<void> {
  keeper.setModuleVersionMap(ctx, migrator.versionMap());
}

export async function exportUpgradeGenesis(): Promise<JsonObject> {
  return {};
}
