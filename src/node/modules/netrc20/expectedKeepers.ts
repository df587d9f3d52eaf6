/** What the converter needs of auth, bank and the EVM. */
import type { Metadata } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import type { Log } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import type { Account } from '../auth/account.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export interface Aiozrc20AccountKeeper {
  getModuleAccount(ctx: Context, name: string): Account | undefined;
}

export interface Aiozrc20BankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  getSupply(ctx: Context, denom: string): bigint;
  blockedAddr(address: Uint8Array): boolean;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
  mintCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
  getDenomMetadata(ctx: Context, denom: string): Metadata | undefined;
  setDenomMetadata(ctx: Context, metadata: Metadata): void;
}

/** A module's own EVM call (the EVM keeper's moduleCall). */
export interface Aiozrc20CallResult {
  ret: Uint8Array;
  vmError: string;
  logs: readonly Log[];
  contractAddress?: string;
}

export interface Aiozrc20EvmKeeper {
  getParams(ctx: Context): { evmDenom: string };
  moduleCall(ctx: Context, from: Uint8Array, to: Uint8Array | undefined, data: Uint8Array): Promise<Aiozrc20CallResult>;
}
