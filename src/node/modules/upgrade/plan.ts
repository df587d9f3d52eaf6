/**
 * Plan rules (x/upgrade types.Plan): ValidateBasic, when a plan is due, the operator's log lines,
 * and the upgrade-info.json that cosmovisor reads when a node stops for an upgrade.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { SdkErrors, type SdkError } from '../shared/errors.js';

/** Go's zero time.Time as a Timestamp (what a non-nullable gogoproto stdtime field holds when unset). */
const GO_ZERO_TIME_SECONDS = -62135596800n;

export const UPGRADE_INFO_FILENAME = 'upgrade-info.json';

/** Plan.ValidateBasic: InvalidRequest with the SDK's text, or undefined. */
export function planError(plan: Plan): SdkError | undefined {
  const time = plan.time;
  if (time !== undefined && !(time.seconds === GO_ZERO_TIME_SECONDS && time.nanos === 0)) {
    return SdkErrors.InvalidRequest.wrap('time-based upgrades have been deprecated in the SDK');
  }
  if (plan.upgradedClientState !== undefined) return SdkErrors.InvalidRequest.wrap('upgrade logic for IBC has been moved to the IBC module');
  if (plan.name.length === 0) return SdkErrors.InvalidRequest.wrap('name cannot be empty');
  if (plan.height <= 0n) return SdkErrors.InvalidRequest.wrap('height must be greater than 0');
  return undefined;
}

/** Plan.ShouldExecute: due at and after its height. */
export function planDue(plan: Plan, blockHeight: number): boolean {
  return plan.height > 0n && plan.height <= BigInt(blockHeight);
}

/** Plan.DueAt. */
export function planDueAt(plan: Plan): string {
  return `height: ${plan.height}`;
}

/** The SDK's BuildUpgradeNeededMsg: `UPGRADE "<name>" NEEDED at height: <h>: <info>`. */
export function upgradeNeededMessage(plan: Plan): string {
  return `UPGRADE "${plan.name}" NEEDED at ${planDueAt(plan)}: ${plan.info}`;
}

/**
 * Writes <home>/data/upgrade-info.json as the SDK's DumpUpgradeInfoToDisk does (Go's JSON of a
 * Plan holding the name, the height of the halted block and the info; cosmovisor reads it).
 */
export function writeUpgradeInfo(homeDir: string, height: number, plan: Plan): string {
  const dir = join(homeDir, 'data');
  mkdirSync(dir, { recursive: true });
  const info: Record<string, string | number> = {};
  if (plan.name !== '') info['name'] = plan.name;
  info['time'] = '0001-01-01T00:00:00Z';
  if (height !== 0) info['height'] = height;
  if (plan.info !== '') info['info'] = plan.info;
  const path = join(dir, UPGRADE_INFO_FILENAME);
  writeFileSync(path, JSON.stringify(info), { mode: 0o600 });
  return path;
}
