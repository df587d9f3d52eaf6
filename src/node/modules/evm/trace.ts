/**
 * Tracing (loaded lazily with the EVM, see lib.ts): trace_tx / trace_block / debug_traceCall.
 *
 * As Ethermint's TraceTx: on a throw-away branch of the state before the block (the query runs
 * at block_number − 1) with a header carrying the block's height, time, proposer and chain id and
 * the base fee the fee market gives that block, the earlier Ethereum messages of the block are
 * replayed (no ante: nonce +1, no fee charged, effects kept), then the target runs with the
 * tracer. Nothing is written. trace_block runs every message with the tracer, each seeing the
 * effects of the ones before it.
 *
 * Tracers: the struct logger (no name), callTracer, prestateTracer, and any other name as
 * JavaScript (jsTracer.ts / jsSandbox.ts: geth's JS tracer API in a node:vm sandbox). The trace
 * config's timeout (Go duration, default 5 s) bounds each traced message: the EVM is checked every
 * 256 steps, a JS tracer's own loops and calls by its instrumented ticks; either ends the trace
 * with "execution timeout".
 *
 * Trace EVMs come from their own pool (not execution's): a timed-out trace leaves its journal
 * half-open and is dropped, and the tracer's listeners must not reach block execution.
 */
import { parseGoDurationNanos } from '../../../util/goDuration.js';
import { createEVM, type EVM } from '@ethereumjs/evm';
import type { Common } from '@ethereumjs/common';
import { Address, createContractAddress } from '@ethereumjs/util';
import type { TraceConfig } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import type { MsgEthereumTx } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import type { Context } from '../shared/context.js';
import { grpcError, isGrpcError } from '../shared/errors.js';
import { commonFor, effectiveGasPrice, recoverSender, txFromMsg, type EthTx } from './ethTx.js';
import { blockOf, warm } from './exec.js';
import type { CallArgs, EvmKeeper } from './keeper.js';
import { hardforkAt, isLondon } from './params.js';
import { StoreStateManager } from './stateManager.js';
import { CallTracer, PrestateTracer, StructLogger, attachTracer, gethError, type EvmTracer, type TraceOutcome, type TraceTxInfo } from './tracers.js';
import { JsTracer, JsTracerError, TracerCompileError } from './jsTracer.js';
import { NAMED_JS_TRACERS } from './namedJsTracers.js';

/** geth's and Ethermint's default trace timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5000;

/** The block a trace runs in. chainId 0: from the context's chain id. */
export interface TraceBlockEnv {
  height: number;
  time: Date;
  proposer: Uint8Array;
  blockHash: Uint8Array;
  chainId: bigint;
}

export type TraceBlockItem = { result: unknown } | { error: string };

class TraceTimeout extends Error {
  constructor() {
    super('execution timeout');
  }
}

/** Go's time.ParseDuration, in milliseconds ("5s", "1m30s", "300ms", "1.5h"). */
export function parseGoDuration(text: string): number {
  const nanos = parseGoDurationNanos(text);
  if (nanos === undefined) throw grpcError('InvalidArgument', `timeout value: time: invalid duration ${JSON.stringify(text)}`);
  return Number(nanos) / 1e6;
}

interface Prepared {
  make: (run: TraceRun) => EvmTracer;
  timeoutMs: number;
}

/** Checks a trace config and returns the tracer factory (errors as Ethermint's). */
export function prepareTrace(config: TraceConfig | undefined): Prepared {
  if (config !== undefined && config.limit < 0) throw grpcError('InvalidArgument', `output limit cannot be negative, got ${config.limit}`);
  const timeoutMs = config === undefined || config.timeout === '' ? DEFAULT_TRACE_TIMEOUT_MS : parseGoDuration(config.timeout);
  let tracerConfig: Record<string, unknown> = {};
  if (config !== undefined && config.tracerJsonConfig.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(config.tracerJsonConfig);
    } catch (err) {
      throw grpcError('InvalidArgument', `invalid tracer config: ${(err as Error).message}`);
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) tracerConfig = parsed as Record<string, unknown>;
    else if (parsed !== null) throw grpcError('InvalidArgument', 'invalid tracer config: want a JSON object');
  }
  const name = config?.tracer ?? '';
  const flag = (key: string): boolean => {
    const value = tracerConfig[key];
    if (value === undefined) return false;
    if (typeof value !== 'boolean') throw grpcError('Internal', `json: cannot unmarshal ${typeof value} into Go struct field .${key} of type bool`);
    return value;
  };
  switch (name) {
    case '': {
      const logConfig = {
        disableStack: config?.disableStack ?? false,
        disableStorage: config?.disableStorage ?? false,
        enableMemory: config?.enableMemory ?? false,
        enableReturnData: config?.enableReturnData ?? false,
        limit: config?.limit ?? 0,
      };
      return { make: () => new StructLogger(logConfig), timeoutMs };
    }
    case 'callTracer': {
      const callConfig = { onlyTopCall: flag('onlyTopCall'), withLog: flag('withLog') };
      return { make: (run) => new CallTracer(callConfig, (address) => run.state.peekBalance(address)), timeoutMs };
    }
    case 'prestateTracer': {
      const prestateConfig = { diffMode: flag('diffMode') };
      return { make: () => new PrestateTracer(prestateConfig), timeoutMs };
    }
    default: {
      // geth's other named tracers (namedJsTracers.ts), then any other name as JavaScript, as
      // geth 1.10 (Ethermint v0.22) does: source that
      // does not compile, evaluate to a tracer object or set up — an unknown name included —
      // is "tracer not found" (geth's tracers.New folds every lookup's error into that text).
      const jsonConfig = config?.tracerJsonConfig.trim() ?? '';
      return {
        make: (run) => {
          try {
            return new JsTracer(Object.hasOwn(NAMED_JS_TRACERS, name) ? NAMED_JS_TRACERS[name]! : name, jsonConfig, Date.now() + timeoutMs, {
              state: run.state,
              isPrecompile: (addressHex) => run.evm.precompiles.has(addressHex),
            });
          } catch (err) {
            if (err instanceof TracerCompileError) throw grpcError('Internal', 'tracer not found');
            throw err;
          }
        },
        timeoutMs,
      };
    }
  }
}

interface TraceRun {
  k: EvmKeeper;
  ctx: Context;
  evm: EVM;
  state: StoreStateManager;
  common: Common;
  baseFee: bigint | undefined;
  /** The traced block's hash (undefined for a call). */
  blockHash: Uint8Array | undefined;
}

/**
 * Idle trace EVMs per Common (creating one costs ~1.5 ms). Kept apart from execution's pool so a
 * tracer's listeners can never reach block execution; an EVM whose run threw (a timeout leaves
 * its journal half-open) is not returned. Listeners are detached after every run.
 */
const idle = new Map<Common, { evm: EVM; state: StoreStateManager }[]>();
const POOL_LIMIT = 4;

async function openRun(k: EvmKeeper, ctx: Context, env: TraceBlockEnv | undefined, config: TraceConfig | undefined): Promise<{ run: TraceRun; discard: (reuse: boolean) => void }> {
  const branch = ctx.multiStore.branch();
  const header = env === undefined ? ctx.header : { ...ctx.header, height: env.height, time: env.time, proposerAddress: env.proposer, hash: env.blockHash };
  const traceCtx = ctx.with({ multiStore: branch, metered: false, header });
  const params = k.getParams(traceCtx);
  const chainConfig = config?.overrides ?? params.chainConfig;
  const height = BigInt(traceCtx.blockHeight);
  const chainId = env !== undefined && env.chainId !== 0n ? env.chainId : k.chainId(traceCtx);
  const common = commonFor(chainId, hardforkAt(chainConfig, height), params.extraEips.map(Number));
  // A traced block's base fee is what the fee market's BeginBlock derives from the parent state.
  const baseFee = !isLondon(chainConfig, height) ? undefined : env === undefined ? k.feeMarketKeeper?.getBaseFee(traceCtx) : k.feeMarketKeeper?.calculateBaseFee(traceCtx);
  let pooled = idle.get(common)?.pop();
  if (pooled === undefined) {
    const state = new StoreStateManager(traceCtx, k.accounts, k.bank, params.evmDenom);
    pooled = { evm: await createEVM({ common, stateManager: state }), state };
  }
  const entry = pooled;
  const run: TraceRun = { k, ctx: traceCtx, evm: entry.evm, state: entry.state, common, baseFee, blockHash: env?.blockHash };
  return {
    run,
    discard: (reuse: boolean) => {
      branch.discard();
      if (!reuse) return;
      let list = idle.get(common);
      if (list === undefined) {
        list = [];
        idle.set(common, list);
      }
      if (list.length < POOL_LIMIT) list.push(entry);
    },
  };
}

interface Message {
  caller: Uint8Array;
  to: Uint8Array | undefined;
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  gasPrice: bigint;
  intrinsic: bigint;
  accessList: readonly { address: string; storageKeys: string[] }[];
  /** A signed transaction (the fee market's minimum gas applies), not a call. */
  isTx: boolean;
  /** A tx of a block: its hash and index among the block's Ethereum txs. */
  txHash?: Uint8Array;
  txIndex?: number;
}

function txMessage(run: TraceRun, tx: EthTx, sender: Uint8Array, txIndex?: number): Message {
  return {
    txHash: txIndex === undefined ? undefined : tx.hash(),
    txIndex,
    caller: sender,
    to: tx.to?.bytes,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit,
    gasPrice: effectiveGasPrice(tx, run.baseFee),
    intrinsic: tx.getIntrinsicGas(),
    accessList: 'accessList' in tx ? (tx.toJSON().accessList ?? []) : [],
    isTx: true,
  };
}

/**
 * Runs one message on `ctx` (a branch the caller writes or drops) with an optional tracer.
 * Returns the tracer's result, or undefined without a tracer.
 */
async function runMessage(run: TraceRun, ctx: Context, message: Message, tracer: EvmTracer | undefined, timeoutMs: number): Promise<unknown> {
  const { evm, state, common, k } = run;
  const params = k.getParams(ctx);
  state.reset(ctx, k.accounts, k.bank, params.evmDenom);
  evm.journal.cleanJournal();
  evm.transientStorage.clear();
  const caller = new Address(message.caller);
  const to = message.to === undefined ? undefined : new Address(message.to);
  const block = blockOf(ctx, run.baseFee);
  warm(evm, common, caller, to, message.accessList, block.header.coinbase);
  if (message.gasLimit < message.intrinsic) throw grpcError('Internal', `intrinsic gas too low: have ${message.gasLimit}, want ${message.intrinsic}`);
  const nonce = (await state.getAccount(caller))?.nonce ?? 0n;
  const created = to === undefined ? createContractAddress(caller, nonce) : undefined;
  const deadline = Date.now() + timeoutMs;
  let steps = 0;
  const detach =
    tracer === undefined
      ? undefined
      : attachTracer(evm, tracer, () => {
          if ((++steps & 255) === 0 && Date.now() > deadline) throw new TraceTimeout();
        });
  let result;
  try {
    if (tracer !== undefined && Date.now() > deadline) throw new TraceTimeout();
    result = await evm.runCall({
      caller,
      origin: caller,
      to,
      value: message.value,
      data: message.data,
      gasLimit: message.gasLimit - message.intrinsic,
      gasPrice: message.gasPrice,
      block,
      // The nonce goes up as the ante chain (a call too, as geth's state transition).
      skipNonceIncrement: false,
    });
  } catch (err) {
    if (err instanceof TraceTimeout) throw grpcError('Internal', 'execution timeout');
    throw grpcError('Internal', (err as Error).message);
  } finally {
    detach?.();
  }
  if (tracer === undefined) return undefined;
  const exec = result.execResult;
  const failed = exec.exceptionError !== undefined;
  let used = message.intrinsic + exec.executionGasUsed;
  if (!failed) {
    const quotient = common.gteHardfork('london') ? 5n : 2n;
    const refund = exec.gasRefund ?? 0n;
    used -= refund < used / quotient ? refund : used / quotient;
  }
  if (message.isTx) {
    const multiplier = k.feeMarketKeeper?.getMinGasMultiplier(ctx) ?? { num: 0n, den: 1n };
    const minimum = (message.gasLimit * multiplier.num) / multiplier.den;
    if (used < minimum) used = minimum;
  }
  if (used > message.gasLimit) used = message.gasLimit;
  const info: TraceTxInfo = {
    from: message.caller,
    to: result.createdAddress?.bytes ?? message.to ?? created!.bytes,
    create: created !== undefined,
    value: message.value,
    gasLimit: message.gasLimit,
    input: message.data,
    coinbase: block.header.coinbase.bytes,
    intrinsicGas: message.intrinsic,
    gasPrice: message.gasPrice,
    blockNumber: BigInt(ctx.blockHeight),
    blockHash: run.blockHash,
    txHash: message.txHash,
    txIndex: message.txIndex,
  };
  const outcome: TraceOutcome = { gasUsed: used, error: failed ? gethError(exec.exceptionError!.error) : undefined, returnValue: exec.returnValue };
  return { info, outcome };
}

/** Runs a message with the tracer on a child branch of the run's context; `keep` writes it. */
async function traced(run: TraceRun, message: Message, prepared: Prepared, keep: boolean): Promise<unknown> {
  const branch = run.ctx.multiStore.branch();
  const txCtx = run.ctx.with({ multiStore: branch });
  try {
    const tracer = prepared.make(run);
    const ran = (await runMessage(run, txCtx, message, tracer, prepared.timeoutMs)) as { info: TraceTxInfo; outcome: TraceOutcome };
    let result: unknown;
    try {
      result = tracer.result(ran.info, ran.outcome, { keeper: run.k, before: run.ctx, after: txCtx });
    } catch (err) {
      if (err instanceof JsTracerError) throw grpcError('Internal', err.message);
      throw err;
    }
    if (keep) branch.write();
    return result;
  } finally {
    if (!keep) branch.discard();
  }
}

function senderOf(tx: EthTx): Uint8Array {
  try {
    return recoverSender(tx);
  } catch (err) {
    throw grpcError('Internal', (err as Error).message);
  }
}

/** trace_tx: the predecessors replayed, then the message traced. */
export async function traceTx(k: EvmKeeper, ctx: Context, env: TraceBlockEnv, msg: MsgEthereumTx, predecessors: readonly MsgEthereumTx[], config: TraceConfig | undefined): Promise<unknown> {
  const prepared = prepareTrace(config);
  const { run, discard } = await openRun(k, ctx, env, config);
  let ok = false;
  try {
    for (const previous of predecessors) {
      // As Ethermint: a predecessor that does not decode or run is skipped.
      try {
        const tx = txFromMsg(previous, run.common);
        const branch = run.ctx.multiStore.branch();
        await runMessage(run, run.ctx.with({ multiStore: branch }), txMessage(run, tx, recoverSender(tx)), undefined, prepared.timeoutMs);
        branch.write();
      } catch {
        continue;
      }
    }
    let tx: EthTx;
    try {
      tx = txFromMsg(msg, run.common);
    } catch (err) {
      throw grpcError('Internal', (err as Error).message);
    }
    const result = await traced(run, txMessage(run, tx, senderOf(tx), predecessors.length), prepared, false);
    ok = true;
    return result;
  } finally {
    discard(ok);
  }
}

/** trace_block: every message traced in order, each seeing the ones before it. */
export async function traceBlock(k: EvmKeeper, ctx: Context, env: TraceBlockEnv, txs: readonly MsgEthereumTx[], config: TraceConfig | undefined): Promise<TraceBlockItem[]> {
  const prepared = prepareTrace(config);
  const { run, discard } = await openRun(k, ctx, env, config);
  let ok = true;
  try {
    const out: TraceBlockItem[] = [];
    for (const [index, msg] of txs.entries()) {
      try {
        const tx = txFromMsg(msg, run.common);
        out.push({ result: await traced(run, txMessage(run, tx, senderOf(tx), index), prepared, true) });
      } catch (err) {
        ok = false;
        out.push({ error: isGrpcError(err) ? err.description : (err as Error).message });
      }
    }
    return out;
  } finally {
    discard(ok);
  }
}

/** debug_traceCall: a call (no signature, no fee) traced on the state of `ctx`. */
export async function traceCall(k: EvmKeeper, ctx: Context, args: CallArgs, gasCap: bigint, config: TraceConfig | undefined): Promise<unknown> {
  const prepared = prepareTrace(config);
  const { run, discard } = await openRun(k, ctx, undefined, config);
  let ok = false;
  try {
    const data = args.data ?? new Uint8Array(0);
    let intrinsic = 21000n;
    for (const byte of data) intrinsic += byte === 0 ? 4n : 16n;
    if (args.to === undefined) {
      intrinsic += 32000n;
      if (run.common.isActivatedEIP(3860)) intrinsic += 2n * BigInt(Math.ceil(data.length / 32));
    }
    const gas = args.gas === undefined || args.gas === 0n || args.gas > gasCap ? gasCap : args.gas;
    const message: Message = {
      caller: args.from ?? new Uint8Array(20),
      to: args.to,
      value: args.value ?? 0n,
      data,
      gasLimit: gas,
      gasPrice: args.gasPrice ?? 0n,
      intrinsic,
      accessList: [],
      isTx: false,
    };
    const result = await traced(run, message, prepared, false);
    ok = true;
    return result;
  } finally {
    discard(ok);
  }
}
