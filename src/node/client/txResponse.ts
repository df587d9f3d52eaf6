/**
 * TxResponse on the client, from the consensus RPC's `tx` / `tx_search` / `broadcast_tx_*`
 * results (as the SDK's CLI builds it). The fields are converted to the shared builder's input
 * (codec/txResponse.ts, which the node's GetTx/BroadcastTx also use), so the CLI prints exactly
 * what the REST gateway serves.
 */
import type { TxResultFields } from '../codec/txResponse.js';
import { txResponseJson } from '../codec/txResponse.js';
import { fromBinary, type DescMessage } from '@bufbuild/protobuf';
import { TxBodySchema, TxRawSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { registerTypes, registry } from '../codec/registry.js';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { carriesAny, registerAnyTypes } from '../codec/lazyTypes.js';
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

/** A Cosmos message type name whose generated file can be found from it (pkg.path.Name). */
const TYPE_NAME = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\.[A-Z][A-Za-z0-9_]*$/;

/**
 * Put the types of a tx's messages in the codec registry, loading as little as it can (see
 * `registerMessageTypes`).
 */
export async function registerTxTypes(txBytes: Uint8Array): Promise<void> {
  let anys: Any[];
  try {
    const body = fromBinary(TxBodySchema, fromBinary(TxRawSchema, txBytes).bodyBytes);
    anys = [...body.messages, ...body.extensionOptions, ...body.nonCriticalExtensionOptions];
  } catch {
    return; // not a tx this node can decode: rendered as such, no types needed
  }
  await registerMessageTypes(anys);
}

/**
 * Put the types of a tx's messages (Anys), and of the Anys inside them, in the codec registry:
 * from the generated files that declare them where the build's type index has them
 * (codec/lazyTypes.ts); else a Msg from its package's tx_pb.js, whose messages are registered;
 * when a type is not found there, or a loaded type can itself carry an Any, every app module's
 * types are loaded.
 */
export async function registerMessageTypes(messages: readonly Any[]): Promise<void> {
  let found = true;
  for (const message of messages) if (found) found = await registerAnyTypes(AnySchema, message);
  if (found) return;
  const typeUrls = messages.map((message) => message.typeUrl);
  const names = typeUrls.map((url) => url.slice(url.lastIndexOf('/') + 1));
  for (const name of names) {
    let type = registry.getMessage(name);
    if (type === undefined && TYPE_NAME.test(name)) {
      const dir = name.slice(0, name.lastIndexOf('.')).replace(/\./g, '/');
      const mod = (await import(`../../gen/${dir}/tx_pb.js`).catch(() => undefined)) as Record<string, unknown> | undefined;
      for (const value of Object.values(mod ?? {})) {
        const file = value as { kind?: string; messages?: DescMessage[] };
        if (file?.kind !== 'file' || !file.messages) continue;
        registerTypes(file.messages);
      }
      type = registry.getMessage(name);
    }
    // A type registered earlier (from the same package) that carries an Any needs the other modules' types too.
    if (type === undefined || carriesAny(type)) {
      await import('../app/modules.js'); // every module's types (Msgs, accounts, contents …)
      return;
    }
  }
}

export async function txResponseFromResult(rpc: RpcClient, result: TxResult, blockTimes: Map<string, string> = new Map()): Promise<TxResponseJson> {
  let timestamp = blockTimes.get(result.height);
  if (timestamp === undefined) {
    const header = await rpc.header(Number(result.height)).catch(() => undefined);
    timestamp = header?.header ? wholeSeconds(header.header.time) : '';
    blockTimes.set(result.height, timestamp);
  }
  const txBytes = Buffer.from(result.tx, 'base64');
  await registerTxTypes(txBytes);
  return clientTxResponse(txResultFields(result.hash, Number(result.height), result.tx_result), txBytes, timestamp);
}
