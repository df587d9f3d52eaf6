/**
 * What the ante chain needs from other modules: narrow interfaces, so that the decorators depend
 * on these and not on concrete keepers (as x/auth/ante's expected_keepers.go). The app passes its
 * auth and bank keepers, which satisfy them structurally, and a fee-grant keeper once a feegrant
 * module exists.
 */
import type { Account } from '../../modules/auth/account.js';
import type { AuthParams } from '../../modules/auth/params.js';
import type { Coin } from '../../modules/shared/coins.js';
import type { Context } from '../../modules/shared/context.js';
import type { TxMsg } from '../tx.js';

/** The auth params the ante chain reads. */
export type AnteAuthParams = Pick<AuthParams, 'maxMemoCharacters' | 'txSigLimit' | 'txSizeCostPerByte' | 'sigVerifyCostEd25519' | 'sigVerifyCostSecp256k1'>;

/** Accounts: read and update signers, read the auth params, find the fee collector. */
export interface AnteAccountKeeper {
  getParams(ctx: Context): AnteAuthParams;
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  /** Stores `next`, the updated form of `previous` (same address). */
  updateAccount(ctx: Context, previous: Account, next: Account): void;
  getModuleAddress(name: string): Uint8Array | undefined;
}

/** Balances: move the fee to the fee collector module account. */
export interface AnteBankKeeper {
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
}

/**
 * Fee allowances (x/feegrant's keeper): `useGrantedFees` spends `fee` from the allowance
 * `granter` gave `grantee` for these messages, or throws the feegrant module's error (an
 * SdkError, e.g. "fee-grant not found" or "basic allowance: fee limit exceeded"), which DeductFee
 * wraps as the SDK does ("<granter> does not allow to pay fees for <grantee>: …").
 */
export interface FeeGrantKeeper {
  useGrantedFees(ctx: Context, granter: Uint8Array, grantee: Uint8Array, fee: readonly Coin[], msgs: readonly TxMsg[]): void;
}
