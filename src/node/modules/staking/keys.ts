/**
 * The staking module's store ("staking") and its tables (x/staking/types/keys.go prefixes):
 *
 *   0x11 ‖ len ‖ valAddr                          → last validator power (u64 BE)
 *   0x12                                          → last total power (math.Int decimal text)
 *   0x21 ‖ len ‖ valAddr                          → Validator
 *   0x22 ‖ len ‖ consAddr                         → valAddr
 *   0x23 ‖ power (u64 BE) ‖ len ‖ ^valAddr        → valAddr   (iterated in reverse: highest power
 *                                                   first; equal power: lower address first)
 *   0x31 ‖ len ‖ delAddr ‖ len ‖ valAddr          → Delegation
 *   0x50 ‖ height (u64 BE)                        → HistoricalInfo
 *   0x51                                          → Params
 *   0x71 ‖ len ‖ valAddr ‖ len ‖ delAddr          → 0x01 (delegations by validator)
 */
import { StoreKey } from '../../store/storeKey.js';
import { concat, lengthPrefixed, u64be } from '../shared/keys.js';

export const MODULE_NAME = 'staking';

/** The staking pools (module accounts holding bonded and not-bonded tokens). */
export const BONDED_POOL_NAME = 'bonded_tokens_pool';
export const NOT_BONDED_POOL_NAME = 'not_bonded_tokens_pool';
export const STORE_KEY = StoreKey.persistent('staking');

export const LAST_VALIDATOR_POWER_PREFIX = Uint8Array.of(0x11);
export const LAST_TOTAL_POWER_KEY = Uint8Array.of(0x12);
export const VALIDATORS_PREFIX = Uint8Array.of(0x21);
export const VALIDATORS_BY_CONS_ADDR_PREFIX = Uint8Array.of(0x22);
export const VALIDATORS_BY_POWER_PREFIX = Uint8Array.of(0x23);
export const DELEGATION_PREFIX = Uint8Array.of(0x31);
export const HISTORICAL_INFO_PREFIX = Uint8Array.of(0x50);
export const PARAMS_KEY = Uint8Array.of(0x51);
export const DELEGATIONS_BY_VALIDATOR_PREFIX = Uint8Array.of(0x71);

export function lastValidatorPowerKey(valAddr: Uint8Array): Uint8Array {
  return concat(LAST_VALIDATOR_POWER_PREFIX, lengthPrefixed(valAddr));
}

export function validatorKey(valAddr: Uint8Array): Uint8Array {
  return concat(VALIDATORS_PREFIX, lengthPrefixed(valAddr));
}

export function validatorByConsAddrKey(consAddr: Uint8Array): Uint8Array {
  return concat(VALIDATORS_BY_CONS_ADDR_PREFIX, lengthPrefixed(consAddr));
}

export function validatorByPowerKey(power: bigint, valAddr: Uint8Array): Uint8Array {
  const inverted = valAddr.map((byte) => ~byte & 0xff);
  return concat(VALIDATORS_BY_POWER_PREFIX, u64be(power), lengthPrefixed(inverted));
}

export function delegationsPrefix(delAddr: Uint8Array): Uint8Array {
  return concat(DELEGATION_PREFIX, lengthPrefixed(delAddr));
}

export function delegationKey(delAddr: Uint8Array, valAddr: Uint8Array): Uint8Array {
  return concat(DELEGATION_PREFIX, lengthPrefixed(delAddr), lengthPrefixed(valAddr));
}

export function delegationsByValidatorPrefix(valAddr: Uint8Array): Uint8Array {
  return concat(DELEGATIONS_BY_VALIDATOR_PREFIX, lengthPrefixed(valAddr));
}

export function delegationByValidatorKey(valAddr: Uint8Array, delAddr: Uint8Array): Uint8Array {
  return concat(DELEGATIONS_BY_VALIDATOR_PREFIX, lengthPrefixed(valAddr), lengthPrefixed(delAddr));
}

export function historicalInfoKey(height: bigint | number): Uint8Array {
  return concat(HISTORICAL_INFO_PREFIX, u64be(height));
}
