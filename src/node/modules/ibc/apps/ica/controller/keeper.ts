/**
 * The interchain accounts controller (ibc-go v6 27-interchain-accounts/controller/keeper): an
 * owner's port `icacontroller-<owner>` per owner, one active ORDERED channel per (connection,
 * port) to the host's `icahost` port, the interchain account address the host reported in the
 * handshake, and packets of transactions for that account to execute.
 *
 * Registering binds the owner's port (its capability claimed by this submodule) and starts the
 * handshake by routing a MsgChannelOpenInit signed by the module account through the app's
 * message router, as ibc-go does; 04-channel then calls `onChanOpenInit` below. The middleware
 * flag records whether callbacks go on to an authentication module (the legacy API, which the
 * network's icamauth uses) or not (MsgRegisterInterchainAccount).
 */
import { create, toBinary, fromBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { ParamsSchema, type Params } from '../../../../../../gen/ibc/applications/interchain_accounts/controller/v1/controller_pb.js';
import type { ActiveChannel, RegisteredInterchainAccount } from '../../../../../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import { ActiveChannelSchema, RegisteredInterchainAccountSchema } from '../../../../../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import type { InterchainAccountPacketData } from '../../../../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { ChannelSchema, CounterpartySchema, Order, State, type Counterparty } from '../../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { MsgChannelOpenInitResponseSchema, MsgChannelOpenInitSchema } from '../../../../../../gen/ibc/core/channel/v1/tx_pb.js';
import type { MsgRouter } from '../../../../../platform/router.js';
import { accString } from '../../../../shared/address.js';
import type { Context } from '../../../../shared/context.js';
import { SdkErrors } from '../../../../shared/errors.js';
import { ChannelErrors } from '../../../core/channel/errors.js';
import { ZERO_HEIGHT } from '../../../core/client/height.js';
import { ConnectionErrors } from '../../../core/connection/errors.js';
import type { Capability } from '../../../core/port/types.js';
import { IcaErrors } from '../errors.js';
import type { IcaIbcCore } from '../expectedKeepers.js';
import { ControllerState, MIDDLEWARE_DISABLED, MIDDLEWARE_ENABLED, PORT_BOUND } from '../keys.js';
import { channelCapabilityPath, portPath } from '../../../core/port/keeper.js';
import {
  CONTROLLER_PORT_PREFIX,
  HOST_PORT_ID,
  ICA_CONTROLLER_NAME,
  controllerPortId,
  defaultMetadata,
  isPreviousMetadataEqual,
  metadataFromVersion,
  metadataToVersion,
  packetDataBytes,
  packetDataError,
  validateMetadata,
} from '../types.js';

export function defaultControllerParams(): Params {
  return create(ParamsSchema, { controllerEnabled: true });
}

export class ControllerKeeper {
  constructor(
    private readonly core: IcaIbcCore,
    private readonly router: MsgRouter,
    /** The interchain accounts module account: the signer of the MsgChannelOpenInit it routes. */
    private readonly moduleAddress: Uint8Array,
  ) {}

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): Params {
    return ControllerState.params.get(ctx) ?? defaultControllerParams();
  }

  setParams(ctx: Context, params: Params): void {
    ControllerState.params.set(ctx, params);
  }

  isControllerEnabled(ctx: Context): boolean {
    return this.getParams(ctx).controllerEnabled;
  }

  // ------------------------------------------------------------------ state

  getActiveChannelId(ctx: Context, connectionId: string, portId: string): string | undefined {
    return ControllerState.activeChannels.get(ctx, [portId, connectionId]);
  }

  setActiveChannelId(ctx: Context, connectionId: string, portId: string, channelId: string): void {
    ControllerState.activeChannels.set(ctx, [portId, connectionId], channelId);
  }

  /** The active channel if it is OPEN (GetOpenActiveChannel). */
  getOpenActiveChannel(ctx: Context, connectionId: string, portId: string): string | undefined {
    const channelId = this.getActiveChannelId(ctx, connectionId, portId);
    if (channelId === undefined) return undefined;
    return this.core.channels.getChannel(ctx, portId, channelId)?.state === State.OPEN ? channelId : undefined;
  }

  isActiveChannelClosed(ctx: Context, connectionId: string, portId: string): boolean {
    const channelId = this.getActiveChannelId(ctx, connectionId, portId);
    if (channelId === undefined) return false;
    return this.core.channels.getChannel(ctx, portId, channelId)?.state === State.CLOSED;
  }

  getInterchainAccountAddress(ctx: Context, connectionId: string, portId: string): string | undefined {
    return ControllerState.owners.get(ctx, [portId, connectionId]);
  }

  setInterchainAccountAddress(ctx: Context, connectionId: string, portId: string, address: string): void {
    ControllerState.owners.set(ctx, [portId, connectionId], address);
  }

  isMiddlewareEnabled(ctx: Context, portId: string, connectionId: string): boolean {
    return ControllerState.middlewareEnabled.get(ctx, [portId, connectionId])?.[0] === MIDDLEWARE_ENABLED[0];
  }

  isMiddlewareDisabled(ctx: Context, portId: string, connectionId: string): boolean {
    return ControllerState.middlewareEnabled.get(ctx, [portId, connectionId])?.[0] === MIDDLEWARE_DISABLED[0];
  }

  setMiddlewareEnabled(ctx: Context, portId: string, connectionId: string, enabled: boolean): void {
    ControllerState.middlewareEnabled.set(ctx, [portId, connectionId], enabled ? MIDDLEWARE_ENABLED : MIDDLEWARE_DISABLED);
  }

  /** The connection of a channel (GetConnectionID). */
  getConnectionId(ctx: Context, portId: string, channelId: string): string {
    const channel = this.core.channels.getChannel(ctx, portId, channelId);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`port ID (${portId}) channel ID (${channelId})`);
    return channel.connectionHops[0]!;
  }

  // ------------------------------------------------------------------ ports and capabilities

  /** Whether this submodule holds the port's capability (IsBound). */
  isBound(ctx: Context, portId: string): boolean {
    return this.core.scoped(ICA_CONTROLLER_NAME).getCapability(ctx, portPath(portId)) !== undefined;
  }

  /** Records a port as this submodule's (`port/{port}`), without binding it. */
  recordPort(ctx: Context, portId: string): void {
    ControllerState.ports.set(ctx, portId, PORT_BOUND);
  }

  /** Records and binds the port and claims its capability. */
  bindPort(ctx: Context, portId: string): void {
    this.recordPort(ctx, portId);
    const capability = this.core.ports.bindPort(ctx, portId);
    this.core.scoped(ICA_CONTROLLER_NAME).claimCapability(ctx, capability, portPath(portId));
  }

  // ------------------------------------------------------------------ registration

  /**
   * The legacy API (icamauth): registers with callbacks going on to the authentication module.
   * Refused while a channel registered through MsgRegisterInterchainAccount is active or opening.
   */
  async registerInterchainAccount(ctx: Context, connectionId: string, owner: string, version: string): Promise<void> {
    const portId = controllerPortId(owner);
    if (this.isMiddlewareDisabled(ctx, portId, connectionId) && !this.isActiveChannelClosed(ctx, connectionId, portId)) {
      throw IcaErrors.InvalidChannelFlow.wrap('channel is already active or a handshake is in flight');
    }
    this.setMiddlewareEnabled(ctx, portId, connectionId, true);
    await this.register(ctx, connectionId, portId, version);
  }

  /** MsgRegisterInterchainAccount: callbacks stop at the controller; returns the new channel's id. */
  async registerWithoutMiddleware(ctx: Context, connectionId: string, owner: string, version: string): Promise<string> {
    const portId = controllerPortId(owner);
    if (this.isMiddlewareEnabled(ctx, portId, connectionId) && !this.isActiveChannelClosed(ctx, connectionId, portId)) {
      throw IcaErrors.InvalidChannelFlow.wrap('channel is already active or a handshake is in flight');
    }
    this.setMiddlewareEnabled(ctx, portId, connectionId, false);
    return this.register(ctx, connectionId, portId, version);
  }

  private async register(ctx: Context, connectionId: string, portId: string, version: string): Promise<string> {
    const active = this.getOpenActiveChannel(ctx, connectionId, portId);
    if (active !== undefined) {
      throw IcaErrors.ActiveChannelAlreadySet.wrap(`existing active channel ${active} for portID ${portId} on connection ${connectionId}`);
    }
    const portBound = this.core.ports.isBound(ctx, portId);
    if (portBound && !this.isBound(ctx, portId)) {
      throw IcaErrors.PortAlreadyBound.wrap(`another module has claimed capability for and bound port with portID: ${portId}`);
    }
    if (!portBound) this.bindPort(ctx, portId);

    const msg = create(MsgChannelOpenInitSchema, {
      portId,
      channel: create(ChannelSchema, {
        state: State.INIT,
        ordering: Order.ORDERED,
        counterparty: create(CounterpartySchema, { portId: HOST_PORT_ID, channelId: '' }),
        connectionHops: [connectionId],
        version,
      }),
      signer: accString(this.moduleAddress),
    });
    const result = await this.router.dispatch(ctx, create(AnySchema, { typeUrl: `/${MsgChannelOpenInitSchema.typeName}`, value: toBinary(MsgChannelOpenInitSchema, msg) }), [this.moduleAddress]);
    if (result.response.typeUrl !== `/${MsgChannelOpenInitResponseSchema.typeName}`) {
      throw SdkErrors.InvalidType.wrap(`failed to covert ${result.response.typeUrl} message response to /${MsgChannelOpenInitResponseSchema.typeName}`);
    }
    return fromBinary(MsgChannelOpenInitResponseSchema, result.response.value).channelId;
  }

  // ------------------------------------------------------------------ packets

  /**
   * Sends packet data on the owner's active channel with an absolute timeout (ns since the epoch),
   * no timeout height; returns the packet sequence. An ORDERED channel closes when a packet times out.
   */
  sendTx(ctx: Context, connectionId: string, portId: string, packetData: InterchainAccountPacketData, timeoutTimestamp: bigint): bigint {
    const channelId = this.getOpenActiveChannel(ctx, connectionId, portId);
    if (channelId === undefined) throw IcaErrors.ActiveChannelNotFound.wrap(`failed to retrieve active channel on connection ${connectionId} for port ${portId}`);
    const capability = this.core.scoped(ICA_CONTROLLER_NAME).getCapability(ctx, channelCapabilityPath(portId, channelId));
    if (capability === undefined) throw ChannelErrors.ChannelCapabilityNotFound.wrap(`failed to find capability: ${channelCapabilityPath(portId, channelId)}`);
    if (blockTimeNanos(ctx) >= timeoutTimestamp) throw IcaErrors.InvalidTimeoutTimestamp.error();
    const problem = packetDataError(packetData);
    if (problem !== undefined) throw problem.wrap('invalid interchain account packet data');
    return this.core.ics4.sendPacket(ctx, capability, portId, channelId, ZERO_HEIGHT, timeoutTimestamp, packetDataBytes(packetData));
  }

  // ------------------------------------------------------------------ handshake callbacks

  onChanOpenInit(ctx: Context, order: Order, connectionHops: string[], portId: string, channelId: string, capability: Capability, counterparty: Counterparty, version: string): string {
    if (!this.isControllerEnabled(ctx)) throw IcaErrors.ControllerSubModuleDisabled.error();
    if (order !== Order.ORDERED) throw ChannelErrors.InvalidChannelOrdering.wrap(`expected ${Order[Order.ORDERED]} channel, got ${Order[order]}`);
    if (!portId.startsWith(CONTROLLER_PORT_PREFIX)) throw IcaErrors.InvalidControllerPort.wrap(`expected ${CONTROLLER_PORT_PREFIX}{owner-account-address}, got ${portId}`);
    if (counterparty.portId !== HOST_PORT_ID) throw IcaErrors.InvalidHostPort.wrap(`expected ${HOST_PORT_ID}, got ${counterparty.portId}`);
    const connectionId = connectionHops[0]!;
    const metadata = version.trim() === '' ? defaultMetadata(connectionId, this.counterpartyConnectionId(ctx, connectionId)) : metadataFromVersion(version);
    this.validateMetadata(ctx, connectionHops, metadata);

    const activeChannelId = this.getActiveChannelId(ctx, connectionId, portId);
    if (activeChannelId !== undefined) {
      const channel = this.core.channels.getChannel(ctx, portId, activeChannelId);
      if (channel === undefined) throw SdkErrors.Logic.wrap(`active channel mapping set for ${activeChannelId} but channel does not exist in channel store`);
      if (channel.state === State.OPEN) throw IcaErrors.ActiveChannelAlreadySet.wrap(`existing active channel ${activeChannelId} for portID ${portId} is already OPEN`);
      const appVersion = this.core.ics4.getAppVersion(ctx, portId, activeChannelId);
      if (appVersion === undefined) throw SdkErrors.Logic.wrap(`active channel mapping set for ${activeChannelId}, but channel does not exist in channel store`);
      if (!isPreviousMetadataEqual(appVersion, metadata)) throw IcaErrors.InvalidVersion.wrap('previous active channel metadata does not match provided version');
    }
    this.core.scoped(ICA_CONTROLLER_NAME).claimCapability(ctx, capability, channelCapabilityPath(portId, channelId));
    return metadataToVersion(metadata);
  }

  /** Sets the active channel and the account address the host put into its version. */
  onChanOpenAck(ctx: Context, portId: string, channelId: string, counterpartyVersion: string): void {
    if (!this.isControllerEnabled(ctx)) throw IcaErrors.ControllerSubModuleDisabled.error();
    if (portId === HOST_PORT_ID) throw IcaErrors.InvalidControllerPort.wrap(`portID cannot be host chain port ID: ${HOST_PORT_ID}`);
    if (!portId.startsWith(CONTROLLER_PORT_PREFIX)) throw IcaErrors.InvalidControllerPort.wrap(`expected ${CONTROLLER_PORT_PREFIX}{owner-account-address}, got ${portId}`);
    const metadata = metadataFromVersion(counterpartyVersion);
    const active = this.getOpenActiveChannel(ctx, metadata.controllerConnectionId, portId);
    if (active !== undefined) throw IcaErrors.ActiveChannelAlreadySet.wrap(`existing active channel ${active} for portID ${portId}`);
    const channel = this.core.channels.getChannel(ctx, portId, channelId);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`failed to retrieve channel ${channelId} on port ${portId}`);
    this.validateMetadata(ctx, channel.connectionHops, metadata);
    if (metadata.address.trim() === '') throw IcaErrors.InvalidAccountAddress.wrap('interchain account address cannot be empty');
    this.setActiveChannelId(ctx, metadata.controllerConnectionId, portId, channelId);
    this.setInterchainAccountAddress(ctx, metadata.controllerConnectionId, portId, metadata.address);
  }

  private counterpartyConnectionId(ctx: Context, connectionId: string): string {
    const connection = this.core.connections.getConnection(ctx, connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(`connection-id: ${connectionId}`);
    return connection.counterparty?.connectionId ?? '';
  }

  private validateMetadata(ctx: Context, connectionHops: readonly string[], metadata: ReturnType<typeof metadataFromVersion>): void {
    const connectionId = connectionHops[0]!;
    validateMetadata(metadata, connectionId, this.counterpartyConnectionId(ctx, connectionId), (message) => ConnectionErrors.InvalidConnection.wrap(message));
  }

  // ------------------------------------------------------------------ genesis

  async exportActiveChannels(ctx: Context): Promise<ActiveChannel[]> {
    const out: ActiveChannel[] = [];
    for await (const [[portId, connectionId], channelId] of ControllerState.activeChannels.iterate(ctx)) {
      out.push(create(ActiveChannelSchema, { connectionId, portId, channelId, isMiddlewareEnabled: this.isMiddlewareEnabled(ctx, portId, connectionId) }));
    }
    return out;
  }

  async exportInterchainAccounts(ctx: Context): Promise<RegisteredInterchainAccount[]> {
    const out: RegisteredInterchainAccount[] = [];
    for await (const [[portId, connectionId], accountAddress] of ControllerState.owners.iterate(ctx)) {
      out.push(create(RegisteredInterchainAccountSchema, { connectionId, portId, accountAddress }));
    }
    return out;
  }

  async exportPorts(ctx: Context): Promise<string[]> {
    const out: string[] = [];
    for await (const portId of ControllerState.ports.keys(ctx)) out.push(portId);
    return out;
  }
}

/** The block time in nanoseconds since the epoch. */
export function blockTimeNanos(ctx: Context): bigint {
  return BigInt(ctx.header.time.getTime()) * 1_000_000n;
}
