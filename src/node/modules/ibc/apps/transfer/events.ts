/** ICS-20 events (ibc-go v6 apps/transfer/types/events.go) and their attributes. */
import { ATTRIBUTE_KEY_MODULE, ATTRIBUTE_KEY_SENDER, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../../../shared/events.js';
import type { FungibleTokenPacketData } from './packet.js';
import { TRANSFER_MODULE_NAME } from './keys.js';

export const EVENT_TYPE_TIMEOUT = 'timeout';
export const EVENT_TYPE_PACKET = 'fungible_token_packet';
export const EVENT_TYPE_TRANSFER = 'ibc_transfer';
export const EVENT_TYPE_CHANNEL_CLOSE = 'channel_closed';
export const EVENT_TYPE_DENOM_TRACE = 'denomination_trace';

export const ATTRIBUTE_KEY_RECEIVER = 'receiver';
export const ATTRIBUTE_KEY_DENOM = 'denom';
export const ATTRIBUTE_KEY_AMOUNT = 'amount';
export const ATTRIBUTE_KEY_REFUND_RECEIVER = 'refund_receiver';
export const ATTRIBUTE_KEY_REFUND_DENOM = 'refund_denom';
export const ATTRIBUTE_KEY_REFUND_AMOUNT = 'refund_amount';
export const ATTRIBUTE_KEY_ACK_SUCCESS = 'success';
export const ATTRIBUTE_KEY_ACK = 'acknowledgement';
export const ATTRIBUTE_KEY_ACK_ERROR = 'error';
export const ATTRIBUTE_KEY_TRACE_HASH = 'trace_hash';
export const ATTRIBUTE_KEY_MEMO = 'memo';

/** MsgTransfer: ibc_transfer{sender, receiver} and message{module=transfer}. */
export function transferEvents(sender: string, receiver: string): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_TRANSFER, [ATTRIBUTE_KEY_SENDER, sender], [ATTRIBUTE_KEY_RECEIVER, receiver]),
    newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_MODULE, TRANSFER_MODULE_NAME]),
  ];
}

/** A voucher denom first seen (or seen again) on receive. */
export function denomTraceEvent(traceHash: string, voucherDenom: string): AbciEvent {
  return newEvent(EVENT_TYPE_DENOM_TRACE, [ATTRIBUTE_KEY_TRACE_HASH, traceHash], [ATTRIBUTE_KEY_DENOM, voucherDenom]);
}

function packetAttributes(data: FungibleTokenPacketData): [string, string][] {
  return [
    [ATTRIBUTE_KEY_MODULE, TRANSFER_MODULE_NAME],
    [ATTRIBUTE_KEY_SENDER, data.sender],
    [ATTRIBUTE_KEY_RECEIVER, data.receiver],
    [ATTRIBUTE_KEY_DENOM, data.denom],
    [ATTRIBUTE_KEY_AMOUNT, data.amount],
    [ATTRIBUTE_KEY_MEMO, data.memo],
  ];
}

/** OnRecvPacket: the packet's fields, success true|false and, on failure, the error's full text. */
export function recvPacketEvent(data: FungibleTokenPacketData, success: boolean, error: string | undefined): AbciEvent {
  const attributes = [...packetAttributes(data), [ATTRIBUTE_KEY_ACK_SUCCESS, String(success)] as [string, string]];
  if (error !== undefined) attributes.push([ATTRIBUTE_KEY_ACK_ERROR, error]);
  return newEvent(EVENT_TYPE_PACKET, ...attributes);
}

/** OnAcknowledgementPacket: the packet's fields and the ack's text, then the result or the error alone. */
export function ackPacketEvents(data: FungibleTokenPacketData, ackText: string, result: { success: string } | { error: string }): AbciEvent[] {
  return [
    newEvent(EVENT_TYPE_PACKET, ...packetAttributes(data), [ATTRIBUTE_KEY_ACK, ackText]),
    'success' in result ? newEvent(EVENT_TYPE_PACKET, [ATTRIBUTE_KEY_ACK_SUCCESS, result.success]) : newEvent(EVENT_TYPE_PACKET, [ATTRIBUTE_KEY_ACK_ERROR, result.error]),
  ];
}

/** OnTimeoutPacket: who was refunded what. */
export function timeoutEvent(data: FungibleTokenPacketData): AbciEvent {
  return newEvent(
    EVENT_TYPE_TIMEOUT,
    [ATTRIBUTE_KEY_MODULE, TRANSFER_MODULE_NAME],
    [ATTRIBUTE_KEY_REFUND_RECEIVER, data.sender],
    [ATTRIBUTE_KEY_REFUND_DENOM, data.denom],
    [ATTRIBUTE_KEY_REFUND_AMOUNT, data.amount],
    [ATTRIBUTE_KEY_MEMO, data.memo],
  );
}
