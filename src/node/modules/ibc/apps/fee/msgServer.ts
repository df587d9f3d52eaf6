/**
 * ibc.applications.fee.v1.Msg (ibc-go v6 29-fee msg_server.go): each message is first checked as
 * its ValidateBasic does, then against state — the channel must exist and be fee-enabled, the
 * module unlocked, the coins sendable, the paying account not a blocked (module) address.
 */
import { create } from '@bufbuild/protobuf';
import { PacketFeeSchema, type Fee, type PacketFee } from '../../../../../gen/ibc/applications/fee/v1/fee_pb.js';
import {
  Msg,
  MsgPayPacketFeeAsyncResponseSchema,
  MsgPayPacketFeeResponseSchema,
  MsgRegisterCounterpartyPayeeResponseSchema,
  MsgRegisterPayeeResponseSchema,
} from '../../../../../gen/ibc/applications/fee/v1/tx_pb.js';
import { PacketIdSchema, type PacketId } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../../../shared/context.js';
import type { FeeBankKeeper } from './expectedKeepers.js';
import { parseAccAddress } from '../../../shared/address.js';
import { coinsError, coinsFromProto, type Coin } from '../../../shared/coins.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { channelIdentifierError, portIdentifierError } from '../../core/host/identifiers.js';
import { ChannelErrors } from '../../core/channel/errors.js';
import { FeeErrors } from './errors.js';
import { feeTotal, type FeeKeeper } from './keeper.js';
import { registerCounterpartyPayeeEvents, registerPayeeEvents } from './events.js';

function checkPort(portId: string): void {
  const invalid = portIdentifierError(portId);
  if (invalid !== undefined) throw invalid;
}

function checkChannel(channelId: string): void {
  const invalid = channelIdentifierError(channelId);
  if (invalid !== undefined) throw invalid;
}

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`${what}: ${parsed.error}`);
  return parsed.bytes;
}

/** Fee.Validate: each fee a valid coin list, not all of them empty. */
export function feeError(fee: Fee | undefined): Error | undefined {
  const invalid: string[] = [];
  const check = (coins: readonly { denom: string; amount: string }[], name: string): Coin[] => {
    let parsed: Coin[] = [];
    try {
      parsed = coinsFromProto(coins);
    } catch {
      invalid.push(`${name} fee invalid`);
      return [];
    }
    if (coinsError(parsed) !== undefined) invalid.push(`${name} fee invalid`);
    return parsed;
  };
  const ack = check(fee?.ackFee ?? [], 'ack');
  const recv = check(fee?.recvFee ?? [], 'recv');
  const timeout = check(fee?.timeoutFee ?? [], 'timeout');
  if (invalid.length > 0) return SdkErrors.InvalidCoins.wrap(`contains invalid fees: ${invalid.join(' , ')}`);
  if (ack.length === 0 && recv.length === 0 && timeout.length === 0) return SdkErrors.InvalidCoins.wrap('all fees are zero');
  return undefined;
}

/** PacketFee.Validate. */
export function packetFeeError(packetFee: PacketFee | undefined): Error | undefined {
  const refund = parseAccAddress(packetFee?.refundAddress ?? '');
  if (!refund.ok) return SdkErrors.InvalidAddress.wrap(`failed to convert RefundAddress into sdk.AccAddress: ${refund.error}`);
  if ((packetFee?.relayers.length ?? 0) !== 0) return FeeErrors.RelayersNotEmpty.error();
  return feeError(packetFee?.fee);
}

/** PacketId.Validate. */
export function packetIdError(id: PacketId | undefined): Error | undefined {
  const port = portIdentifierError(id?.portId ?? '');
  if (port !== undefined) return wrapError(port, 'invalid source port ID');
  const channel = channelIdentifierError(id?.channelId ?? '');
  if (channel !== undefined) return wrapError(channel, 'invalid source channel ID');
  if ((id?.sequence ?? 0n) === 0n) return ChannelErrors.InvalidPacket.wrap('packet sequence cannot be 0');
  return undefined;
}

export function feeMsgRoutes(keeper: FeeKeeper, bank: Pick<FeeBankKeeper, 'blockedAddr' | 'checkSendEnabled'>): MsgRoute[] {
  const requireFeeEnabledChannel = (ctx: Context, portId: string, channelId: string): void => {
    if (keeper.channels.getChannel(ctx, portId, channelId) === undefined) throw ChannelErrors.ChannelNotFound.error();
    if (!keeper.isFeeEnabled(ctx, portId, channelId)) throw FeeErrors.FeeNotEnabled.error();
  };
  const checkPayer = (ctx: Context, payer: Uint8Array, text: string, fee: Fee | undefined): void => {
    bank.checkSendEnabled(ctx, feeTotal(fee));
    if (bank.blockedAddr(payer)) throw SdkErrors.Unauthorized.wrap(`${text} is not allowed to escrow fees`);
  };
  return [
    msgRoute(Msg.method.registerPayee, (ctx, msg) => {
      checkPort(msg.portId);
      checkChannel(msg.channelId);
      if (msg.relayer === msg.payee) throw SdkErrors.InvalidRequest.wrap('relayer address and payee must not be equal');
      address(msg.relayer, 'failed to create sdk.AccAddress from relayer address');
      const payee = address(msg.payee, 'failed to create sdk.AccAddress from payee address');
      if (bank.blockedAddr(payee)) throw SdkErrors.Unauthorized.wrap(`${msg.payee} is not authorized to be a payee`);
      requireFeeEnabledChannel(ctx, msg.portId, msg.channelId);
      keeper.setPayeeAddress(ctx, msg.relayer, msg.payee, msg.channelId);
      ctx.events.emitAll(registerPayeeEvents(msg.relayer, msg.payee, msg.channelId));
      return create(MsgRegisterPayeeResponseSchema);
    }),
    msgRoute(Msg.method.registerCounterpartyPayee, (ctx, msg) => {
      checkPort(msg.portId);
      checkChannel(msg.channelId);
      address(msg.relayer, 'failed to create sdk.AccAddress from relayer address');
      if (msg.counterpartyPayee.trim() === '') throw FeeErrors.CounterpartyPayeeEmpty.error();
      requireFeeEnabledChannel(ctx, msg.portId, msg.channelId);
      keeper.setCounterpartyPayeeAddress(ctx, msg.relayer, msg.counterpartyPayee, msg.channelId);
      ctx.events.emitAll(registerCounterpartyPayeeEvents(msg.relayer, msg.counterpartyPayee, msg.channelId));
      return create(MsgRegisterCounterpartyPayeeResponseSchema);
    }),
    msgRoute(Msg.method.payPacketFee, (ctx, msg) => {
      checkChannel(msg.sourceChannelId);
      checkPort(msg.sourcePortId);
      const payer = address(msg.signer, 'failed to convert msg.Signer into sdk.AccAddress');
      if (msg.relayers.length !== 0) throw FeeErrors.RelayersNotEmpty.error();
      const invalidFee = feeError(msg.fee);
      if (invalidFee !== undefined) throw invalidFee;
      if (!keeper.isFeeEnabled(ctx, msg.sourcePortId, msg.sourceChannelId)) throw FeeErrors.FeeNotEnabled.error();
      if (keeper.isLocked(ctx)) throw FeeErrors.FeeModuleLocked.error();
      checkPayer(ctx, payer, msg.signer, msg.fee);
      const sequence = keeper.channels.getNextSequenceSend(ctx, msg.sourcePortId, msg.sourceChannelId);
      if (sequence === undefined) throw ChannelErrors.SequenceSendNotFound.error();
      const id = create(PacketIdSchema, { portId: msg.sourcePortId, channelId: msg.sourceChannelId, sequence });
      keeper.escrowPacketFee(ctx, id, create(PacketFeeSchema, { fee: msg.fee, refundAddress: msg.signer, relayers: msg.relayers }));
      return create(MsgPayPacketFeeResponseSchema);
    }),
    msgRoute(Msg.method.payPacketFeeAsync, (ctx, msg) => {
      const invalidId = packetIdError(msg.packetId);
      if (invalidId !== undefined) throw invalidId;
      const invalidFee = packetFeeError(msg.packetFee);
      if (invalidFee !== undefined) throw invalidFee;
      const id = msg.packetId!;
      const packetFee = msg.packetFee!;
      if (!keeper.isFeeEnabled(ctx, id.portId, id.channelId)) throw FeeErrors.FeeNotEnabled.error();
      if (keeper.isLocked(ctx)) throw FeeErrors.FeeModuleLocked.error();
      checkPayer(ctx, address(packetFee.refundAddress, 'refund address'), packetFee.refundAddress, packetFee.fee);
      const next = keeper.channels.getNextSequenceSend(ctx, id.portId, id.channelId);
      if (next === undefined) throw ChannelErrors.SequenceSendNotFound.wrap(`channel does not exist, portID: ${id.portId}, channelID: ${id.channelId}`);
      if (id.sequence >= next) throw ChannelErrors.PacketNotSent.error();
      const commitment = keeper.channels.getPacketCommitment(ctx, id.portId, id.channelId, id.sequence);
      if (commitment === undefined || commitment.length === 0) throw ChannelErrors.PacketCommitmentNotFound.wrap('packet has already been acknowledged or timed out');
      keeper.escrowPacketFee(ctx, id, packetFee);
      return create(MsgPayPacketFeeAsyncResponseSchema);
    }),
  ];
}

