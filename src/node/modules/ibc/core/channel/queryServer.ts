/**
 * ibc.core.channel.v1.Query (ibc-go v6 04-channel/keeper/grpc_query.go): channel ends (one, all,
 * over a connection), the client and consensus state behind a channel, packet commitments,
 * receipts and acknowledgements (one, all of a channel), the sequences a relayer still has to
 * relay (unreceived packets and acks) and the next receive sequence. As with the client and
 * connection queries, proofs come from `abci_query /store/ibc/key`; proof_height is the query's height.
 */
import { create } from '@bufbuild/protobuf';
import { IdentifiedClientStateSchema } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { IdentifiedChannelSchema, Order, PacketStateSchema, type Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import {
  Query,
  QueryChannelClientStateResponseSchema,
  QueryChannelConsensusStateResponseSchema,
  QueryChannelResponseSchema,
  QueryChannelsResponseSchema,
  QueryConnectionChannelsResponseSchema,
  QueryNextSequenceReceiveResponseSchema,
  QueryPacketAcknowledgementResponseSchema,
  QueryPacketAcknowledgementsResponseSchema,
  QueryPacketCommitmentResponseSchema,
  QueryPacketCommitmentsResponseSchema,
  QueryPacketReceiptResponseSchema,
  QueryUnreceivedAcksResponseSchema,
  QueryUnreceivedPacketsResponseSchema,
} from '../../../../../gen/ibc/core/channel/v1/query_pb.js';
import { paginate } from '../../../../collections/index.js';
import type { Context } from '../../../shared/context.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import { ClientErrors } from '../client/errors.js';
import { newHeight, selfHeight } from '../client/height.js';
import type { ConnectionKeeper } from '../connection/keeper.js';
import { ConnectionErrors } from '../connection/errors.js';
import { channelIdentifierError, connectionIdentifierError, portIdentifierError } from '../host/identifiers.js';
import { ChannelErrors } from './errors.js';
import { Channels, NextSequenceRecv, PacketAcknowledgements, PacketCommitments, PacketReceipts } from './keys.js';

function checkIds(portId: string, channelId: string): void {
  const invalid = portIdentifierError(portId) ?? channelIdentifierError(channelId);
  if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
}

function checkSequence(sequence: bigint): void {
  if (sequence === 0n) throw grpcError('InvalidArgument', 'packet sequence cannot be 0');
}

function identified(portId: string, channelId: string, c: Channel) {
  return create(IdentifiedChannelSchema, { state: c.state, ordering: c.ordering, counterparty: c.counterparty, connectionHops: c.connectionHops, version: c.version, portId, channelId });
}

export function channelQueryService(connections: ConnectionKeeper): QueryServiceImpl {
  const clients = connections.clientKeeper;

  /** The channel's connection's client id (GetChannelClientState's lookups, with its NotFound errors). */
  function clientOf(ctx: Context, portId: string, channelId: string): string {
    const channel = Channels.get(ctx, [portId, channelId]);
    if (channel === undefined) throw grpcError('NotFound', ChannelErrors.ChannelNotFound.wrap(`port-id: ${portId}, channel-id: ${channelId}`).message);
    const connectionId = channel.connectionHops[0] ?? '';
    const connection = connections.getConnection(ctx, connectionId);
    if (connection === undefined) throw grpcError('NotFound', ConnectionErrors.ConnectionNotFound.wrap(`connection-id: ${connectionId}`).message);
    return connection.clientId;
  }

  return defineQueryService(Query, {
    async channel(request, ctx) {
      checkIds(request.portId, request.channelId);
      const channel = Channels.get(ctx, [request.portId, request.channelId]);
      if (channel === undefined) throw grpcError('NotFound', ChannelErrors.ChannelNotFound.wrap(`port-id: ${request.portId}, channel-id ${request.channelId}`).message);
      return create(QueryChannelResponseSchema, { channel, proofHeight: selfHeight(ctx) });
    },
    async channels(request, ctx) {
      const page = await paginate(ctx, Channels, request.pagination, { map: ([portId, channelId], c) => identified(portId, channelId, c) });
      return create(QueryChannelsResponseSchema, { channels: page.items, pagination: page.pagination, height: selfHeight(ctx) });
    },
    async connectionChannels(request, ctx) {
      const invalid = connectionIdentifierError(request.connection);
      if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
      const page = await paginate(ctx, Channels, request.pagination, {
        filter: (_key, c) => c.connectionHops[0] === request.connection,
        map: ([portId, channelId], c) => identified(portId, channelId, c),
      });
      return create(QueryConnectionChannelsResponseSchema, { channels: page.items, pagination: page.pagination, height: selfHeight(ctx) });
    },
    async channelClientState(request, ctx) {
      checkIds(request.portId, request.channelId);
      const clientId = clientOf(ctx, request.portId, request.channelId);
      const clientState = clients.getClientStateAny(ctx, clientId);
      if (clientState === undefined) throw grpcError('NotFound', ClientErrors.ClientNotFound.wrap(`client-id: ${clientId}`).message);
      return create(QueryChannelClientStateResponseSchema, { identifiedClientState: create(IdentifiedClientStateSchema, { clientId, clientState }), proofHeight: selfHeight(ctx) });
    },
    async channelConsensusState(request, ctx) {
      checkIds(request.portId, request.channelId);
      const clientId = clientOf(ctx, request.portId, request.channelId);
      const consensusState = clients.getClientConsensusStateAny(ctx, clientId, newHeight(request.revisionNumber, request.revisionHeight));
      if (consensusState === undefined) throw grpcError('NotFound', ClientErrors.ConsensusStateNotFound.wrap(`client-id: ${clientId}`).message);
      return create(QueryChannelConsensusStateResponseSchema, { consensusState, clientId, proofHeight: selfHeight(ctx) });
    },
    async packetCommitment(request, ctx) {
      checkIds(request.portId, request.channelId);
      checkSequence(request.sequence);
      const commitment = PacketCommitments.get(ctx, [request.portId, request.channelId, request.sequence]);
      if (commitment === undefined || commitment.length === 0) throw grpcError('NotFound', 'packet commitment hash not found');
      return create(QueryPacketCommitmentResponseSchema, { commitment, proofHeight: selfHeight(ctx) });
    },
    async packetCommitments(request, ctx) {
      checkIds(request.portId, request.channelId);
      const page = await paginate(ctx, PacketCommitments, request.pagination, {
        prefix: [request.portId, request.channelId],
        map: ([portId, channelId, sequence], data) => create(PacketStateSchema, { portId, channelId, sequence, data }),
      });
      return create(QueryPacketCommitmentsResponseSchema, { commitments: page.items, pagination: page.pagination, height: selfHeight(ctx) });
    },
    async packetReceipt(request, ctx) {
      checkIds(request.portId, request.channelId);
      checkSequence(request.sequence);
      const received = PacketReceipts.get(ctx, [request.portId, request.channelId, request.sequence]) !== undefined;
      return create(QueryPacketReceiptResponseSchema, { received, proofHeight: selfHeight(ctx) });
    },
    async packetAcknowledgement(request, ctx) {
      checkIds(request.portId, request.channelId);
      checkSequence(request.sequence);
      const acknowledgement = PacketAcknowledgements.get(ctx, [request.portId, request.channelId, request.sequence]);
      if (acknowledgement === undefined || acknowledgement.length === 0) throw grpcError('NotFound', 'packet acknowledgement hash not found');
      return create(QueryPacketAcknowledgementResponseSchema, { acknowledgement, proofHeight: selfHeight(ctx) });
    },
    async packetAcknowledgements(request, ctx) {
      checkIds(request.portId, request.channelId);
      if (request.packetCommitmentSequences.length > 0) {
        // The acknowledgements of the sequences asked, those that exist, without pagination.
        const acknowledgements = request.packetCommitmentSequences.flatMap((sequence) => {
          const data = PacketAcknowledgements.get(ctx, [request.portId, request.channelId, sequence]);
          return data === undefined ? [] : [create(PacketStateSchema, { portId: request.portId, channelId: request.channelId, sequence, data })];
        });
        return create(QueryPacketAcknowledgementsResponseSchema, { acknowledgements, height: selfHeight(ctx) });
      }
      const page = await paginate(ctx, PacketAcknowledgements, request.pagination, {
        prefix: [request.portId, request.channelId],
        map: ([portId, channelId, sequence], data) => create(PacketStateSchema, { portId, channelId, sequence, data }),
      });
      return create(QueryPacketAcknowledgementsResponseSchema, { acknowledgements: page.items, pagination: page.pagination, height: selfHeight(ctx) });
    },
    async unreceivedPackets(request, ctx) {
      checkIds(request.portId, request.channelId);
      const channel = Channels.get(ctx, [request.portId, request.channelId]);
      if (channel === undefined) throw grpcError('NotFound', ChannelErrors.ChannelNotFound.wrap(`port-id: ${request.portId}, channel-id: ${request.channelId}`).message);
      const nextRecv = channel.ordering === Order.ORDERED ? NextSequenceRecv.get(ctx, [request.portId, request.channelId]) : undefined;
      if (channel.ordering === Order.ORDERED && nextRecv === undefined) {
        throw grpcError('NotFound', ChannelErrors.SequenceReceiveNotFound.wrap(`destination port: ${request.portId}, destination channel: ${request.channelId}`).message);
      }
      const sequences: bigint[] = [];
      for (const sequence of request.packetCommitmentSequences) {
        if (sequence === 0n) throw grpcError('InvalidArgument', `packet sequence ${sequence} cannot be 0`);
        // Ordered: not yet received while at or above the next receive sequence; unordered: no receipt.
        const unreceived = nextRecv !== undefined ? sequence >= nextRecv : PacketReceipts.get(ctx, [request.portId, request.channelId, sequence]) === undefined;
        if (unreceived) sequences.push(sequence);
      }
      return create(QueryUnreceivedPacketsResponseSchema, { sequences, height: selfHeight(ctx) });
    },
    async unreceivedAcks(request, ctx) {
      checkIds(request.portId, request.channelId);
      const sequences: bigint[] = [];
      for (const sequence of request.packetAckSequences) {
        if (sequence === 0n) throw grpcError('InvalidArgument', `packet sequence ${sequence} cannot be 0`);
        // A commitment still stored: its acknowledgement has not been received here yet.
        if (PacketCommitments.get(ctx, [request.portId, request.channelId, sequence]) !== undefined) sequences.push(sequence);
      }
      return create(QueryUnreceivedAcksResponseSchema, { sequences, height: selfHeight(ctx) });
    },
    async nextSequenceReceive(request, ctx) {
      checkIds(request.portId, request.channelId);
      const next = NextSequenceRecv.get(ctx, [request.portId, request.channelId]);
      if (next === undefined) throw grpcError('NotFound', ChannelErrors.SequenceReceiveNotFound.wrap(`port-id: ${request.portId}, channel-id ${request.channelId}`).message);
      return create(QueryNextSequenceReceiveResponseSchema, { nextSequenceReceive: next, proofHeight: selfHeight(ctx) });
    },
  });
}
