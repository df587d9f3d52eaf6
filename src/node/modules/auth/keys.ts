/**
 * The auth module's store ("acc", as in the SDK) and its tables (collections prefixes of x/auth
 * 0.50):
 *
 *   0x00                      → Params (cosmos.auth.v1beta1.Params)
 *   0x01 ‖ address(20)        → account (google.protobuf.Any of EthAccount/BaseAccount/ModuleAccount)
 *   0x02                      → global account number: the next number to hand out (u64 BE)
 *   0x03 ‖ number (u64 BE)    → address(20)  (index for AccountAddressByID)
 */
import { StoreKey } from '../../store/storeKey.js';
import { concat, u64be } from '../shared/keys.js';

export const MODULE_NAME = 'auth';
export const STORE_KEY = StoreKey.persistent('acc');

export const PARAMS_KEY = Uint8Array.of(0x00);
export const ACCOUNTS_PREFIX = Uint8Array.of(0x01);
export const GLOBAL_ACCOUNT_NUMBER_KEY = Uint8Array.of(0x02);
export const ACCOUNT_NUMBER_PREFIX = Uint8Array.of(0x03);

export function accountKey(address: Uint8Array): Uint8Array {
  return concat(ACCOUNTS_PREFIX, address);
}

export function accountNumberKey(accountNumber: bigint): Uint8Array {
  return concat(ACCOUNT_NUMBER_PREFIX, u64be(accountNumber));
}

/** The fee collector module account (x/auth), where the ante chain sends fees. */
export const FEE_COLLECTOR_NAME = 'fee_collector';
