/**
 * The channel submodule's genesis (ibc-go v6 04-channel/genesis.go and types/genesis.go): channel
 * ends, packet commitments, receipts and acknowledgements, each channel's next send / receive /
 * ack sequence, and the next channel sequence (above every `channel-N` used). Each entry is
 * checked as ibc-go's Validate does; the state is written at the ICS-24 paths and exported from them.
 */
import { create } from '@bufbuild/protobuf';
import { ChannelSchema, IdentifiedChannelSchema, Order, PacketStateSchema, State, type IdentifiedChannel, type PacketState } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { GenesisStateSchema, PacketSequenceSchema, type GenesisState, type PacketSequence } from '../../../../../gen/ibc/core/channel/v1/genesis_pb.js';
import type { StoreProvider } from '../../../../collections/index.js';
import { channelIdentifierError, connectionIdentifierError, parseChannelSequence, portIdentifierError } from '../host/identifiers.js';
import { Channels, NextChannelSequence, NextSequenceAck, NextSequenceRecv, NextSequenceSend, PacketAcknowledgements, PacketCommitments, PacketReceipts } from './keys.js';

export function defaultChannelGenesis(): GenesisState {
  return create(GenesisStateSchema, { nextChannelSequence: 0n });
}

/** validateGenFields: a port, a channel and a non-zero sequence. */
function genFieldsError(portId: string, channelId: string, sequence: bigint): string | undefined {
  const port = portIdentifierError(portId);
  if (port !== undefined) return `invalid port Id: ${port.message}`;
  const channel = channelIdentifierError(channelId);
  if (channel !== undefined) return `invalid channel Id: ${channel.message}`;
  if (sequence === 0n) return 'sequence cannot be 0';
  return undefined;
}

/** IdentifiedChannel.ValidateBasic with Channel.ValidateBasic and Counterparty.ValidateBasic. */
function channelError(channel: IdentifiedChannel): string | undefined {
  const id = channelIdentifierError(channel.channelId) ?? portIdentifierError(channel.portId);
  if (id !== undefined) return id.message;
  if (channel.state === State.UNINITIALIZED_UNSPECIFIED) return 'invalid channel state';
  if (channel.ordering !== Order.ORDERED && channel.ordering !== Order.UNORDERED) return `${Order[channel.ordering] === undefined ? channel.ordering : `ORDER_${Order[channel.ordering]}`}: invalid channel ordering`;
  if (channel.connectionHops.length !== 1) return 'current IBC version only supports one connection hop: too many connection hops';
  const hop = connectionIdentifierError(channel.connectionHops[0]!);
  if (hop !== undefined) return `${hop.message}: invalid connection hops`;
  const counterpartyPort = portIdentifierError(channel.counterparty?.portId ?? '');
  if (counterpartyPort !== undefined) return `${counterpartyPort.message}: invalid counterparty channel`;
  const counterpartyChannel = channel.counterparty?.channelId ?? '';
  if (counterpartyChannel !== '') {
    const invalid = channelIdentifierError(counterpartyChannel);
    if (invalid !== undefined) return `${invalid.message}: invalid counterparty channel`;
  }
  return undefined;
}

export function validateChannelGenesis(gs: GenesisState): string[] {
  const problems: string[] = [];
  let maxSequence = 0n;
  gs.channels.forEach((channel, i) => {
    const sequence = parseChannelSequence(channel.channelId);
    if (sequence === undefined) {
      problems.push(`channel_genesis.channels[${i}]: channel identifier ${channel.channelId} is not in the format: \`channel-{N}\``);
      return;
    }
    if (sequence > maxSequence) maxSequence = sequence;
    const problem = channelError(channel);
    if (problem !== undefined) problems.push(`channel_genesis.channels[${i}]: invalid channel ${channel.portId}/${channel.channelId}: ${problem}`);
  });
  const packetStates: [string, PacketState[]][] = [
    ['acknowledgements', gs.acknowledgements],
    ['commitments', gs.commitments],
    ['receipts', gs.receipts],
  ];
  for (const [name, states] of packetStates) {
    states.forEach((state, i) => {
      const problem = state.data.length === 0 ? 'data bytes cannot be nil' : genFieldsError(state.portId, state.channelId, state.sequence);
      if (problem !== undefined) problems.push(`channel_genesis.${name}[${i}]: ${problem}`);
    });
  }
  const sequences: [string, PacketSequence[]][] = [
    ['send_sequences', gs.sendSequences],
    ['recv_sequences', gs.recvSequences],
    ['ack_sequences', gs.ackSequences],
  ];
  for (const [name, entries] of sequences) {
    entries.forEach((entry, i) => {
      const problem = genFieldsError(entry.portId, entry.channelId, entry.sequence);
      if (problem !== undefined) problems.push(`channel_genesis.${name}[${i}]: ${problem}`);
    });
  }
  if (maxSequence !== 0n && maxSequence >= gs.nextChannelSequence) {
    problems.push(`channel_genesis: next channel sequence ${gs.nextChannelSequence} must be greater than maximum sequence used in channel identifier ${maxSequence}`);
  }
  return problems;
}

export function initChannelGenesis(ctx: StoreProvider, gs: GenesisState): void {
  for (const c of gs.channels) {
    Channels.set(ctx, [c.portId, c.channelId], create(ChannelSchema, { state: c.state, ordering: c.ordering, counterparty: c.counterparty, connectionHops: c.connectionHops, version: c.version }));
  }
  for (const ack of gs.acknowledgements) PacketAcknowledgements.set(ctx, [ack.portId, ack.channelId, ack.sequence], ack.data);
  for (const commitment of gs.commitments) PacketCommitments.set(ctx, [commitment.portId, commitment.channelId, commitment.sequence], commitment.data);
  for (const receipt of gs.receipts) PacketReceipts.set(ctx, [receipt.portId, receipt.channelId, receipt.sequence], receipt.data);
  for (const entry of gs.sendSequences) NextSequenceSend.set(ctx, [entry.portId, entry.channelId], entry.sequence);
  for (const entry of gs.recvSequences) NextSequenceRecv.set(ctx, [entry.portId, entry.channelId], entry.sequence);
  for (const entry of gs.ackSequences) NextSequenceAck.set(ctx, [entry.portId, entry.channelId], entry.sequence);
  NextChannelSequence.set(ctx, gs.nextChannelSequence);
}

export async function exportChannelGenesis(ctx: StoreProvider): Promise<GenesisState> {
  const gs = create(GenesisStateSchema, { nextChannelSequence: NextChannelSequence.get(ctx) ?? 0n });
  for await (const [[portId, channelId], c] of Channels.iterate(ctx)) {
    gs.channels.push(create(IdentifiedChannelSchema, { state: c.state, ordering: c.ordering, counterparty: c.counterparty, connectionHops: c.connectionHops, version: c.version, portId, channelId }));
  }
  const packetStates = [
    [PacketAcknowledgements, gs.acknowledgements],
    [PacketCommitments, gs.commitments],
    [PacketReceipts, gs.receipts],
  ] as const;
  for (const [collection, out] of packetStates) {
    for await (const [[portId, channelId, sequence], data] of collection.iterate(ctx)) out.push(create(PacketStateSchema, { portId, channelId, sequence, data }));
  }
  const sequences = [
    [NextSequenceSend, gs.sendSequences],
    [NextSequenceRecv, gs.recvSequences],
    [NextSequenceAck, gs.ackSequences],
  ] as const;
  for (const [collection, out] of sequences) {
    for await (const [[portId, channelId], sequence] of collection.iterate(ctx)) out.push(create(PacketSequenceSchema, { portId, channelId, sequence }));
  }
  return gs;
}
