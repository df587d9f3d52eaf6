/**
 * The bank module's store ("bank") and its tables (x/bank 0.50 collections prefixes):
 *
 *   0x00 ‖ denom                        → total supply (math.Int decimal text)
 *   0x01 ‖ denom                        → Metadata (cosmos.bank.v1beta1.Metadata)
 *   0x02 ‖ len ‖ address ‖ denom        → balance (math.Int decimal text); zero balances are deleted
 *   0x03 ‖ len(denom) ‖ denom ‖ address → 0x01 (denom owners index)
 *   0x04 ‖ denom                        → send enabled (0x01 | 0x00)
 *   0x05                                → Params (cosmos.bank.v1beta1.Params)
 */
import { StoreKey } from '../../store/storeKey.js';
import { concat, denomBytes as utf8, lengthPrefixed } from '../shared/keys.js';

export const MODULE_NAME = 'bank';
export const STORE_KEY = StoreKey.persistent('bank');

export const SUPPLY_PREFIX = Uint8Array.of(0x00);
export const DENOM_METADATA_PREFIX = Uint8Array.of(0x01);
export const BALANCES_PREFIX = Uint8Array.of(0x02);
export const DENOM_OWNERS_PREFIX = Uint8Array.of(0x03);
export const SEND_ENABLED_PREFIX = Uint8Array.of(0x04);
export const PARAMS_KEY = Uint8Array.of(0x05);

export function supplyKey(denom: string): Uint8Array {
  return concat(SUPPLY_PREFIX, utf8(denom));
}

export function denomMetadataKey(denom: string): Uint8Array {
  return concat(DENOM_METADATA_PREFIX, utf8(denom));
}

/** Prefix of every balance of `address`. */
export function balancesPrefix(address: Uint8Array): Uint8Array {
  return concat(BALANCES_PREFIX, lengthPrefixed(address));
}

export function balanceKey(address: Uint8Array, denom: string): Uint8Array {
  return concat(BALANCES_PREFIX, lengthPrefixed(address), utf8(denom));
}

/** Prefix of every owner of `denom`. */
export function denomOwnersPrefix(denom: string): Uint8Array {
  return concat(DENOM_OWNERS_PREFIX, lengthPrefixed(utf8(denom)));
}

export function denomOwnerKey(denom: string, address: Uint8Array): Uint8Array {
  return concat(DENOM_OWNERS_PREFIX, lengthPrefixed(utf8(denom)), address);
}

export function sendEnabledKey(denom: string): Uint8Array {
  return concat(SEND_ENABLED_PREFIX, utf8(denom));
}
