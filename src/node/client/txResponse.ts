/**
 * TxResponse on the client, from the consensus RPC's `tx` / `tx_search` / `broadcast_tx_*`
 * results (as the SDK's CLI builds it). The fields are converted to the shared builder's input
 * (codec/txResponse.ts, which the node's GetTx/BroadcastTx also use), so the CLI prints exactly
 * what the REST gateway serves.
 */
import type { TxResultFields } from '../codec/txResponse.js';
import { txResponseJson } from '../codec/txResponse.js';
import '../app/modules.js'; // registers the app modules' types (Msgs, accounts …) in the codec registry
import type { RpcClient } from './rpc.js';
import type { EventJson, ExecTxResultJson, TxResult } from './rpcTypes.js';
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

/** An RPC result (ExecTxResult / CheckTx JSON) as the builder's input. */
export function txResultFields(hashHex: string, height: number, result: Partial<ExecTxResultJson>): TxResultFields {
  return {
    hash: Buffer.from(hashHex, 'hex'),
    height,
    result: {
      code: result.code ?? 0,
      data: result.data ? Buffer.from(result.data, 'base64') : new Uint8Array(0),
      log: result.log ?? '',
      info: result.info ?? '',
      gasWanted: BigInt(result.gas_wanted ?? '0'),
      gasUsed: BigInt(result.gas_used ?? '0'),
      events: (result.events ?? []).map((event) => ({ type: event.type, attributes: event.attributes ?? [] })),
      codespace: result.codespace ?? '',
    },
  };
}

/** The gateway JSON of a TxResponse. */
export function clientTxResponse(fields: TxResultFields, txBytes?: Uint8Array, timestamp = ''): TxResponseJson {
  return txResponseJson(fields, txBytes, timestamp) as unknown as TxResponseJson;
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
  return clientTxResponse(txResultFields(result.hash, Number(result.height), result.tx_result), Buffer.from(result.tx, 'base64'), timestamp);
}
