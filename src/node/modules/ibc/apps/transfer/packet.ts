/**
 * The ICS-20 packet payload and acknowledgements on the wire (ibc-go v6):
 *
 * - FungibleTokenPacketData travels as proto3 JSON with the proto field names, keys sorted, and
 *   fields at their zero value left out (GetBytes: jsonpb with EmitDefaults false, so an empty
 *   memo is absent and chains that predate the memo accept the packet):
 *   `{"amount":"100","denom":"uatom","receiver":"…","sender":"…"}`.
 * - It is read back with the strict proto JSON reader (an unknown field is refused).
 * - Acknowledgements are 04-channel's (`core/channel/acknowledgement.ts`): success
 *   `{"result":"AQ=="}` (the byte 0x01, `TRANSFER_ACK_RESULT`); failure
 *   `{"error":"ABCI code: <code>: error handling packet: see events for details"}`.
 */
import { create, fromJsonString, toJson, type JsonObject } from '@bufbuild/protobuf';
import { AcknowledgementSchema, type Acknowledgement as ChannelAcknowledgement } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { FungibleTokenPacketDataSchema, type FungibleTokenPacketData } from '../../../../../gen/ibc/applications/transfer/v2/packet_pb.js';
import { sortedJson } from '../../core/channel/acknowledgement.js';
import { SdkErrors, type SdkError } from '../../../shared/errors.js';
import { parseInt256 } from '../../../shared/coins.js';
import { prefixedDenomError } from './denom.js';
import { TransferErrors } from './errors.js';

export type { FungibleTokenPacketData };

/** The result of a successful ICS-20 receive: the byte 0x01 (`{"result":"AQ=="}`). */
export const TRANSFER_ACK_RESULT = Uint8Array.of(1);

export function newPacketData(denom: string, amount: string, sender: string, receiver: string, memo = ''): FungibleTokenPacketData {
  return create(FungibleTokenPacketDataSchema, { denom, amount, sender, receiver, memo });
}

/** The packet bytes (FungibleTokenPacketData.GetBytes). */
export function packetDataBytes(data: FungibleTokenPacketData): Uint8Array {
  const json = toJson(FungibleTokenPacketDataSchema, data, { useProtoFieldName: true, alwaysEmitImplicit: false }) as JsonObject;
  return new TextEncoder().encode(sortedJson(json));
}

/** Packet bytes → data; throws on anything that is not the message's proto JSON. */
export function parsePacketData(bytes: Uint8Array): FungibleTokenPacketData {
  return fromJsonString(FungibleTokenPacketDataSchema, new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/**
 * FungibleTokenPacketData.ValidateBasic: a positive amount that fits 256 bits, a sender and a
 * receiver (their formats are the chains' own business), a well-formed prefixed denom.
 */
export function packetDataError(data: FungibleTokenPacketData): SdkError | Error | undefined {
  const amount = parseInt256(data.amount);
  if (amount === undefined) return TransferErrors.InvalidAmount.wrap(`unable to parse transfer amount (${data.amount}) into math.Int`);
  if (amount <= 0n) return TransferErrors.InvalidAmount.wrap(`amount must be strictly positive: got ${amount}`);
  if (data.sender.trim() === '') return SdkErrors.InvalidAddress.wrap('sender address cannot be blank');
  if (data.receiver.trim() === '') return SdkErrors.InvalidAddress.wrap('receiver address cannot be blank');
  return prefixedDenomError(data.denom);
}

/** Acknowledgement bytes → the channel Acknowledgement (strict proto JSON). */
export function parseAcknowledgement(bytes: Uint8Array): ChannelAcknowledgement {
  return fromJsonString(AcknowledgementSchema, new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/** A proto text-format string literal as Go's (gogo) text marshaler writes it: C escapes, octal for the rest. */
function textString(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

/**
 * The acknowledgement as the `acknowledgement` event attribute prints it (gogoproto String():
 * compact text format, each field followed by a space): `result:"\001" `.
 */
export function acknowledgementText(ack: ChannelAcknowledgement): string {
  switch (ack.response.case) {
    case 'result':
      return `result:${textString(ack.response.value)} `;
    case 'error':
      return `error:${textString(new TextEncoder().encode(ack.response.value))} `;
    default:
      return '';
  }
}
