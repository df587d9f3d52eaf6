/**
 * The Cosmos SDK's TxResponse (COMPAT §5), built in ONE place for the node's services (GetTx,
 * GetTxsEvent, BroadcastTx) and for the CLI (`q tx`, `q txs`, `tx … -b block`): height, txhash
 * (upper hex), codespace, code, data (upper hex of the TxMsgData bytes), raw_log, logs [] (0.50
 * no longer parses msg logs), info, gas_wanted, gas_used, tx (Any "/cosmos.tx.v1beta1.Tx"),
 * timestamp (block time, RFC 3339 whole seconds), events.
 */
import { create, fromBinary, type JsonValue } from '@bufbuild/protobuf';
import { TxResponseSchema, type TxResponse } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { AuthInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { EventAttributeSchema, EventSchema, type Event } from '../../gen/tendermint/abci/types_pb.js';
import type { AbciEvent } from '../abci/types.js';
import { anyPack } from './any.js';
import { toGatewayJson } from './json.js';
import { registry } from './registry.js';

/** What a tx's execution (or CheckTx) reported, and where it landed. */
export interface TxResultFields {
  hash: Uint8Array;
  /** 0 for a tx not (yet) in a block. */
  height: number;
  result: {
    code: number;
    data: Uint8Array;
    log: string;
    info: string;
    gasWanted: bigint;
    gasUsed: bigint;
    events: readonly AbciEvent[];
    codespace: string;
  };
}

function hexUpper(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

/** tendermint.abci.Event list of ABCI events. */
export function protoEvents(events: readonly AbciEvent[]): Event[] {
  return events.map((event) =>
    create(EventSchema, {
      type: event.type,
      attributes: event.attributes.map((attr) => create(EventAttributeSchema, { key: attr.key, value: attr.value, index: attr.index })),
    }),
  );
}

/** The decoded cosmos.tx.v1beta1.Tx of TxRaw bytes; throws on bytes that do not decode. */
export function txFromRawBytes(txBytes: Uint8Array): Tx {
  const raw = fromBinary(TxRawSchema, txBytes);
  return create(TxSchema, { body: fromBinary(TxBodySchema, raw.bodyBytes), authInfo: fromBinary(AuthInfoSchema, raw.authInfoBytes), signatures: raw.signatures });
}

/** TxResponse of a committed (or checked) tx; `tx` and `timestamp` when known. */
export function txResponse(fields: TxResultFields, tx?: Tx, timestamp = ''): TxResponse {
  const { result } = fields;
  return create(TxResponseSchema, {
    height: BigInt(fields.height),
    txhash: hexUpper(fields.hash),
    codespace: result.codespace,
    code: result.code,
    data: hexUpper(result.data),
    rawLog: result.log,
    logs: [],
    info: result.info,
    gasWanted: result.gasWanted,
    gasUsed: result.gasUsed,
    tx: tx === undefined ? undefined : anyPack(TxSchema, tx),
    timestamp,
    events: protoEvents(result.events),
  });
}

/** The gateway JSON of `txResponse(…)`, as the CLI prints it (the tx is left out, as null, when its bytes do not decode). */
export function txResponseJson(fields: TxResultFields, txBytes?: Uint8Array, timestamp = ''): JsonValue {
  let tx: Tx | undefined;
  if (txBytes !== undefined) {
    try {
      tx = txFromRawBytes(txBytes);
    } catch {
      tx = undefined;
    }
  }
  return toGatewayJson(TxResponseSchema, txResponse(fields, tx, timestamp), { registry });
}
