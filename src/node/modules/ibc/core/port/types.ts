/**
 * The contract between IBC core and the applications on top of it (ibc-go v6 05-port/types/module.go,
 * 04-channel ICS4Wrapper, x/capability's ScopedKeeper). Core calls an application's `IbcModule`
 * callbacks during the channel handshake and the packet lifecycle; an application sends packets
 * and writes acknowledgements through an `Ics4Wrapper` (the channel keeper, or a middleware such as
 * ICS-29 fees wrapping it). Middleware implements both: it wraps the application's `IbcModule`
 * below core and the channel keeper's `Ics4Wrapper` above it.
 *
 * Capabilities are x/capability's object capabilities: core creates one per port binding and per
 * channel, the owning module claims it through its scoped keeper, and core authenticates it on
 * every send, so an application can only act on ports and channels it owns.
 *
 * Everything is synchronous, like the store's point reads, except where a callback may need to
 * iterate the store or run messages: `onRecvPacket` and the channel-closing callbacks may return
 * a promise, which core awaits. A callback that throws (or rejects) fails the message and its
 * state writes are dropped with the message's branch. `onRecvPacket` returns an acknowledgement,
 * and a failed acknowledgement (`success: false`) makes core drop the application's writes while
 * still committing the receipt and the acknowledgement.
 */
import type { Counterparty, Order, Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../../../shared/context.js';
import type { Height } from '../client/height.js';

/** An object capability (x/capability Capability): compared by identity, persisted by index. */
export interface Capability {
  readonly index: bigint;
}

/** x/capability's ScopedKeeper as one module sees it. */
export interface ScopedKeeper {
  newCapability(ctx: Context, name: string): Capability;
  getCapability(ctx: Context, name: string): Capability | undefined;
  claimCapability(ctx: Context, cap: Capability, name: string): void;
  authenticateCapability(ctx: Context, cap: Capability, name: string): boolean;
}

/**
 * What `onRecvPacket` returns (exported.Acknowledgement): `success` decides whether the
 * application's writes are kept; `bytes` is what core commits to and relays back (for ICS-20 and
 * ICA, the JSON of ibc.core.channel.v1.Acknowledgement, `{"result":…}` or `{"error":…}`).
 * `undefined` in place of an acknowledgement means "written later" (asynchronous acks).
 */
export interface Acknowledgement {
  readonly success: boolean;
  readonly bytes: Uint8Array;
}

/** The callbacks an application (or a middleware over one) implements (porttypes.IBCModule). */
export interface IbcModule {
  /** Returns the version to store on the channel (the proposed one, or the app's default when empty). */
  onChanOpenInit(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, version: string): string;
  /** Returns the version this side agrees to. */
  onChanOpenTry(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, chanCap: Capability, counterparty: Counterparty, counterpartyVersion: string): string;
  onChanOpenAck(ctx: Context, portId: string, channelId: string, counterpartyChannelId: string, counterpartyVersion: string): void;
  onChanOpenConfirm(ctx: Context, portId: string, channelId: string): void;
  /**
   * May settle asynchronously (the ICS-29 middleware iterates the channel's escrowed fees to
   * refund them); core awaits it before closing the channel.
   */
  onChanCloseInit(ctx: Context, portId: string, channelId: string): void | Promise<void>;
  /** May settle asynchronously, as onChanCloseInit. */
  onChanCloseConfirm(ctx: Context, portId: string, channelId: string): void | Promise<void>;
  /**
   * May settle asynchronously: an application that executes messages (the ICA host runs a
   * controller's transaction through the app's message router, whose handlers are async)
   * returns a promise, which core awaits before writing the acknowledgement.
   */
  onRecvPacket(ctx: Context, packet: Packet, relayer: string): Acknowledgement | undefined | Promise<Acknowledgement | undefined>;
  onAcknowledgementPacket(ctx: Context, packet: Packet, acknowledgement: Uint8Array, relayer: string): void;
  onTimeoutPacket(ctx: Context, packet: Packet, relayer: string): void;
}

/** How an application sends packets and writes acknowledgements (porttypes.ICS4Wrapper). */
export interface Ics4Wrapper {
  /** Commits the packet and emits `send_packet`; returns its sequence. */
  sendPacket(ctx: Context, chanCap: Capability, sourcePort: string, sourceChannel: string, timeoutHeight: Height, timeoutTimestamp: bigint, data: Uint8Array): bigint;
  /** Commits an asynchronous acknowledgement and emits `write_acknowledgement`. */
  writeAcknowledgement(ctx: Context, chanCap: Capability, packet: Packet, acknowledgement: Acknowledgement): void;
  /** The application's version on a channel (for a fee-enabled channel, the inner version). */
  getAppVersion(ctx: Context, portId: string, channelId: string): string | undefined;
}
