/**
 * The acknowledgements IBC applications write (ibc-go v6 04-channel types/acknowledgement.go), one
 * copy for ICS-20, ICS-27 and any later application: ibc.core.channel.v1.Acknowledgement as proto
 * JSON with the proto field names, keys sorted (sdk.MustSortJSON), committed and relayed byte for
 * byte. A result carries the application's bytes in base64 (`{"result":"AQ=="}` for ICS-20's
 * 0x01); an error carries only the ABCI code of the failure, which is deterministic
 * (`{"error":"ABCI code: 5: error handling packet: see events for details"}`).
 */
import { create, toJson } from '@bufbuild/protobuf';
import { AcknowledgementSchema } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import { abciInfo } from '../../../shared/errors.js';
import type { Acknowledgement } from '../port/types.js';

/** The text after the code in every error acknowledgement (04-channel's ackErrorString; part of state). */
export const ACK_ERROR_STRING = 'error handling packet: see events for details';

/** JSON with object keys sorted at every depth, compact (sdk.MustSortJSON). */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) out[key] = sort((v as Record<string, unknown>)[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

const utf8 = new TextEncoder();

function ackBytes(response: { case: 'result'; value: Uint8Array } | { case: 'error'; value: string }): Uint8Array {
  const ack = create(AcknowledgementSchema, { response });
  return utf8.encode(sortedJson(toJson(AcknowledgementSchema, ack, { useProtoFieldName: true })));
}

/** A result acknowledgement, `{"result":"<base64 of result>"}` (NewResultAcknowledgement). */
export function resultAcknowledgement(result: Uint8Array): Acknowledgement {
  return { success: true, bytes: ackBytes({ case: 'result', value: result }) };
}

/** An error acknowledgement for `err`: only its ABCI code (1 for errors without one) goes into it (NewErrorAcknowledgement). */
export function errorAcknowledgement(err: unknown): Acknowledgement {
  const { code } = abciInfo(err);
  return { success: false, bytes: ackBytes({ case: 'error', value: `ABCI code: ${code}: ${ACK_ERROR_STRING}` }) };
}
