/**
 * The 04-channel keeper (ibc-go v6 modules/core/04-channel/keeper): the channel handshake (each
 * step split, as upstream, into a check that may create the channel capability and a write that
 * runs after the application's callback agreed), and the packet lifecycle — send (commitment),
 * receive (receipt or next receive sequence), acknowledgement (ack commitment), acknowledge and
 * timeout (commitment deleted) — with every counterparty fact proven through the connection's
 * client. It is the Ics4Wrapper applications send packets and write acknowledgements through.
 *
 * Checks throw ibc-go's errors; `recvPacket`, `acknowledgePacket`, `timeoutPacket` and
 * `timeoutOnClose` return false for a redundant message (ibc-go's ErrNoOpMsg), which the msg
 * server answers with ResponseResultType NOOP.
 */
import { create } from '@bufbuild/protobuf';
import { ChannelSchema, CounterpartySchema, Order, PacketSchema, State, type Channel, type Counterparty, type Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { State as ConnectionState, type ConnectionEnd } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { sha256 } from '../../../../store/hash.js';
import type { Context } from '../../../shared/context.js';
import { wrapError } from '../../../shared/errors.js';
import { blockTimeNs, clientStatus, latestHeight } from '../../lightclients/tendermint/client.js';
import { ClientErrors } from '../client/errors.js';
import { ZERO_HEIGHT, compareHeights, formatHeight, isZeroHeight, selfHeight, type Height } from '../client/height.js';
import { ConnectionErrors } from '../connection/errors.js';
import { stateName, type ConnectionKeeper } from '../connection/keeper.js';
import { channelIdentifierError, portIdentifierError } from '../host/identifiers.js';
import { PortErrors } from '../port/errors.js';
import { channelCapabilityPath, moduleOwner, type IbcScopedKeeper, type PortKeeper } from '../port/keeper.js';
import type { Acknowledgement, Capability, Ics4Wrapper } from '../port/types.js';
import { ChannelErrors } from './errors.js';
import {
  EVENT_TYPE_CHANNEL_CLOSE_CONFIRM,
  EVENT_TYPE_CHANNEL_CLOSE_INIT,
  EVENT_TYPE_CHANNEL_OPEN_ACK,
  EVENT_TYPE_CHANNEL_OPEN_CONFIRM,
  EVENT_TYPE_CHANNEL_OPEN_INIT,
  EVENT_TYPE_CHANNEL_OPEN_TRY,
  acknowledgePacketEvents,
  channelClosedEvent,
  channelEvents,
  channelStateName,
  orderName,
  recvPacketEvents,
  sendPacketEvents,
  timeoutPacketEvents,
  writeAcknowledgementEvents,
} from './events.js';
import { Channels, NextChannelSequence, NextSequenceAck, NextSequenceRecv, NextSequenceSend, PacketAcknowledgements, PacketCommitments, PacketReceipts } from './keys.js';

/** The receipt stored for a received packet on an unordered channel (ibc-go's []byte{byte(1)}). */
export const PACKET_RECEIPT = Uint8Array.of(1);

function u64be(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
}

/** CommitPacket: sha256(timeout_timestamp ‖ timeout revision number ‖ timeout revision height ‖ sha256(data)), all big-endian u64. */
export function commitPacket(packet: Packet): Uint8Array {
  const timeoutHeight = packet.timeoutHeight ?? ZERO_HEIGHT;
  const buf = new Uint8Array(56);
  buf.set(u64be(packet.timeoutTimestamp), 0);
  buf.set(u64be(timeoutHeight.revisionNumber), 8);
  buf.set(u64be(timeoutHeight.revisionHeight), 16);
  buf.set(sha256(packet.data), 24);
  return sha256(buf);
}

/** CommitAcknowledgement: sha256 of the acknowledgement bytes. */
export function commitAcknowledgement(ack: Uint8Array): Uint8Array {
  return sha256(ack);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function formatByteList(bytes: Uint8Array): string {
  return `[${Array.from(bytes).join(' ')}]`;
}

/** Packet.ValidateBasic. */
export function packetError(packet: Packet): Error | undefined {
  const checks: [Error | undefined, string][] = [
    [portIdentifierError(packet.sourcePort), 'invalid source port ID'],
    [portIdentifierError(packet.destinationPort), 'invalid destination port ID'],
    [channelIdentifierError(packet.sourceChannel), 'invalid source channel ID'],
    [channelIdentifierError(packet.destinationChannel), 'invalid destination channel ID'],
  ];
  for (const [err, message] of checks) if (err !== undefined) return wrapError(err, message);
  if (packet.sequence === 0n) return ChannelErrors.InvalidPacket.wrap('packet sequence cannot be 0');
  if (isZeroHeight(packet.timeoutHeight ?? ZERO_HEIGHT) && packet.timeoutTimestamp === 0n) {
    return ChannelErrors.InvalidPacket.wrap('packet timeout height and packet timeout timestamp cannot both be 0');
  }
  if (packet.data.length === 0) return ChannelErrors.InvalidPacket.wrap('packet data bytes cannot be empty');
  return undefined;
}

/** VerifySupportedFeature: the connection's one version supports the ordering. */
function checkOrderingSupported(connection: ConnectionEnd, order: Order): void {
  if (connection.versions.length !== 1) {
    throw ConnectionErrors.InvalidVersion.wrap(`single version must be negotiated on connection before opening channel, got: [${connection.versions.map((v) => `${v.identifier} [${v.features.join(' ')}]`).join(' ')}]`);
  }
  const version = connection.versions[0]!;
  if (!version.features.includes(orderName(order))) {
    throw ConnectionErrors.InvalidVersion.wrap(`connection version ${version.identifier} [${version.features.join(' ')}] does not support channel ordering: ${orderName(order)}`);
  }
}

function checkConnectionOpen(connection: ConnectionEnd): void {
  if (connection.state !== ConnectionState.OPEN) throw ConnectionErrors.InvalidConnectionState.wrap(`connection state is not OPEN (got ${stateName(connection.state)})`);
}

function newChannel(state: State, ordering: Order, counterparty: Counterparty, connectionHops: string[], version: string): Channel {
  return create(ChannelSchema, { state, ordering, counterparty, connectionHops, version });
}

export class ChannelKeeper implements Ics4Wrapper {
  constructor(
    readonly connectionKeeper: ConnectionKeeper,
    readonly portKeeper: PortKeeper,
    readonly scopedKeeper: IbcScopedKeeper,
  ) {}

  // ------------------------------------------------------------------ state

  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined {
    return Channels.get(ctx, [portId, channelId]);
  }

  setChannel(ctx: Context, portId: string, channelId: string, channel: Channel): void {
    Channels.set(ctx, [portId, channelId], channel);
  }

  getAppVersion(ctx: Context, portId: string, channelId: string): string | undefined {
    return this.getChannel(ctx, portId, channelId)?.version;
  }

  generateChannelIdentifier(ctx: Context): string {
    const sequence = NextChannelSequence.get(ctx) ?? 0n;
    NextChannelSequence.set(ctx, sequence + 1n);
    return `channel-${sequence}`;
  }

  getPacketCommitment(ctx: Context, portId: string, channelId: string, sequence: bigint): Uint8Array | undefined {
    return PacketCommitments.get(ctx, [portId, channelId, sequence]);
  }

  hasPacketAcknowledgement(ctx: Context, portId: string, channelId: string, sequence: bigint): boolean {
    return PacketAcknowledgements.has(ctx, [portId, channelId, sequence]);
  }

  /** LookupModuleByChannel: the application owning the channel's capability, and the capability. */
  lookupModuleByChannel(ctx: Context, portId: string, channelId: string): { module: string; capability: Capability } {
    const { modules, capability } = this.scopedKeeper.lookupModules(ctx, channelCapabilityPath(portId, channelId));
    return { module: moduleOwner(modules), capability };
  }

  private connectionOf(ctx: Context, channel: Channel): ConnectionEnd {
    const connectionId = channel.connectionHops[0] ?? '';
    const connection = this.connectionKeeper.getConnection(ctx, connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(connectionId);
    return connection;
  }

  private setSequences(ctx: Context, portId: string, channelId: string): void {
    NextSequenceSend.set(ctx, [portId, channelId], 1n);
    NextSequenceRecv.set(ctx, [portId, channelId], 1n);
    NextSequenceAck.set(ctx, [portId, channelId], 1n);
  }

  // ------------------------------------------------------------------ handshake

  /** ChanOpenInit: checks the connection's version and the port capability; a new channel id and its capability. */
  chanOpenInit(ctx: Context, order: Order, connectionHops: string[], portId: string, portCap: Capability): { channelId: string; capability: Capability } {
    const connectionId = connectionHops[0] ?? '';
    const connection = this.connectionKeeper.getConnection(ctx, connectionId);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(connectionId);
    checkOrderingSupported(connection, order);
    if (!this.portKeeper.authenticate(ctx, portCap, portId)) throw PortErrors.InvalidPort.wrap(`caller does not own port capability for port ID ${portId}`);
    const channelId = this.generateChannelIdentifier(ctx);
    const capability = this.newChannelCapability(ctx, portId, channelId);
    return { channelId, capability };
  }

  private newChannelCapability(ctx: Context, portId: string, channelId: string): Capability {
    try {
      return this.scopedKeeper.newCapability(ctx, channelCapabilityPath(portId, channelId));
    } catch (err) {
      throw wrapError(err, `could not create channel capability for port ID ${portId} and channel ID ${channelId}`);
    }
  }

  writeOpenInitChannel(ctx: Context, portId: string, channelId: string, order: Order, connectionHops: string[], counterparty: Counterparty, version: string): void {
    const channel = newChannel(State.INIT, order, counterparty, connectionHops, version);
    this.setChannel(ctx, portId, channelId, channel);
    this.setSequences(ctx, portId, channelId);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_OPEN_INIT, portId, channelId, channel));
  }

  /** ChanOpenTry: the counterparty's INIT end proven; a new channel id and its capability. */
  chanOpenTry(ctx: Context, order: Order, connectionHops: string[], portId: string, portCap: Capability, counterparty: Counterparty, counterpartyVersion: string, proofInit: Uint8Array, proofHeight: Height): { channelId: string; capability: Capability } {
    if (connectionHops.length !== 1) throw ChannelErrors.TooManyConnectionHops.wrap(`expected 1, got ${connectionHops.length}`);
    const channelId = this.generateChannelIdentifier(ctx);
    if (!this.portKeeper.authenticate(ctx, portCap, portId)) throw PortErrors.InvalidPort.wrap(`caller does not own port capability for port ID ${portId}`);
    const connection = this.connectionKeeper.getConnection(ctx, connectionHops[0]!);
    if (connection === undefined) throw ConnectionErrors.ConnectionNotFound.wrap(connectionHops[0]!);
    checkConnectionOpen(connection);
    checkOrderingSupported(connection, order);
    const expected = newChannel(State.INIT, order, create(CounterpartySchema, { portId, channelId: '' }), [connection.counterparty?.connectionId ?? ''], counterpartyVersion);
    this.connectionKeeper.verifyChannelState(ctx, connection, proofHeight, proofInit, counterparty.portId, counterparty.channelId, expected);
    const capability = this.newChannelCapability(ctx, portId, channelId);
    return { channelId, capability };
  }

  writeOpenTryChannel(ctx: Context, portId: string, channelId: string, order: Order, connectionHops: string[], counterparty: Counterparty, version: string): void {
    this.setSequences(ctx, portId, channelId);
    const channel = newChannel(State.TRYOPEN, order, counterparty, connectionHops, version);
    this.setChannel(ctx, portId, channelId, channel);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_OPEN_TRY, portId, channelId, channel));
  }

  private channelOrThrow(ctx: Context, portId: string, channelId: string): Channel {
    const channel = this.getChannel(ctx, portId, channelId);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`port ID (${portId}) channel ID (${channelId})`);
    return channel;
  }

  private checkOwnsChannel(ctx: Context, chanCap: Capability, portId: string, channelId: string): void {
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, channelCapabilityPath(portId, channelId))) {
      throw ChannelErrors.ChannelCapabilityNotFound.wrap(`caller does not own capability for channel, port ID (${portId}) channel ID (${channelId})`);
    }
  }

  /** ChanOpenAck: the counterparty's TRYOPEN end proven. */
  chanOpenAck(ctx: Context, portId: string, channelId: string, chanCap: Capability, counterpartyVersion: string, counterpartyChannelId: string, proofTry: Uint8Array, proofHeight: Height): void {
    const channel = this.channelOrThrow(ctx, portId, channelId);
    if (channel.state !== State.INIT) throw ChannelErrors.InvalidChannelState.wrap(`channel state should be INIT (got ${channelStateName(channel.state)})`);
    this.checkOwnsChannel(ctx, chanCap, portId, channelId);
    const connection = this.connectionOf(ctx, channel);
    checkConnectionOpen(connection);
    const expected = newChannel(State.TRYOPEN, channel.ordering, create(CounterpartySchema, { portId, channelId }), [connection.counterparty?.connectionId ?? ''], counterpartyVersion);
    this.connectionKeeper.verifyChannelState(ctx, connection, proofHeight, proofTry, channel.counterparty?.portId ?? '', counterpartyChannelId, expected);
  }

  writeOpenAckChannel(ctx: Context, portId: string, channelId: string, counterpartyVersion: string, counterpartyChannelId: string): void {
    const channel = this.channelOrThrow(ctx, portId, channelId);
    const opened = create(ChannelSchema, {
      ...channel,
      state: State.OPEN,
      version: counterpartyVersion,
      counterparty: create(CounterpartySchema, { portId: channel.counterparty?.portId ?? '', channelId: counterpartyChannelId }),
    });
    this.setChannel(ctx, portId, channelId, opened);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_OPEN_ACK, portId, channelId, opened));
  }

  /** ChanOpenConfirm: the counterparty's OPEN end proven. */
  chanOpenConfirm(ctx: Context, portId: string, channelId: string, chanCap: Capability, proofAck: Uint8Array, proofHeight: Height): void {
    const channel = this.channelOrThrow(ctx, portId, channelId);
    if (channel.state !== State.TRYOPEN) throw ChannelErrors.InvalidChannelState.wrap(`channel state is not TRYOPEN (got ${channelStateName(channel.state)})`);
    this.checkOwnsChannel(ctx, chanCap, portId, channelId);
    const connection = this.connectionOf(ctx, channel);
    checkConnectionOpen(connection);
    const expected = newChannel(State.OPEN, channel.ordering, create(CounterpartySchema, { portId, channelId }), [connection.counterparty?.connectionId ?? ''], channel.version);
    this.connectionKeeper.verifyChannelState(ctx, connection, proofHeight, proofAck, channel.counterparty?.portId ?? '', channel.counterparty?.channelId ?? '', expected);
  }

  writeOpenConfirmChannel(ctx: Context, portId: string, channelId: string): void {
    const channel = this.channelOrThrow(ctx, portId, channelId);
    const opened = create(ChannelSchema, { ...channel, state: State.OPEN });
    this.setChannel(ctx, portId, channelId, opened);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_OPEN_CONFIRM, portId, channelId, opened));
  }

  /** ChanCloseInit: this end closes (the application agreed first). */
  chanCloseInit(ctx: Context, portId: string, channelId: string, chanCap: Capability): void {
    this.checkOwnsChannel(ctx, chanCap, portId, channelId);
    const channel = this.channelOrThrow(ctx, portId, channelId);
    if (channel.state === State.CLOSED) throw ChannelErrors.InvalidChannelState.wrap('channel is already CLOSED');
    checkConnectionOpen(this.connectionOf(ctx, channel));
    const closed = create(ChannelSchema, { ...channel, state: State.CLOSED });
    this.setChannel(ctx, portId, channelId, closed);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_CLOSE_INIT, portId, channelId, closed));
  }

  /** ChanCloseConfirm: this end closes once the counterparty's CLOSED end is proven. */
  chanCloseConfirm(ctx: Context, portId: string, channelId: string, chanCap: Capability, proofInit: Uint8Array, proofHeight: Height): void {
    this.checkOwnsChannel(ctx, chanCap, portId, channelId);
    const channel = this.channelOrThrow(ctx, portId, channelId);
    if (channel.state === State.CLOSED) throw ChannelErrors.InvalidChannelState.wrap('channel is already CLOSED');
    const connection = this.connectionOf(ctx, channel);
    checkConnectionOpen(connection);
    const expected = newChannel(State.CLOSED, channel.ordering, create(CounterpartySchema, { portId, channelId }), [connection.counterparty?.connectionId ?? ''], channel.version);
    this.connectionKeeper.verifyChannelState(ctx, connection, proofHeight, proofInit, channel.counterparty?.portId ?? '', channel.counterparty?.channelId ?? '', expected);
    const closed = create(ChannelSchema, { ...channel, state: State.CLOSED });
    this.setChannel(ctx, portId, channelId, closed);
    ctx.events.emitAll(channelEvents(EVENT_TYPE_CHANNEL_CLOSE_CONFIRM, portId, channelId, closed));
  }

  // ------------------------------------------------------------------ packets

  /** SendPacket: commits the packet on an open (not CLOSED) channel the caller owns; its sequence. */
  sendPacket(ctx: Context, chanCap: Capability, sourcePort: string, sourceChannel: string, timeoutHeight: Height, timeoutTimestamp: bigint, data: Uint8Array): bigint {
    const channel = this.getChannel(ctx, sourcePort, sourceChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(sourceChannel);
    if (channel.state === State.CLOSED) throw ChannelErrors.InvalidChannelState.wrap(`channel is CLOSED (got ${channelStateName(channel.state)})`);
    this.checkOwnsChannel(ctx, chanCap, sourcePort, sourceChannel);
    const sequence = NextSequenceSend.get(ctx, [sourcePort, sourceChannel]);
    if (sequence === undefined) throw ChannelErrors.SequenceSendNotFound.wrap(`source port: ${sourcePort}, source channel: ${sourceChannel}`);
    const packet = create(PacketSchema, {
      sequence,
      sourcePort,
      sourceChannel,
      destinationPort: channel.counterparty?.portId ?? '',
      destinationChannel: channel.counterparty?.channelId ?? '',
      data,
      timeoutHeight,
      timeoutTimestamp,
    });
    const invalid = packetError(packet);
    if (invalid !== undefined) throw wrapError(invalid, 'constructed packet failed basic validation');
    const connection = this.connectionOf(ctx, channel);
    const clients = this.connectionKeeper.clientKeeper;
    const clientState = clients.getClientState(ctx, connection.clientId);
    if (clientState === undefined) throw ClientErrors.ConsensusStateNotFound.error();
    const status = clientStatus(clientState, clients.store(ctx, connection.clientId), blockTimeNs(ctx));
    if (status !== 'Active') throw ClientErrors.ClientNotActive.wrap(`cannot send packet using client (${connection.clientId}) with status ${status}`);
    const latest = latestHeight(clientState);
    if (!isZeroHeight(timeoutHeight) && compareHeights(latest, timeoutHeight) >= 0) {
      throw ChannelErrors.PacketTimeout.wrap(`receiving chain block height >= packet timeout height (${formatHeight(latest)} >= ${formatHeight(timeoutHeight)})`);
    }
    const latestTimestamp = this.connectionKeeper.getTimestampAtHeight(ctx, connection, latest);
    if (timeoutTimestamp !== 0n && latestTimestamp >= timeoutTimestamp) {
      throw ChannelErrors.PacketTimeout.wrap(`receiving chain block timestamp >= packet timeout timestamp (${formatTime(latestTimestamp)} >= ${formatTime(timeoutTimestamp)})`);
    }
    NextSequenceSend.set(ctx, [sourcePort, sourceChannel], sequence + 1n);
    PacketCommitments.set(ctx, [sourcePort, sourceChannel, sequence], commitPacket(packet));
    ctx.events.emitAll(sendPacketEvents(packet, channel, timeoutHeight));
    return sequence;
  }

  /** RecvPacket: the counterparty's commitment proven, not timed out; false when already received (no-op). */
  recvPacket(ctx: Context, chanCap: Capability, packet: Packet, proof: Uint8Array, proofHeight: Height): boolean {
    const channel = this.getChannel(ctx, packet.destinationPort, packet.destinationChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(packet.destinationChannel);
    if (channel.state !== State.OPEN) throw ChannelErrors.InvalidChannelState.wrap(`channel state is not OPEN (got ${channelStateName(channel.state)})`);
    const capName = channelCapabilityPath(packet.destinationPort, packet.destinationChannel);
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, capName)) throw ChannelErrors.InvalidChannelCapability.wrap(`channel capability failed authentication for capability name ${capName}`);
    const counterpartyPort = channel.counterparty?.portId ?? '';
    const counterpartyChannel = channel.counterparty?.channelId ?? '';
    if (packet.sourcePort !== counterpartyPort) throw ChannelErrors.InvalidPacket.wrap(`packet source port doesn't match the counterparty's port (${packet.sourcePort} ≠ ${counterpartyPort})`);
    if (packet.sourceChannel !== counterpartyChannel) throw ChannelErrors.InvalidPacket.wrap(`packet source channel doesn't match the counterparty's channel (${packet.sourceChannel} ≠ ${counterpartyChannel})`);
    const connection = this.connectionOf(ctx, channel);
    checkConnectionOpen(connection);
    const self = selfHeight(ctx);
    const timeoutHeight = packet.timeoutHeight ?? ZERO_HEIGHT;
    if (!isZeroHeight(timeoutHeight) && compareHeights(self, timeoutHeight) >= 0) {
      throw ChannelErrors.PacketTimeout.wrap(`block height >= packet timeout height (${formatHeight(self)} >= ${formatHeight(timeoutHeight)})`);
    }
    const now = blockTimeNs(ctx);
    if (packet.timeoutTimestamp !== 0n && now >= packet.timeoutTimestamp) {
      throw ChannelErrors.PacketTimeout.wrap(`block timestamp >= packet timeout timestamp (${formatTime(now)} >= ${formatTime(packet.timeoutTimestamp)})`);
    }
    try {
      this.connectionKeeper.verifyPacketCommitment(ctx, connection, proofHeight, proof, packet.sourcePort, packet.sourceChannel, packet.sequence, commitPacket(packet));
    } catch (err) {
      throw wrapError(err, "couldn't verify counterparty packet commitment");
    }
    const key = [packet.destinationPort, packet.destinationChannel] as const;
    if (channel.ordering === Order.ORDERED) {
      const next = NextSequenceRecv.get(ctx, key);
      if (next === undefined) throw ChannelErrors.SequenceReceiveNotFound.wrap(`destination port: ${packet.destinationPort}, destination channel: ${packet.destinationChannel}`);
      if (packet.sequence < next) {
        ctx.events.emitAll(recvPacketEvents(packet, channel));
        return false;
      }
      if (packet.sequence !== next) throw ChannelErrors.PacketSequenceOutOfOrder.wrap(`packet sequence ≠ next receive sequence (${packet.sequence} ≠ ${next})`);
      NextSequenceRecv.set(ctx, key, next + 1n);
    } else {
      if (PacketReceipts.has(ctx, [...key, packet.sequence])) {
        ctx.events.emitAll(recvPacketEvents(packet, channel));
        return false;
      }
      PacketReceipts.set(ctx, [...key, packet.sequence], PACKET_RECEIPT);
    }
    ctx.events.emitAll(recvPacketEvents(packet, channel));
    return true;
  }

  /** WriteAcknowledgement: commits the acknowledgement of a received packet, once. */
  writeAcknowledgement(ctx: Context, chanCap: Capability, packet: Packet, acknowledgement: Acknowledgement | undefined): void {
    const channel = this.getChannel(ctx, packet.destinationPort, packet.destinationChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(packet.destinationChannel);
    if (channel.state !== State.OPEN) throw ChannelErrors.InvalidChannelState.wrap(`channel state is not OPEN (got ${channelStateName(channel.state)})`);
    const capName = channelCapabilityPath(packet.destinationPort, packet.destinationChannel);
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, capName)) throw ChannelErrors.InvalidChannelCapability.wrap(`channel capability failed authentication for capability name ${capName}`);
    if (this.hasPacketAcknowledgement(ctx, packet.destinationPort, packet.destinationChannel, packet.sequence)) throw ChannelErrors.AcknowledgementExists.error();
    if (acknowledgement === undefined) throw ChannelErrors.InvalidAcknowledgement.wrap('acknowledgement cannot be nil');
    if (acknowledgement.bytes.length === 0) throw ChannelErrors.InvalidAcknowledgement.wrap('acknowledgement cannot be empty');
    PacketAcknowledgements.set(ctx, [packet.destinationPort, packet.destinationChannel, packet.sequence], commitAcknowledgement(acknowledgement.bytes));
    ctx.events.emitAll(writeAcknowledgementEvents(packet, channel, acknowledgement.bytes));
  }

  /** AcknowledgePacket: the counterparty's acknowledgement proven; the commitment goes. False: no commitment (no-op). */
  acknowledgePacket(ctx: Context, chanCap: Capability, packet: Packet, acknowledgement: Uint8Array, proof: Uint8Array, proofHeight: Height): boolean {
    const channel = this.getChannel(ctx, packet.sourcePort, packet.sourceChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`port ID (${packet.sourcePort}) channel ID (${packet.sourceChannel})`);
    if (channel.state !== State.OPEN) throw ChannelErrors.InvalidChannelState.wrap(`channel state is not OPEN (got ${channelStateName(channel.state)})`);
    const capName = channelCapabilityPath(packet.sourcePort, packet.sourceChannel);
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, capName)) throw ChannelErrors.InvalidChannelCapability.wrap(`channel capability failed authentication for capability name ${capName}`);
    this.checkDestination(packet, channel);
    const connection = this.connectionOf(ctx, channel);
    checkConnectionOpen(connection);
    const commitment = this.getPacketCommitment(ctx, packet.sourcePort, packet.sourceChannel, packet.sequence);
    if (commitment === undefined || commitment.length === 0) {
      ctx.events.emitAll(acknowledgePacketEvents(packet, channel));
      return false;
    }
    const expected = commitPacket(packet);
    if (!equalBytes(commitment, expected)) throw ChannelErrors.InvalidPacket.wrap(`commitment bytes are not equal: got (${formatByteList(expected)}), expected (${formatByteList(commitment)})`);
    this.connectionKeeper.verifyPacketAcknowledgement(ctx, connection, proofHeight, proof, packet.destinationPort, packet.destinationChannel, packet.sequence, acknowledgement);
    if (channel.ordering === Order.ORDERED) {
      const key = [packet.sourcePort, packet.sourceChannel] as const;
      const next = NextSequenceAck.get(ctx, key);
      if (next === undefined) throw ChannelErrors.SequenceAckNotFound.wrap(`source port: ${packet.sourcePort}, source channel: ${packet.sourceChannel}`);
      if (packet.sequence !== next) throw ChannelErrors.PacketSequenceOutOfOrder.wrap(`packet sequence ≠ next ack sequence (${packet.sequence} ≠ ${next})`);
      NextSequenceAck.set(ctx, key, next + 1n);
    }
    PacketCommitments.remove(ctx, [packet.sourcePort, packet.sourceChannel, packet.sequence]);
    ctx.events.emitAll(acknowledgePacketEvents(packet, channel));
    return true;
  }

  private checkDestination(packet: Packet, channel: Channel): void {
    const counterpartyPort = channel.counterparty?.portId ?? '';
    const counterpartyChannel = channel.counterparty?.channelId ?? '';
    if (packet.destinationPort !== counterpartyPort) throw ChannelErrors.InvalidPacket.wrap(`packet destination port doesn't match the counterparty's port (${packet.destinationPort} ≠ ${counterpartyPort})`);
    if (packet.destinationChannel !== counterpartyChannel) throw ChannelErrors.InvalidPacket.wrap(`packet destination channel doesn't match the counterparty's channel (${packet.destinationChannel} ≠ ${counterpartyChannel})`);
  }

  /** The unreceived proof of a timeout: the next receive sequence (ordered) or the receipt's absence (unordered). */
  private verifyUnreceived(ctx: Context, connection: ConnectionEnd, channel: Channel, packet: Packet, proof: Uint8Array, proofHeight: Height, nextSequenceRecv: bigint, received: () => Error): void {
    if (channel.ordering === Order.ORDERED) {
      if (nextSequenceRecv > packet.sequence) throw received();
      this.connectionKeeper.verifyNextSequenceRecv(ctx, connection, proofHeight, proof, packet.destinationPort, packet.destinationChannel, nextSequenceRecv);
    } else if (channel.ordering === Order.UNORDERED) {
      this.connectionKeeper.verifyPacketReceiptAbsence(ctx, connection, proofHeight, proof, packet.destinationPort, packet.destinationChannel, packet.sequence);
    } else {
      throw ChannelErrors.InvalidChannelOrdering.wrap(orderName(channel.ordering));
    }
  }

  /** TimeoutPacket: the packet's timeout passed on the counterparty (at the proof height) and it was not received there. False: no commitment (no-op). */
  timeoutPacket(ctx: Context, packet: Packet, proof: Uint8Array, proofHeight: Height, nextSequenceRecv: bigint): boolean {
    const channel = this.getChannel(ctx, packet.sourcePort, packet.sourceChannel);
    if (channel === undefined) throw ChannelErrors.ChannelNotFound.wrap(`port ID (${packet.sourcePort}) channel ID (${packet.sourceChannel})`);
    this.checkDestination(packet, channel);
    const connection = this.connectionOf(ctx, channel);
    const proofTimestamp = this.connectionKeeper.getTimestampAtHeight(ctx, connection, proofHeight);
    const timeoutHeight = packet.timeoutHeight ?? ZERO_HEIGHT;
    const heightReached = !isZeroHeight(timeoutHeight) && compareHeights(proofHeight, timeoutHeight) >= 0;
    const timeReached = packet.timeoutTimestamp !== 0n && proofTimestamp >= packet.timeoutTimestamp;
    if (!heightReached && !timeReached) throw ChannelErrors.PacketTimeout.wrap('packet timeout has not been reached for height or timestamp');
    const commitment = this.getPacketCommitment(ctx, packet.sourcePort, packet.sourceChannel, packet.sequence);
    if (commitment === undefined || commitment.length === 0) {
      ctx.events.emitAll(timeoutPacketEvents(packet, channel));
      return false;
    }
    if (channel.state !== State.OPEN) throw ChannelErrors.InvalidChannelState.wrap(`channel state is not OPEN (got ${channelStateName(channel.state)})`);
    const expected = commitPacket(packet);
    if (!equalBytes(commitment, expected)) throw ChannelErrors.InvalidPacket.wrap(`packet commitment bytes are not equal: got (${formatByteList(commitment)}), expected (${formatByteList(expected)})`);
    this.verifyUnreceived(ctx, connection, channel, packet, proof, proofHeight, nextSequenceRecv, () =>
      ChannelErrors.PacketReceived.wrap(`packet already received, next sequence receive > packet sequence (${nextSequenceRecv} > ${packet.sequence})`),
    );
    return true;
  }

  /** TimeoutExecuted: the commitment goes; an ordered channel closes. */
  timeoutExecuted(ctx: Context, chanCap: Capability, packet: Packet): void {
    const channel = this.channelOrThrow(ctx, packet.sourcePort, packet.sourceChannel);
    const capName = channelCapabilityPath(packet.sourcePort, packet.sourceChannel);
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, capName)) throw ChannelErrors.ChannelCapabilityNotFound.wrap(`caller does not own capability for channel with capability name ${capName}`);
    PacketCommitments.remove(ctx, [packet.sourcePort, packet.sourceChannel, packet.sequence]);
    let current = channel;
    if (channel.ordering === Order.ORDERED) {
      current = create(ChannelSchema, { ...channel, state: State.CLOSED });
      this.setChannel(ctx, packet.sourcePort, packet.sourceChannel, current);
    }
    ctx.events.emitAll(timeoutPacketEvents(packet, current));
    if (current.ordering === Order.ORDERED && current.state === State.CLOSED) ctx.events.emit(channelClosedEvent(packet, current));
  }

  /** TimeoutOnClose: the counterparty's channel end is CLOSED and the packet was not received there. False: no commitment (no-op). */
  timeoutOnClose(ctx: Context, chanCap: Capability, packet: Packet, proof: Uint8Array, proofClosed: Uint8Array, proofHeight: Height, nextSequenceRecv: bigint): boolean {
    const channel = this.channelOrThrow(ctx, packet.sourcePort, packet.sourceChannel);
    const capName = channelCapabilityPath(packet.sourcePort, packet.sourceChannel);
    if (!this.scopedKeeper.authenticateCapability(ctx, chanCap, capName)) throw ChannelErrors.InvalidChannelCapability.wrap(`channel capability failed authentication with capability name ${capName}`);
    this.checkDestination(packet, channel);
    const connection = this.connectionOf(ctx, channel);
    const commitment = this.getPacketCommitment(ctx, packet.sourcePort, packet.sourceChannel, packet.sequence);
    if (commitment === undefined || commitment.length === 0) {
      ctx.events.emitAll(timeoutPacketEvents(packet, channel));
      return false;
    }
    const expected = commitPacket(packet);
    if (!equalBytes(commitment, expected)) throw ChannelErrors.InvalidPacket.wrap(`packet commitment bytes are not equal: got (${formatByteList(commitment)}), expected (${formatByteList(expected)})`);
    const closed = newChannel(State.CLOSED, channel.ordering, create(CounterpartySchema, { portId: packet.sourcePort, channelId: packet.sourceChannel }), [connection.counterparty?.connectionId ?? ''], channel.version);
    this.connectionKeeper.verifyChannelState(ctx, connection, proofHeight, proofClosed, channel.counterparty?.portId ?? '', channel.counterparty?.channelId ?? '', closed);
    this.verifyUnreceived(ctx, connection, channel, packet, proof, proofHeight, nextSequenceRecv, () =>
      ChannelErrors.InvalidPacket.wrap(`packet already received, next sequence receive > packet sequence (${nextSequenceRecv} > ${packet.sequence}`),
    );
    return true;
  }
}

/** Go's time.Time String of a Unix-ns instant, as ibc-go prints timeouts ("2006-01-02 15:04:05.999999999 +0000 UTC"). */
function formatTime(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const date = new Date(Number(ms));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${frac === '' ? '' : `.${frac}`} +0000 UTC`;
}
