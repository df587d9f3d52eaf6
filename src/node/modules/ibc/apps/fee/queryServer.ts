/**
 * ibc.applications.fee.v1.Query (ibc-go v6 29-fee grpc_query.go). `query_height` is accepted and
 * ignored, as upstream's handlers only set it on the context's block height; responses carry no
 * pagination, as upstream's.
 */
import { create } from '@bufbuild/protobuf';
import { IdentifiedPacketFeesSchema, type PacketFee } from '../../../../../gen/ibc/applications/fee/v1/fee_pb.js';
import { FeeEnabledChannelSchema } from '../../../../../gen/ibc/applications/fee/v1/genesis_pb.js';
import {
  Query,
  QueryCounterpartyPayeeResponseSchema,
  QueryFeeEnabledChannelResponseSchema,
  QueryFeeEnabledChannelsResponseSchema,
  QueryIncentivizedPacketResponseSchema,
  QueryIncentivizedPacketsForChannelResponseSchema,
  QueryIncentivizedPacketsResponseSchema,
  QueryPayeeResponseSchema,
  QueryTotalAckFeesResponseSchema,
  QueryTotalRecvFeesResponseSchema,
  QueryTotalTimeoutFeesResponseSchema,
} from '../../../../../gen/ibc/applications/fee/v1/query_pb.js';
import { PacketIdSchema, type PacketId } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { paginate } from '../../../../collections/index.js';
import { addCoins, coinsFromProto, coinsToProto, type Coin } from '../../../shared/coins.js';
import type { Context } from '../../../shared/context.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import { FeeErrors } from './errors.js';
import type { FeeKeeper } from './keeper.js';
import { FeeEnabled, FeesInEscrow } from './keys.js';

const packetId = (portId: string, channelId: string, sequence: bigint): PacketId => create(PacketIdSchema, { portId, channelId, sequence });

export function feeQueryService(keeper: FeeKeeper): QueryServiceImpl {
  const feesOf = (ctx: Context, id: PacketId | undefined): PacketFee[] => {
    const fees = id === undefined ? undefined : keeper.getFeesInEscrow(ctx, id);
    if (fees === undefined) {
      throw grpcError('NotFound', FeeErrors.FeeNotFound.wrap(`channel: ${id?.channelId ?? ''}, port: ${id?.portId ?? ''}, sequence: ${id?.sequence ?? 0n}`).message);
    }
    return fees;
  };
  const sum = (fees: readonly PacketFee[], pick: (fee: PacketFee) => readonly { denom: string; amount: string }[]) =>
    coinsToProto(fees.reduce<Coin[]>((total, fee) => addCoins(total, coinsFromProto(pick(fee))), []));
  return defineQueryService(Query, {
    async incentivizedPackets(request, ctx) {
      const page = await paginate(ctx, FeesInEscrow, request.pagination, {
        map: ([portId, channelId, sequence], value) => create(IdentifiedPacketFeesSchema, { packetId: packetId(portId, channelId, sequence), packetFees: value.packetFees }),
      });
      return create(QueryIncentivizedPacketsResponseSchema, { incentivizedPackets: page.items });
    },
    async incentivizedPacket(request, ctx) {
      const fees = feesOf(ctx, request.packetId);
      return create(QueryIncentivizedPacketResponseSchema, { incentivizedPacket: create(IdentifiedPacketFeesSchema, { packetId: request.packetId, packetFees: fees }) });
    },
    async incentivizedPacketsForChannel(request, ctx) {
      const page = await paginate(ctx, FeesInEscrow, request.pagination, {
        prefix: [request.portId, request.channelId],
        map: ([portId, channelId, sequence], value) => create(IdentifiedPacketFeesSchema, { packetId: packetId(portId, channelId, sequence), packetFees: value.packetFees }),
      });
      return create(QueryIncentivizedPacketsForChannelResponseSchema, { incentivizedPackets: page.items });
    },
    async totalRecvFees(request, ctx) {
      return create(QueryTotalRecvFeesResponseSchema, { recvFees: sum(feesOf(ctx, request.packetId), (fee) => fee.fee?.recvFee ?? []) });
    },
    async totalAckFees(request, ctx) {
      return create(QueryTotalAckFeesResponseSchema, { ackFees: sum(feesOf(ctx, request.packetId), (fee) => fee.fee?.ackFee ?? []) });
    },
    async totalTimeoutFees(request, ctx) {
      return create(QueryTotalTimeoutFeesResponseSchema, { timeoutFees: sum(feesOf(ctx, request.packetId), (fee) => fee.fee?.timeoutFee ?? []) });
    },
    async payee(request, ctx) {
      const payee = keeper.getPayeeAddress(ctx, request.relayer, request.channelId);
      if (payee === undefined) throw grpcError('NotFound', `payee address not found for address: ${request.relayer} on channel: ${request.channelId}`);
      return create(QueryPayeeResponseSchema, { payeeAddress: payee });
    },
    async counterpartyPayee(request, ctx) {
      const payee = keeper.getCounterpartyPayeeAddress(ctx, request.relayer, request.channelId);
      if (payee === undefined) throw grpcError('NotFound', `counterparty payee address not found for address: ${request.relayer} on channel: ${request.channelId}`);
      return create(QueryCounterpartyPayeeResponseSchema, { counterpartyPayee: payee });
    },
    async feeEnabledChannels(request, ctx) {
      const page = await paginate(ctx, FeeEnabled, request.pagination, { map: ([portId, channelId]) => create(FeeEnabledChannelSchema, { portId, channelId }) });
      return create(QueryFeeEnabledChannelsResponseSchema, { feeEnabledChannels: page.items });
    },
    async feeEnabledChannel(request, ctx) {
      return create(QueryFeeEnabledChannelResponseSchema, { feeEnabled: keeper.isFeeEnabled(ctx, request.portId, request.channelId) });
    },
  });
}
