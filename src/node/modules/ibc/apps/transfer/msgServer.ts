/**
 * ibc.applications.transfer.v1.Msg/Transfer (ibc-go v6 keeper/msg_server.go): the message is
 * checked as MsgTransfer.ValidateBasic does, then sends must be enabled (module param and the
 * bank's per-denom flag) and the sender not blocked; the keeper escrows or burns and sends the packet.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgTransferResponseSchema, type MsgTransfer } from '../../../../../gen/ibc/applications/transfer/v1/tx_pb.js';
import { ZERO_HEIGHT } from '../../core/client/height.js';
import { channelIdentifierError, portIdentifierError } from '../../core/host/identifiers.js';
import { parseAccAddress } from '../../../shared/address.js';
import { denomError, parseInt256, type Coin } from '../../../shared/coins.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { ibcDenomError } from './denom.js';
import { TransferErrors } from './errors.js';
import { transferEvents } from './events.js';
import type { TransferKeeper } from './keeper.js';

/** MsgTransfer.ValidateBasic; returns the token as a coin. */
export function validateMsgTransfer(msg: MsgTransfer): Coin {
  const port = portIdentifierError(msg.sourcePort);
  if (port !== undefined) throw wrapError(port, 'invalid source port ID');
  const channel = channelIdentifierError(msg.sourceChannel);
  if (channel !== undefined) throw wrapError(channel, 'invalid source channel ID');
  const denom = msg.token?.denom ?? '';
  const text = msg.token?.amount ?? '';
  const amount = parseInt256(text);
  const tokenText = `${text}${denom}`;
  if (amount === undefined || amount < 0n || denomError(denom) !== undefined) throw SdkErrors.InvalidCoins.wrap(tokenText);
  if (amount === 0n) throw SdkErrors.InsufficientFunds.wrap(tokenText);
  const sender = parseAccAddress(msg.sender);
  if (!sender.ok) throw SdkErrors.InvalidAddress.wrap(`string could not be parsed as address: ${sender.error}`);
  if (msg.receiver.trim() === '') throw SdkErrors.InvalidAddress.wrap('missing recipient address');
  const invalidDenom = ibcDenomError(denom);
  if (invalidDenom !== undefined) throw invalidDenom;
  return { denom, amount };
}

export function transferMsgRoutes(keeper: TransferKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.transfer, (ctx, msg) => {
      const token = validateMsgTransfer(msg);
      if (!keeper.getParams(ctx).sendEnabled) throw TransferErrors.SendDisabled.error();
      const sender = parseAccAddress(msg.sender);
      if (!sender.ok) throw new Error(sender.error);
      if (!keeper.bank.isSendEnabledDenom(ctx, token.denom)) throw TransferErrors.SendDisabled.wrap(`${token.denom} transfers are currently disabled`);
      if (keeper.bank.blockedAddr(sender.bytes)) throw SdkErrors.Unauthorized.wrap(`${msg.sender} is not allowed to send funds`);
      const sequence = keeper.sendTransfer(ctx, msg.sourcePort, msg.sourceChannel, token, sender.bytes, msg.receiver, msg.timeoutHeight ?? ZERO_HEIGHT, msg.timeoutTimestamp, msg.memo);
      ctx.events.emitAll(transferEvents(msg.sender, msg.receiver));
      return create(MsgTransferResponseSchema, { sequence });
    }),
  ];
}
