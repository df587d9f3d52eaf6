/**
 * What the transfer module needs of other modules (ibc-go v6 apps/transfer/types/expected_keepers.go),
 * each seen through its own narrow interface.
 */
import type { Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Capability, IbcModule, Ics4Wrapper, ScopedKeeper } from '../../core/port/types.js';
import type { Coin } from '../../../shared/coins.js';
import type { Context } from '../../../shared/context.js';

export interface TransferBankKeeper {
  sendCoins(ctx: Context, from: Uint8Array, to: Uint8Array, coins: readonly Coin[]): void;
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void;
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void;
  mintCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void;
  blockedAddr(address: Uint8Array): boolean;
  isSendEnabledDenom(ctx: Context, denom: string): boolean;
}

export interface TransferAccountKeeper {
  /** Creates the module account on first use (x/auth GetModuleAccount). */
  getModuleAccount(ctx: Context, name: string): unknown;
}

export interface TransferChannelKeeper {
  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined;
}

export interface TransferPortKeeper {
  /** Binds a port for the calling module and returns its capability (05-port BindPort). */
  bindPort(ctx: Context, portId: string): Capability;
}

/** IBC core as an application sees it: packets out, channel ends, its port and its capabilities. */
export interface TransferIbcHost {
  readonly ics4Wrapper: Ics4Wrapper;
  readonly channelKeeper: TransferChannelKeeper;
  readonly portKeeper: TransferPortKeeper;
  readonly scopedKeeper: ScopedKeeper;
}

/** The ibc module's keeper as an application module sees it (its router, port and channel keepers). */
export interface TransferIbcKeeper {
  readonly router: { addRoute(module: string, app: IbcModule): unknown };
  readonly portKeeper: TransferPortKeeper;
  readonly channelKeeper: TransferChannelKeeper & Ics4Wrapper;
}

/** x/capability: one scoped keeper per module. */
export interface TransferCapabilityKeeper {
  scopeToModule(module: string): ScopedKeeper;
}
