/** ethermint.evm.v1.Query: accounts, balances, code, storage, params, eth_call, estimate_gas, trace_tx, trace_block, base fee. */
import { create } from '@bufbuild/protobuf';
import { bytesToHex } from './hex.js';
import {
  EstimateGasResponseSchema,
  Query,
  QueryAccountResponseSchema,
  QueryBalanceResponseSchema,
  QueryBaseFeeResponseSchema,
  QueryCodeResponseSchema,
  QueryCosmosAccountResponseSchema,
  QueryParamsResponseSchema,
  QueryStorageResponseSchema,
  QueryTraceBlockResponseSchema,
  QueryTraceTxResponseSchema,
  type QueryTraceTxRequest,
} from '../../../gen/ethermint/evm/v1/query_pb.js';
import { MsgEthereumTxResponseSchema } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { grpcError } from '../shared/errors.js';
import { accString } from '../shared/address.js';
import { EMPTY_CODE_HASH } from './keys.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { EvmKeeper } from './keeper.js';
import { parseCallArgs } from './callArgs.js';
import type { TraceBlockEnv } from './trace.js';
import type { Context } from '../shared/context.js';
import { timestampDate } from '@bufbuild/protobuf/wkt';

/** The traced block as the request names it (Ethermint: block_number below 1 counts as 1). */
function traceEnv(request: Pick<QueryTraceTxRequest, 'blockNumber' | 'blockTime' | 'blockHash' | 'proposerAddress' | 'chainId'>, ctx: Context): TraceBlockEnv {
  const hash = request.blockHash.replace(/^0x/, '');
  return {
    height: request.blockNumber < 1n ? 1 : Number(request.blockNumber),
    time: request.blockTime === undefined ? ctx.blockTime : timestampDate(request.blockTime),
    proposer: request.proposerAddress,
    blockHash: /^([0-9a-fA-F]{2})*$/.test(hash) ? new Uint8Array(Buffer.from(hash, 'hex')) : new Uint8Array(0),
    chainId: request.chainId,
  };
}

/** The Ethereum JSON-RPC's default gas cap (Ethermint's json-rpc gas-cap). */
export const DEFAULT_GAS_CAP = 25_000_000n;

export function hexAddress(text: string): Uint8Array {
  if (!/^(0x)?[0-9a-fA-F]{40}$/.test(text)) throw grpcError('InvalidArgument', `invalid address ${text}: invalid hex address`);
  return Buffer.from(text.replace(/^0x/, ''), 'hex');
}

function hexSlot(text: string): Uint8Array {
  const hex = text.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{0,64}$/.test(hex)) throw grpcError('InvalidArgument', `invalid storage key ${text}`);
  return Buffer.from(hex.padStart(64, '0'), 'hex');
}

export function evmQueryService(keeper: EvmKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    account: async (request, ctx) => {
      const address = hexAddress(request.address);
      const account = keeper.accounts.getAccount(ctx, address);
      return create(QueryAccountResponseSchema, {
        balance: keeper.balance(ctx, address).toString(),
        codeHash: account?.codeHash || EMPTY_CODE_HASH,
        nonce: account?.sequence ?? 0n,
      });
    },
    cosmosAccount: async (request, ctx) => {
      const address = hexAddress(request.address);
      const account = keeper.accounts.getAccount(ctx, address);
      return create(QueryCosmosAccountResponseSchema, { cosmosAddress: accString(address), sequence: account?.sequence ?? 0n, accountNumber: account?.accountNumber ?? 0n });
    },
    balance: async (request, ctx) => create(QueryBalanceResponseSchema, { balance: keeper.balance(ctx, hexAddress(request.address)).toString() }),
    storage: async (request, ctx) => create(QueryStorageResponseSchema, { value: bytesToHex(keeper.storage(ctx, hexAddress(request.address), hexSlot(request.key))) }),
    code: async (request, ctx) => create(QueryCodeResponseSchema, { code: keeper.code(ctx, hexAddress(request.address)) }),
    params: async (_request, ctx) => create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) }),
    baseFee: async (_request, ctx) => create(QueryBaseFeeResponseSchema, { baseFee: keeper.baseFee(ctx)?.toString() ?? '' }),
    ethCall: async (request, ctx) => {
      const args = parseCallArgs(request.args);
      const result = await keeper.call(ctx, args, request.gasCap === 0n ? DEFAULT_GAS_CAP : request.gasCap);
      return create(MsgEthereumTxResponseSchema, { ret: result.ret, vmError: result.vmError, gasUsed: result.gasUsed, logs: result.logs });
    },
    traceTx: async (request, ctx) => {
      if (request.msg === undefined) throw grpcError('InvalidArgument', 'empty request: msg is required');
      const result = await keeper.traceTx(ctx, traceEnv(request, ctx), request.msg, request.predecessors, request.traceConfig);
      return create(QueryTraceTxResponseSchema, { data: new Uint8Array(Buffer.from(JSON.stringify(result))) });
    },
    traceCall: async (request, ctx) => {
      const args = parseCallArgs(request.args);
      const result = await keeper.traceCall(ctx, args, request.gasCap === 0n ? DEFAULT_GAS_CAP : request.gasCap, request.traceConfig);
      return create(QueryTraceTxResponseSchema, { data: new Uint8Array(Buffer.from(JSON.stringify(result))) });
    },
    traceBlock: async (request, ctx) => {
      const results = await keeper.traceBlock(ctx, traceEnv(request, ctx), request.txs, request.traceConfig);
      return create(QueryTraceBlockResponseSchema, { data: new Uint8Array(Buffer.from(JSON.stringify(results))) });
    },
    estimateGas: async (request, ctx) => {
      const args = parseCallArgs(request.args);
      const estimate = await keeper.estimateGas(ctx, args, request.gasCap === 0n ? DEFAULT_GAS_CAP : request.gasCap);
      if (estimate.failure !== undefined) throw grpcError('Unknown', revertText(estimate.failure.vmError, estimate.failure.ret));
      return create(EstimateGasResponseSchema, { gas: estimate.gas });
    },
  });
}

/** geth's wording: "execution reverted" (+ ": <reason>" for Error(string)), else the VM error. */
export function revertText(vmError: string, ret: Uint8Array): string {
  if (vmError !== 'revert') return vmError;
  // Error(string) selector 0x08c379a0
  if (ret.length >= 68 && ret[0] === 0x08 && ret[1] === 0xc3 && ret[2] === 0x79 && ret[3] === 0xa0) {
    const length = Number(BigInt(bytesToHex(ret.subarray(36, 68))));
    const reason = Buffer.from(ret.subarray(68, 68 + length)).toString('utf8');
    return `execution reverted: ${reason}`;
  }
  return 'execution reverted';
}
