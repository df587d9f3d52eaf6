/** What the EVM module needs of auth, bank and the fee market. */
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export interface EvmAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  setAccount(ctx: Context, account: Account): void;
  newAccountWithAddress(ctx: Context, address: Uint8Array): Account;
}

export interface EvmBankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  setBalance(ctx: Context, address: Uint8Array, denom: string, amount: bigint, previous?: bigint): void;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
}

/** The fee market as the EVM sees it. */
export interface EvmFeeMarketKeeper {
  /** The base fee of the block being executed; undefined when no_base_fee (or before enable_height). */
  getBaseFee(ctx: Context): bigint | undefined;
  /** min_gas_multiplier as a fraction (numerator, denominator). */
  getMinGasMultiplier(ctx: Context): { num: bigint; den: bigint };
  /** min_gas_price as a fraction (numerator, denominator). */
  getMinGasPrice(ctx: Context): { num: bigint; den: bigint };
  /** The base fee the next block gets from the stored one and the block gas (the fee market's BeginBlock). */
  calculateBaseFee(ctx: Context): bigint | undefined;
  /** Adds a tx's gas limit to the block's gas wanted (the next base fee's input), when the base fee is on. */
  addGasWanted(ctx: Context, gas: bigint): void;
}
