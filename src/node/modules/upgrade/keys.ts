/**
 * The upgrade module's store ("upgrade"), at the SDK 0.47 layout:
 *
 *   0x00                         Plan → cosmos.upgrade.v1beta1.Plan (the scheduled upgrade, at most one)
 *   0x01 ‖ u64 height ‖ name     done upgrades → 0x01 (the height the upgrade was applied at)
 *   0x02 ‖ module name           module version map → u64 big-endian consensus version
 *   0x03                         protocol version → u64 big-endian (+1 at every applied upgrade)
 *   "upgradedIBCState/" ‖ "<plan height − 1>/upgradedClient" | "…/upgradedConsState"
 *                                the client / consensus state IBC counterparties upgrade to (bytes)
 */
import { PlanSchema } from '../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { Item, SchemaBuilder, StateMap, bytesValue, pairKey, protoValue, stringKey, u64Key, u64Value } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'upgrade';
export const upgradeStoreKey = StoreKey.persistent(MODULE_NAME);

/** The IBC client's upgrade path is ["upgrade", "upgradedIBCState"] (its proofs read these keys). */
export const KEY_UPGRADED_IBC_STATE = 'upgradedIBCState';
export const KEY_UPGRADED_CLIENT = 'upgradedClient';
export const KEY_UPGRADED_CONS_STATE = 'upgradedConsState';

/** What a done record holds (the SDK stores one byte 0x01). */
export const DONE_MARKER = Uint8Array.of(1);

const schema = new SchemaBuilder(upgradeStoreKey);

export const CurrentPlan = new Item(schema, 'plan', 0x00, protoValue(PlanSchema));
/** (height, name): iterating in key order gives the upgrades by height; the last is the latest. */
export const DoneUpgrades = new StateMap(schema, 'done', 0x01, pairKey(u64Key, stringKey), bytesValue);
export const ModuleVersions = new StateMap(schema, 'version_map', 0x02, stringKey, u64Value);
export const ProtocolVersion = new Item(schema, 'protocol_version', 0x03, u64Value);
/** Key "<height>/upgradedClient" or "<height>/upgradedConsState". */
export const UpgradedIbcState = new StateMap(schema, 'upgraded_ibc_state', `${KEY_UPGRADED_IBC_STATE}/`, stringKey, bytesValue);

export const upgradeSchema = schema.build();

export function upgradedClientKey(height: bigint): string {
  return `${height}/${KEY_UPGRADED_CLIENT}`;
}

export function upgradedConsStateKey(height: bigint): string {
  return `${height}/${KEY_UPGRADED_CONS_STATE}`;
}
