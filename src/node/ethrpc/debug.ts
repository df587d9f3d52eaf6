/**
 * The `debug` namespace (opt-in through `[json-rpc] api`): debug_traceTransaction,
 * debug_traceBlockByNumber, debug_traceBlockByHash (Ethermint's rpc/backend/tracing.go: the tx's
 * block and its earlier Ethereum messages found through the block store and the tx index, the
 * evm TraceTx / TraceBlock query asked at block − 1) and debug_traceCall (a tokend extension
 * over the evm TraceCall query at the given block).
 */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { TraceConfigSchema } from '../../gen/ethermint/evm/v1/evm_pb.js';
import type { Block } from '../consensus/types/block.js';
import { EthRpcError, type EthBackend } from './backend.js';

type Handler = (params: unknown[]) => Promise<unknown>;
type TraceConfigInit = MessageInitShape<typeof TraceConfigSchema>;

function goKind(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** geth's trace config JSON → TraceConfig; a wrong type is refused as Go's JSON decoder words it. */
export function traceConfigFromJson(value: unknown, index: number): TraceConfigInit | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new EthRpcError(-32602, `invalid argument ${index}: json: cannot unmarshal ${goKind(value)} into Go value of type types.TraceConfig`);
  const o = value as Record<string, unknown>;
  const wrong = (key: string, want: string) => new EthRpcError(-32602, `invalid argument ${index}: json: cannot unmarshal ${goKind(o[key])} into Go struct field TraceConfig.${key} of type ${want}`);
  const text = (key: string): string => {
    const v = o[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw wrong(key, 'string');
    return v;
  };
  const flag = (key: string): boolean => {
    const v = o[key];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw wrong(key, 'bool');
    return v;
  };
  const integer = (key: string, want: string): number => {
    const v = o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw wrong(key, want);
    return v;
  };
  const tracerConfig = o.tracerConfig;
  const reexec = integer('reexec', 'uint64');
  if (reexec < 0) throw wrong('reexec', 'uint64');
  return {
    tracer: text('tracer'),
    timeout: text('timeout'),
    reexec: BigInt(reexec),
    disableStack: flag('disableStack'),
    disableStorage: flag('disableStorage'),
    debug: flag('debug'),
    limit: integer('limit', 'int32'),
    enableMemory: flag('enableMemory'),
    enableReturnData: flag('enableReturnData'),
    // geth clients send an object; Ethermint's field is a JSON string: both are taken.
    tracerJsonConfig: tracerConfig === undefined || tracerConfig === null ? '' : typeof tracerConfig === 'string' ? tracerConfig : JSON.stringify(tracerConfig),
  };
}

/** The evm query's status text without the ABCI wrapping ("rpc error: code = … desc = …: unknown request"). */
function queryError(err: unknown): unknown {
  if (!(err instanceof EthRpcError)) return err;
  const match = /^rpc error: code = \w+ desc = ([\s\S]*?)(?:: (?:unknown request|invalid request))?$/.exec(err.message);
  return match === null ? err : new EthRpcError(err.code, match[1]!);
}

function blockEnv(b: EthBackend, block: Block) {
  const { header } = block;
  return {
    blockNumber: BigInt(header.height),
    blockHash: b.blockHash(header.height).slice(2),
    blockTime: create(TimestampSchema, { seconds: BigInt(header.time.seconds), nanos: header.time.nanos }),
    proposerAddress: header.proposerAddress,
  };
}

const decode = (data: Uint8Array): unknown => JSON.parse(Buffer.from(data).toString('utf8'));

export function debugMethods(b: EthBackend, gasCap: bigint): Record<string, Handler> {
  const q = () => import('../../gen/ethermint/evm/v1/query_pb.js');

  const traceBlock = async (block: Block, config: TraceConfigInit | undefined): Promise<unknown> => {
    const height = block.header.height;
    const txs = await b.ethTxs(block);
    if (txs.length === 0) return [];
    const { QueryTraceBlockRequestSchema, QueryTraceBlockResponseSchema } = await q();
    const request = { txs: txs.map((t) => t.msg), traceConfig: config, chainId: BigInt(await b.chainId()), ...blockEnv(b, block) };
    try {
      const response = await b.query('/ethermint.evm.v1.Query/TraceBlock', QueryTraceBlockRequestSchema, request, QueryTraceBlockResponseSchema, Math.max(1, height - 1));
      return decode(response.data);
    } catch (err) {
      throw queryError(err);
    }
  };

  return {
    debug_traceTransaction: async (p) => {
      const hash = p[0];
      if (typeof hash !== 'string') throw new EthRpcError(-32602, 'invalid argument 0: hex string expected');
      const config = traceConfigFromJson(p[1], 1);
      const found = await b.findTx(hash);
      if (found === undefined) throw new EthRpcError(-32000, `GetTxByEthHash ${hash.toLowerCase()}: ethereum tx not found`);
      const { block, tx } = found;
      if (block.header.height === 0) throw new EthRpcError(-32000, 'genesis is not traceable');
      const all = await b.ethTxs(block);
      const { QueryTraceTxRequestSchema, QueryTraceTxResponseSchema } = await q();
      const request = { msg: tx.msg, predecessors: all.slice(0, tx.index).map((t) => t.msg), traceConfig: config, chainId: BigInt(await b.chainId()), ...blockEnv(b, block) };
      try {
        const response = await b.query('/ethermint.evm.v1.Query/TraceTx', QueryTraceTxRequestSchema, request, QueryTraceTxResponseSchema, Math.max(1, block.header.height - 1));
        return decode(response.data);
      } catch (err) {
        throw queryError(err);
      }
    },
    debug_traceBlockByNumber: async (p) => {
      const config = traceConfigFromJson(p[1], 1);
      const height = b.resolveHeight(p[0]);
      if (height === 0) throw new EthRpcError(-32000, 'genesis is not traceable');
      const block = b.env.blockStore.loadBlock(height);
      if (block === undefined) throw new EthRpcError(-32000, `block ${height} not found`);
      return traceBlock(block, config);
    },
    debug_traceBlockByHash: async (p) => {
      const config = traceConfigFromJson(p[1], 1);
      const block = b.blockByHash(String(p[0]));
      if (block === undefined) throw new EthRpcError(-32000, 'block not found');
      return traceBlock(block, config);
    },
    debug_traceCall: async (p) => {
      const args = p[0];
      if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new EthRpcError(-32602, 'missing value for required argument 0');
      const height = b.resolveHeight(p[1]);
      const config = traceConfigFromJson(p[2], 2);
      const { QueryTraceCallRequestSchema, QueryTraceTxResponseSchema } = await q();
      const request = { args: new TextEncoder().encode(JSON.stringify(args)), gasCap, traceConfig: config };
      try {
        const response = await b.query('/ethermint.evm.v1.Query/TraceCall', QueryTraceCallRequestSchema, request, QueryTraceTxResponseSchema, height);
        return decode(response.data);
      } catch (err) {
        throw queryError(err);
      }
    },
  };
}

export { TraceConfigSchema };
