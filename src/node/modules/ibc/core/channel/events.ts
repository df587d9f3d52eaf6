/**
 * 04-channel events (ibc-go v6 modules/core/04-channel/keeper/events.go and types/events.go), with
 * their attributes in ibc-go's order; relayers (@confio/relayer, hermes) parse these. Each event
 * is followed by a `message` event with module "ibc_channel" (channel_close, emitted when an
 * ordered channel's packet times out, has none).
 */
import { Order, State, type Channel, type Packet } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { ATTRIBUTE_KEY_MODULE, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../../../shared/events.js';
import { ZERO_HEIGHT, formatHeight, type Height } from '../client/height.js';

export const EVENT_TYPE_CHANNEL_OPEN_INIT = 'channel_open_init';
export const EVENT_TYPE_CHANNEL_OPEN_TRY = 'channel_open_try';
export const EVENT_TYPE_CHANNEL_OPEN_ACK = 'channel_open_ack';
export const EVENT_TYPE_CHANNEL_OPEN_CONFIRM = 'channel_open_confirm';
export const EVENT_TYPE_CHANNEL_CLOSE_INIT = 'channel_close_init';
export const EVENT_TYPE_CHANNEL_CLOSE_CONFIRM = 'channel_close_confirm';
export const EVENT_TYPE_CHANNEL_CLOSED = 'channel_close';
export const EVENT_TYPE_SEND_PACKET = 'send_packet';
export const EVENT_TYPE_RECV_PACKET = 'recv_packet';
export const EVENT_TYPE_WRITE_ACK = 'write_acknowledgement';
export const EVENT_TYPE_ACKNOWLEDGE_PACKET = 'acknowledge_packet';
export const EVENT_TYPE_TIMEOUT_PACKET = 'timeout_packet';
/** The `message` event's module of the channel submodule. */
export const ATTRIBUTE_VALUE_CATEGORY = 'ibc_channel';

const utf8 = new TextDecoder();

/** Order.String(): ORDER_ORDERED, ORDER_UNORDERED, ORDER_NONE_UNSPECIFIED. */
export function orderName(order: Order): string {
  return Order[order] === undefined ? String(order) : `ORDER_${Order[order]}`;
}

/** State.String(): STATE_INIT, STATE_TRYOPEN, STATE_OPEN, STATE_CLOSED … */
export function channelStateName(state: State): string {
  return State[state] === undefined ? String(state) : `STATE_${State[state]}`;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function messageEvent(): AbciEvent {
  return newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_MODULE, ATTRIBUTE_VALUE_CATEGORY]);
}

/** The handshake events: open_init and open_try carry the version, the others do not. */
export function channelEvents(type: string, portId: string, channelId: string, channel: Channel): AbciEvent[] {
  const attributes: [string, string][] = [
    ['port_id', portId],
    ['channel_id', channelId],
    ['counterparty_port_id', channel.counterparty?.portId ?? ''],
    ['counterparty_channel_id', channel.counterparty?.channelId ?? ''],
    ['connection_id', channel.connectionHops[0] ?? ''],
  ];
  if (type === EVENT_TYPE_CHANNEL_OPEN_INIT || type === EVENT_TYPE_CHANNEL_OPEN_TRY) attributes.push(['version', channel.version]);
  return [newEvent(type, ...attributes), messageEvent()];
}

function packetAddresses(packet: Packet): [string, string][] {
  return [
    ['packet_sequence', packet.sequence.toString()],
    ['packet_src_port', packet.sourcePort],
    ['packet_src_channel', packet.sourceChannel],
    ['packet_dst_port', packet.destinationPort],
    ['packet_dst_channel', packet.destinationChannel],
  ];
}

function timeouts(packet: Packet, timeoutHeight: Height = packet.timeoutHeight ?? ZERO_HEIGHT): [string, string][] {
  return [
    ['packet_timeout_height', formatHeight(timeoutHeight)],
    ['packet_timeout_timestamp', packet.timeoutTimestamp.toString()],
  ];
}

function data(packet: Packet): [string, string][] {
  return [
    ['packet_data', utf8.decode(packet.data)],
    ['packet_data_hex', hex(packet.data)],
  ];
}

export function sendPacketEvents(packet: Packet, channel: Channel, timeoutHeight: Height): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_SEND_PACKET, ...data(packet), ...timeouts(packet, timeoutHeight), ...packetAddresses(packet), ['packet_channel_ordering', orderName(channel.ordering)], ['packet_connection', channel.connectionHops[0] ?? '']),
    messageEvent(),
  ];
}

export function recvPacketEvents(packet: Packet, channel: Channel): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_RECV_PACKET, ...data(packet), ...timeouts(packet), ...packetAddresses(packet), ['packet_channel_ordering', orderName(channel.ordering)], ['packet_connection', channel.connectionHops[0] ?? '']),
    messageEvent(),
  ];
}

export function writeAcknowledgementEvents(packet: Packet, channel: Channel, acknowledgement: Uint8Array): AbciEvent[] {
  return [
    newEvent(
      EVENT_TYPE_WRITE_ACK,
      ...data(packet),
      ...timeouts(packet),
      ...packetAddresses(packet),
      ['packet_ack', utf8.decode(acknowledgement)],
      ['packet_ack_hex', hex(acknowledgement)],
      ['packet_connection', channel.connectionHops[0] ?? ''],
    ),
    messageEvent(),
  ];
}

export function acknowledgePacketEvents(packet: Packet, channel: Channel): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_ACKNOWLEDGE_PACKET, ...timeouts(packet), ...packetAddresses(packet), ['packet_channel_ordering', orderName(channel.ordering)], ['packet_connection', channel.connectionHops[0] ?? '']),
    messageEvent(),
  ];
}

export function timeoutPacketEvents(packet: Packet, channel: Channel): AbciEvent[] {
  return [newEvent(EVENT_TYPE_TIMEOUT_PACKET, ...timeouts(packet), ...packetAddresses(packet), ['packet_channel_ordering', orderName(channel.ordering)]), messageEvent()];
}

/** channel_close: an ordered channel closed by a packet's timeout (no message event). */
export function channelClosedEvent(packet: Packet, channel: Channel): AbciEvent {
  return newEvent(
    EVENT_TYPE_CHANNEL_CLOSED,
    ['port_id', packet.sourcePort],
    ['channel_id', packet.sourceChannel],
    ['counterparty_port_id', channel.counterparty?.portId ?? ''],
    ['counterparty_channel_id', channel.counterparty?.channelId ?? ''],
    ['connection_id', channel.connectionHops[0] ?? ''],
    ['packet_channel_ordering', orderName(channel.ordering)],
  );
}
