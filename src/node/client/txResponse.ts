/**
 * The Cosmos SDK's TxResponse, built on the client from the consensus RPC's `tx` / `tx_search`
 * results (as the SDK's CLI does): height, txhash, codespace, code, data (hex), raw_log, logs,
 * info, gas_wanted, gas_used, tx (decoded, as gateway JSON), timestamp, events.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { TxRawSchema, TxSchema, TxBodySchema, AuthInfoSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { create } from '@bufbuild/protobuf';
import { registry, toGatewayJson } from '../codec/index.js';
import '../app/modules.js'; // registers the app modules' types (Msgs, accounts …) in the codec registry
import type { RpcClient } from './rpc.js';
import type { EventJson, TxResult } from './rpcTypes.js';
import type { JsonValue } from './query.js';

export interface TxResponseJson {
  height: string;
  txhash: string;
  codespace: string;
  code: number;
  data: string;
  raw_log: string;
  logs: JsonValue[];
  info: string;
  gas_wanted: string;
  gas_used: string;
  tx: JsonValue;
  timestamp: string;
  events: EventJson[];
}

/** Decode TxRaw bytes into the gateway JSON of a `/cosmos.tx.v1beta1.Tx` (null if undecodable). */
export function decodeTxJson(txBytes: Uint8Array): JsonValue {
  try {
    const raw = fromBinary(TxRawSchema, txBytes);
    const tx = create(TxSchema, {
      body: fromBinary(TxBodySchema, raw.bodyBytes),
      authInfo: fromBinary(AuthInfoSchema, raw.authInfoBytes),
      signatures: raw.signatures,
    });
    return { '@type': '/cosmos.tx.v1beta1.Tx', ...(toGatewayJson(TxSchema, tx, { registry }) as Record<string, JsonValue>) };
  } catch {
    return null;
  }
}

/** RFC 3339 with whole seconds, as the SDK prints TxResponse.timestamp. */
function wholeSeconds(time: string): string {
  return time.replace(/\.\d+Z$/, 'Z');
}

export async function txResponseFromResult(rpc: RpcClient, result: TxResult, blockTimes: Map<string, string> = new Map()): Promise<TxResponseJson> {
  let timestamp = blockTimes.get(result.height);
  if (timestamp === undefined) {
    const header = await rpc.header(Number(result.height)).catch(() => undefined);
    timestamp = header?.header ? wholeSeconds(header.header.time) : '';
    blockTimes.set(result.height, timestamp);
  }
  const txResult = result.tx_result;
  return {
    height: result.height,
    txhash: result.hash,
    codespace: txResult.codespace ?? '',
    code: txResult.code ?? 0,
    data: txResult.data ? Buffer.from(txResult.data, 'base64').toString('hex').toUpperCase() : '',
    raw_log: txResult.log ?? '',
    logs: [],
    info: txResult.info ?? '',
    gas_wanted: txResult.gas_wanted ?? '0',
    gas_used: txResult.gas_used ?? '0',
    tx: decodeTxJson(Buffer.from(result.tx, 'base64')),
    timestamp,
    events: txResult.events ?? [],
  };
}
