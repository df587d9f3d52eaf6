/**
 * The EVM keeper: parameters, the chain id and fork, and execution — a signed transaction's
 * state transition after the ante chain (which recovered the sender, checked the nonce, charged
 * gas_limit × effective gas price and incremented the nonce), and read-only calls (eth_call,
 * eth_estimateGas).
 *
 * Gas (Ethermint's ApplyMessage): used = intrinsic + execution − refund (capped at used/5 from
 * London, used/2 before), at least gas_limit × min_gas_multiplier; the unused gas is refunded to
 * the sender from the fee collector at the price the sender paid.
 */
import type { Log, TraceConfig } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import type { MsgEthereumTx, MsgEthereumTxResponse } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import type { Context } from '../shared/context.js';
import type { EthTx } from './ethTx.js';
import type { EvmAccountKeeper, EvmBankKeeper, EvmFeeMarketKeeper } from './expectedKeepers.js';
import { logsBloom } from './bloom.js';
import { BlockBloom, Code, Params, Storage } from './keys.js';
import { newEvent } from '../shared/events.js';
import { loadEvmLibraries } from './lib.js';
import type { TraceBlockEnv, TraceBlockItem } from './trace.js';
import { defaultEvmParams, eip155ChainId, hardforkAt, isLondon, type EvmParams } from './params.js';

export const EVENT_TYPE_ETHEREUM_TX = 'ethereum_tx';
export const EVENT_TYPE_TX_LOG = 'tx_log';
export const EVENT_TYPE_BLOCK_BLOOM = 'block_bloom';
export const ATTRIBUTE_KEY_BLOOM = 'bloom';

/** A call without a signature (eth_call, eth_estimateGas). */
export interface CallArgs {
  from?: Uint8Array;
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  value?: bigint;
  data?: Uint8Array;
}

export interface CallResult {
  ret: Uint8Array;
  vmError: string;
  gasUsed: bigint;
  logs: Log[];
  contractAddress?: string;
}

/** The gas cap of a module's own EVM calls (Ethermint's DefaultGasCap, 25,000,000). */
export const MODULE_CALL_GAS_CAP = 25_000_000n;

export class EvmKeeper {
  private feeMarket: EvmFeeMarketKeeper | undefined;

  constructor(
    readonly accounts: EvmAccountKeeper,
    readonly bank: EvmBankKeeper,
  ) {}

  /** The fee market is wired after creation (it is created after the EVM module). */
  setFeeMarket(feeMarket: EvmFeeMarketKeeper): void {
    this.feeMarket = feeMarket;
  }

  getParams(ctx: Context): EvmParams {
    return Params.get(ctx) ?? defaultEvmParams();
  }

  setParams(ctx: Context, params: EvmParams): void {
    Params.set(ctx, params);
  }

  /** ORs a tx's logs into the block's bloom (unmetered: Ethermint keeps it in a transient store). */
  addToBlockBloom(ctx: Context, logs: Iterable<readonly [Uint8Array, readonly Uint8Array[], ...unknown[]]>): void {
    const unmetered = ctx.with({ metered: false });
    const stored = BlockBloom.get(unmetered);
    BlockBloom.set(unmetered, logsBloom(logs, stored === undefined ? undefined : stored.slice()));
  }

  /**
   * EndBlock (Ethermint x/evm EndBlock): the block's bloom leaves the store and goes out as the
   * `block_bloom` event (`bloom`: 0x-hex; Ethermint writes the raw bytes), which eth_getLogs uses
   * to rule blocks out. A block without logs has no bloom and no event.
   */
  endBlock(ctx: Context): void {
    const unmetered = ctx.with({ metered: false });
    const bloom = BlockBloom.get(unmetered);
    if (bloom === undefined) return;
    BlockBloom.remove(unmetered);
    ctx.events.emit(newEvent(EVENT_TYPE_BLOCK_BLOOM, [ATTRIBUTE_KEY_BLOOM, `0x${Buffer.from(bloom).toString('hex')}`]));
  }

  chainId(ctx: Context, params: EvmParams = this.getParams(ctx)): bigint {
    return eip155ChainId(ctx.chainId, params);
  }

  baseFee(ctx: Context, params: EvmParams = this.getParams(ctx)): bigint | undefined {
    if (!isLondon(params.chainConfig, BigInt(ctx.blockHeight))) return undefined;
    return this.feeMarket?.getBaseFee(ctx);
  }

  balance(ctx: Context, address: Uint8Array): bigint {
    return this.bank.getBalance(ctx, address, this.getParams(ctx).evmDenom);
  }

  code(ctx: Context, address: Uint8Array): Uint8Array {
    const account = this.accounts.getAccount(ctx, address);
    if (account === undefined || account.codeHash === '') return new Uint8Array(0);
    return Code.get(ctx, Buffer.from(account.codeHash.slice(2), 'hex')) ?? new Uint8Array(0);
  }

  storage(ctx: Context, address: Uint8Array, slot: Uint8Array): Uint8Array {
    const value = Storage.get(ctx, [address, slot]) ?? new Uint8Array(0);
    const out = new Uint8Array(32);
    out.set(value, 32 - value.length);
    return out;
  }

  hardfork(ctx: Context, params: EvmParams = this.getParams(ctx)): string {
    return hardforkAt(params.chainConfig, BigInt(ctx.blockHeight));
  }

  get feeMarketKeeper(): EvmFeeMarketKeeper | undefined {
    return this.feeMarket;
  }

  /**
   * Runs a signed transaction whose ante checks have passed (nonce already incremented, fee
   * charged). Emits ethereum_tx and tx_log events; a VM error is reported in the response, not
   * thrown (the tx is included, its fee paid, its state changes dropped).
   */
  async applyTransaction(ctx: Context, tx: EthTx, sender: Uint8Array, cosmosTxHash: string): Promise<MsgEthereumTxResponse> {
    return (await loadEvmLibraries()).applyTransaction(this, ctx, tx, sender, cosmosTxHash);
  }

  /** A call on a throw-away branch of `ctx` (eth_call / eth_estimateGas); nothing is written. */
  async call(ctx: Context, args: CallArgs, gasCap: bigint): Promise<CallResult> {
    return (await loadEvmLibraries()).call(this, ctx, args, gasCap);
  }

  /**
   * A call a module makes in the EVM from `from` (a deployment when `to` is undefined): no
   * signature, no fee, written to `ctx` only when it succeeds (see exec.ts moduleCall).
   */
  async moduleCall(ctx: Context, from: Uint8Array, to: Uint8Array | undefined, data: Uint8Array, gasCap: bigint = MODULE_CALL_GAS_CAP): Promise<CallResult> {
    return (await loadEvmLibraries()).moduleCall(this, ctx, from, to, data, gasCap);
  }

  /** trace_tx: the block's earlier messages replayed, then `msg` traced; nothing is written. */
  async traceTx(ctx: Context, env: TraceBlockEnv, msg: MsgEthereumTx, predecessors: readonly MsgEthereumTx[], config: TraceConfig | undefined): Promise<unknown> {
    return (await loadEvmLibraries()).traceTx(this, ctx, env, msg, predecessors, config);
  }

  /** trace_block: every message of a block traced in order; nothing is written. */
  async traceBlock(ctx: Context, env: TraceBlockEnv, txs: readonly MsgEthereumTx[], config: TraceConfig | undefined): Promise<TraceBlockItem[]> {
    return (await loadEvmLibraries()).traceBlock(this, ctx, env, txs, config);
  }

  /** debug_traceCall: a call traced on the state of `ctx`; nothing is written. */
  async traceCall(ctx: Context, args: CallArgs, gasCap: bigint, config: TraceConfig | undefined): Promise<unknown> {
    return (await loadEvmLibraries()).traceCall(this, ctx, args, gasCap, config);
  }

  /**
   * The least gas limit under which the call succeeds (binary search between the gas used and
   * the cap, as geth's and Ethermint's EstimateGas); `failure` when it fails at the cap.
   */
  async estimateGas(ctx: Context, args: CallArgs, gasCap: bigint): Promise<{ gas: bigint; failure?: CallResult }> {
    const top = args.gas !== undefined && args.gas > 0n && args.gas < gasCap ? args.gas : gasCap;
    const atCap = await this.call(ctx, { ...args, gas: top }, gasCap);
    if (atCap.vmError !== '') return { gas: 0n, failure: atCap };
    let lo = atCap.gasUsed - 1n;
    let hi = top;
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      const result = await this.call(ctx, { ...args, gas: mid }, gasCap);
      if (result.vmError === '') hi = mid;
      else lo = mid;
    }
    return { gas: hi };
  }
}

/** A log as Ethermint's tx_log event attribute and the JSON-RPC show it. */
export function logJson(log: Log): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: Buffer.from(log.data).toString('base64'),
    blockNumber: Number(log.blockNumber),
    transactionHash: log.txHash,
    transactionIndex: Number(log.txIndex),
    blockHash: log.blockHash,
    logIndex: Number(log.index),
    removed: log.removed,
  };
}
