/**
 * The channel submodule's state in the "ibc" store, at ibc-go v6's ICS-24 paths (24-host/keys.go),
 * so counterparties prove each with the store's ICS-23 proofs:
 *
 *   nextChannelSequence                                          u64 big-endian
 *   channelEnds/ports/{port}/channels/{channel}                  ibc.core.channel.v1.Channel
 *   nextSequenceSend/ports/{port}/channels/{channel}             u64 big-endian
 *   nextSequenceRecv/ports/{port}/channels/{channel}             u64 big-endian
 *   nextSequenceAck/ports/{port}/channels/{channel}              u64 big-endian
 *   commitments/ports/{port}/channels/{channel}/sequences/{n}    packet commitment (32-byte hash)
 *   receipts/ports/{port}/channels/{channel}/sequences/{n}       receipt (0x01)
 *   acks/ports/{port}/channels/{channel}/sequences/{n}           acknowledgement commitment (hash)
 *
 * Keys are the text paths; `{n}` is decimal, so packet state iterates in the paths' byte order,
 * as upstream's. Port and channel identifiers never contain '/' (24-host validation).
 */
import { ChannelSchema } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { CollectionError, Item, StateMap, bytesValue, protoValue, u64Value } from '../../../../collections/index.js';
import { ibcSchemaBuilder } from '../../store.js';
import { textPathCodec } from '../host/pathCodec.js';

export type ChannelKey = readonly [portId: string, channelId: string];
export type PacketKey = readonly [portId: string, channelId: string, sequence: bigint];

const CHANNEL_PATH = /^ports\/([^/]+)\/channels\/([^/]+)$/;
const PACKET_PATH = /^ports\/([^/]+)\/channels\/([^/]+)\/sequences\/(0|[1-9][0-9]*)$/;

function checkId(id: string, what: string): void {
  if (id === '' || id.includes('/')) throw new CollectionError('ENCODING', `${what} identifier ${JSON.stringify(id)} is empty or contains '/'`);
}

/** `ports/{port}/channels/{channel}`. */
export function channelPath(portId: string, channelId: string): string {
  return `ports/${portId}/channels/${channelId}`;
}

/** `ports/{port}/channels/{channel}/sequences/{n}`. */
export function packetPath(portId: string, channelId: string, sequence: bigint): string {
  return `${channelPath(portId, channelId)}/sequences/${sequence}`;
}

export const channelKeyCodec = textPathCodec<ChannelKey>(
  'ChannelPath[port, channel]',
  ([port, channel]) => {
    checkId(port, 'port');
    checkId(channel, 'channel');
    return channelPath(port, channel);
  },
  (text) => {
    const match = CHANNEL_PATH.exec(text);
    return match === null ? undefined : ([match[1]!, match[2]!] as const);
  },
  ([port]) => `ports/${String(port)}/channels/`,
);

export const packetKeyCodec = textPathCodec<PacketKey>(
  'PacketPath[port, channel, sequence]',
  ([port, channel, sequence]) => {
    checkId(port, 'port');
    checkId(channel, 'channel');
    if (sequence < 0n || sequence >= 1n << 64n) throw new CollectionError('ENCODING', `sequence ${sequence} is not a uint64`);
    return packetPath(port, channel, sequence);
  },
  (text) => {
    const match = PACKET_PATH.exec(text);
    return match === null ? undefined : ([match[1]!, match[2]!, BigInt(match[3]!)] as const);
  },
  (parts) => (parts.length === 1 ? `ports/${String(parts[0])}/channels/` : `${channelPath(String(parts[0]), String(parts[1]))}/sequences/`),
);

export const NextChannelSequence = new Item(ibcSchemaBuilder, 'next_channel_sequence', 'nextChannelSequence', u64Value);
export const Channels = new StateMap(ibcSchemaBuilder, 'channels', 'channelEnds/', channelKeyCodec, protoValue(ChannelSchema));
export const NextSequenceSend = new StateMap(ibcSchemaBuilder, 'next_sequence_send', 'nextSequenceSend/', channelKeyCodec, u64Value);
export const NextSequenceRecv = new StateMap(ibcSchemaBuilder, 'next_sequence_recv', 'nextSequenceRecv/', channelKeyCodec, u64Value);
export const NextSequenceAck = new StateMap(ibcSchemaBuilder, 'next_sequence_ack', 'nextSequenceAck/', channelKeyCodec, u64Value);
export const PacketCommitments = new StateMap(ibcSchemaBuilder, 'packet_commitments', 'commitments/', packetKeyCodec, bytesValue);
export const PacketReceipts = new StateMap(ibcSchemaBuilder, 'packet_receipts', 'receipts/', packetKeyCodec, bytesValue);
export const PacketAcknowledgements = new StateMap(ibcSchemaBuilder, 'packet_acknowledgements', 'acks/', packetKeyCodec, bytesValue);
