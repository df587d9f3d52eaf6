/** What the fee middleware needs of auth, bank and 04-channel (ibc-go v6 29-fee/types/expected_keepers.go). */
import type { Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Account } from '../../../auth/account.js';
import type { Coin } from '../../../shared/coins.js';
import type { Context } from '../../../shared/context.js';

export interface FeeAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  getModuleAddress(name: string): Uint8Array | undefined;
}

export interface FeeBankKeeper {
  getBalance(ctx: Context, address: Uint8Array, denom: string): bigint;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
  blockedAddr(address: Uint8Array): boolean;
  /** IsSendEnabledCoins: throws for the first coin whose transfers are disabled. */
  checkSendEnabled(ctx: Context, coins: readonly Coin[]): void;
}

export interface FeeChannelKeeper {
  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined;
  getNextSequenceSend(ctx: Context, portId: string, channelId: string): bigint | undefined;
  getPacketCommitment(ctx: Context, portId: string, channelId: string, sequence: bigint): Uint8Array | undefined;
}

/** The ibc keeper as the fee middleware sees it. */
export interface FeeIbcKeeper {
  readonly channelState: FeeChannelKeeper;
}
