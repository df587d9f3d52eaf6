/**
 * 04-channel's acknowledgements, shared by ICS-20 and ICS-27: the exact bytes committed and
 * relayed for a result (ICS-20's 0x01 and an ICA host's TxMsgData bytes) and for an error (only
 * the ABCI code; 1 for an error without one), and sdk.MustSortJSON's key order at every depth.
 */
import { describe, expect, test } from '@jest/globals';
import { errorAcknowledgement, resultAcknowledgement, sortedJson } from '../../../../src/node/modules/ibc/core/channel/acknowledgement.js';
import { TransferErrors } from '../../../../src/node/modules/ibc/apps/transfer/errors.js';
import { IcaErrors } from '../../../../src/node/modules/ibc/apps/ica/errors.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('acknowledgement bytes', () => {
  test('a result carries its bytes in base64', () => {
    expect(resultAcknowledgement(Uint8Array.of(1))).toEqual({ success: true, bytes: new TextEncoder().encode('{"result":"AQ=="}') });
    expect(text(resultAcknowledgement(Uint8Array.of(0x12, 0x26, 0x0a, 0x24)).bytes)).toBe('{"result":"EiYKJA=="}');
    expect(text(resultAcknowledgement(new Uint8Array(0)).bytes)).toBe('{"result":""}');
  });

  test('an error carries only the ABCI code', () => {
    const transfer = errorAcknowledgement(TransferErrors.InvalidAmount.wrap('what the log says'));
    expect(transfer.success).toBe(false);
    expect(text(transfer.bytes)).toBe('{"error":"ABCI code: 5: error handling packet: see events for details"}');
    expect(text(errorAcknowledgement(IcaErrors.HostSubModuleDisabled.error()).bytes)).toBe('{"error":"ABCI code: 2: error handling packet: see events for details"}');
    expect(text(errorAcknowledgement(new Error('no code')).bytes)).toBe('{"error":"ABCI code: 1: error handling packet: see events for details"}');
  });

  test('sortedJson sorts keys at every depth, compact', () => {
    expect(sortedJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });
});
