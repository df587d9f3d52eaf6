/**
 * What the interchain accounts submodules need of others (ibc-go v6 27-interchain-accounts
 * types/expected_keepers.go, plus 05-port's and x/capability's parts they use). IBC core reaches
 * them as one `IcaIbcCore` (core.ts resolves it from the ibc module's keeper).
 */
import type { Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { ConnectionEnd } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import type { Account } from '../../../auth/account.js';
import type { Context } from '../../../shared/context.js';
import type { Capability, IbcModule, Ics4Wrapper, ScopedKeeper } from '../../core/port/types.js';

/** 03-connection, as ChannelKeeper.GetConnection. */
export interface IcaConnectionKeeper {
  getConnection(ctx: Context, connectionId: string): ConnectionEnd | undefined;
}

/** 04-channel's reads. */
export interface IcaChannelKeeper {
  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined;
}

/** 05-port (PortKeeper): binding a port creates its capability. */
export interface IcaPortKeeper {
  bindPort(ctx: Context, portId: string): Capability;
  isBound(ctx: Context, portId: string): boolean;
}

/** x/auth, as the host creates interchain accounts. */
export interface IcaAccountKeeper {
  getAccount(ctx: Context, address: Uint8Array): Account | undefined;
  setAccount(ctx: Context, account: Account): void;
  nextAccountNumber(ctx: Context): bigint;
}

/** IBC core as the submodules use it. */
export interface IcaIbcCore {
  readonly connections: IcaConnectionKeeper;
  readonly channels: IcaChannelKeeper;
  /** Sends packets (the channel keeper, or a middleware over it such as ICS-29 fees). */
  readonly ics4: Ics4Wrapper;
  readonly ports: IcaPortKeeper;
  /** The submodule's own capabilities (x/capability ScopeToModule). */
  scoped(module: string): ScopedKeeper;
}

/** What the ibc module's keeper offers applications (03-connection, 04-channel, 05-port and its router). */
export interface IcaIbcKeeper {
  readonly connectionKeeper: IcaConnectionKeeper;
  readonly channelKeeper: IcaChannelKeeper & Ics4Wrapper;
  readonly portKeeper: IcaPortKeeper;
  /** Routes channels whose port capability a module owns to its callbacks (05-port Router.AddRoute). */
  readonly router: { addRoute(module: string, callbacks: IbcModule): unknown };
}

/** x/capability: one scoped keeper per submodule (ScopeToModule, called once, at creation). */
export interface IcaCapabilityKeeper {
  scopeToModule(module: string): ScopedKeeper;
}
