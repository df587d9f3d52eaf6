/**
 * EVM execution (loaded lazily, see lib.ts): a signed transaction's state transition after the
 * ante chain, and read-only calls, on @ethereumjs/evm over the StoreStateManager.
 *
 * Gas (Ethermint's ApplyMessage): used = intrinsic + execution − refund (capped at used/5 from
 * London, used/2 before), at least gas_limit × min_gas_multiplier; the unused gas is refunded to
 * the sender from the fee collector at the price the sender paid.
 */
import { create } from '@bufbuild/protobuf';
import type { Common } from '@ethereumjs/common';
import { createEVM, getActivePrecompiles, type EVM } from '@ethereumjs/evm';
import { Account, Address, MAX_INTEGER, bytesToHex, bytesToUnprefixedHex, createContractAddress, setLengthLeft } from '@ethereumjs/util';
import { toChecksumHex } from '../../../keyring/address.js';
import { LogSchema } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { MsgEthereumTxResponseSchema, type MsgEthereumTxResponse } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import type { Context } from '../shared/context.js';
import { newEvent } from '../shared/events.js';
import { checksumString } from '../shared/address.js';
import { commonFor, effectiveGasPrice, type EthTx } from './ethTx.js';
import { EVENT_TYPE_ETHEREUM_TX, EVENT_TYPE_TX_LOG, logJson, type CallArgs, type CallResult, type EvmKeeper } from './keeper.js';
import { FEE_COLLECTOR_NAME } from './keys.js';
import type { EvmParams } from './params.js';
import { StoreStateManager } from './stateManager.js';

const ZERO32 = new Uint8Array(32);

interface PooledEvm {
  evm: EVM;
  state: StoreStateManager;
  common: Common;
}

/**
 * Idle EVM instances per Common (creating one costs ~1.5 ms: the library rebuilds its gas tables
 * and opcode list). An instance serves one tx or call at a time — block execution and queries
 * interleave at awaits — and is reset (state bound to the new context, journal and transient
 * storage cleared) before each use.
 */
const idle = new Map<Common, PooledEvm[]>();
const POOL_LIMIT = 8;

async function acquireEvm(k: EvmKeeper, ctx: Context, params: EvmParams, common: Common = commonFor(k.chainId(ctx, params), k.hardfork(ctx, params), params.extraEips.map(Number))): Promise<PooledEvm> {
  const bound = ctx.with({ metered: false });
  const pooled = idle.get(common)?.pop();
  if (pooled !== undefined) {
    pooled.state.reset(bound, k.accounts, k.bank, params.evmDenom);
    pooled.evm.journal.cleanJournal();
    pooled.evm.transientStorage.clear();
    return pooled;
  }
  const state = new StoreStateManager(bound, k.accounts, k.bank, params.evmDenom);
  const evm = await createEVM({ common, stateManager: state });
  return { evm, state, common };
}

function releaseEvm(pooled: PooledEvm): void {
  let list = idle.get(pooled.common);
  if (list === undefined) {
    list = [];
    idle.set(pooled.common, list);
  }
  if (list.length < POOL_LIMIT) list.push(pooled);
}

export function blockOf(ctx: Context, baseFee: bigint | undefined) {
  const coinbase = new Address(ctx.header.proposerAddress.length === 20 ? ctx.header.proposerAddress : new Uint8Array(20));
  const maxGas = ctx.consensusParams?.block.maxGas ?? -1n;
  return {
    header: {
      number: BigInt(ctx.blockHeight),
      coinbase,
      timestamp: BigInt(Math.floor(ctx.blockTime.getTime() / 1000)),
      difficulty: 0n,
      prevRandao: ZERO32,
      gasLimit: maxGas > 0n ? maxGas : 0xffffffffffffn,
      baseFeePerGas: baseFee ?? 0n,
      getBlobGasPrice: () => 1n,
    },
  };
}

/** An access list in the hex form `warm` takes (what the tx's toJSON gives, without rendering the rest of it). */
function accessListOf(list: readonly (readonly [Uint8Array, readonly Uint8Array[]])[]): { address: string; storageKeys: string[] }[] {
  return list.map(([address, keys]) => ({ address: bytesToHex(setLengthLeft(address, 20)), storageKeys: keys.map((key) => bytesToHex(setLengthLeft(key, 32))) }));
}

/** Warms the sender, recipient, precompiles and access list (EIP-2929/2930, EIP-3651 coinbase). */
export function warm(evm: EVM, common: Common, caller: Address, to: Address | undefined, accessList: readonly { address: string; storageKeys: string[] }[], coinbase: Address): void {
  if (!common.isActivatedEIP(2929)) return;
  evm.journal.addAlwaysWarmAddress(caller.toString());
  if (to !== undefined) evm.journal.addAlwaysWarmAddress(to.toString());
  for (const address of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(address);
  if (common.isActivatedEIP(3651)) evm.journal.addAlwaysWarmAddress(coinbase.toString());
  for (const entry of accessList) {
    evm.journal.addAlwaysWarmAddress(entry.address);
    for (const key of entry.storageKeys) evm.journal.addAlwaysWarmSlot(entry.address, key);
  }
}

/**
 * Runs a signed transaction whose ante checks have passed (nonce already incremented, fee
 * charged). Emits ethereum_tx and tx_log events; a VM error is reported in the response, not
 * thrown (the tx is included, its fee paid, its state changes dropped).
 */
export async function applyTransaction(k: EvmKeeper, ctx: Context, tx: EthTx, sender: Uint8Array, cosmosTxHash: string): Promise<MsgEthereumTxResponse> {
  const params = k.getParams(ctx);
  const baseFee = k.baseFee(ctx, params);
  const price = effectiveGasPrice(tx, baseFee);
  const common = commonFor(k.chainId(ctx, params), k.hardfork(ctx, params), params.extraEips.map(Number));
  const transferred = plainTransfers ? await plainTransfer(k, ctx, tx, sender, params, common) : undefined;
  if (transferred !== undefined) {
    plainTransferCount.count++;
    return settle(k, ctx, tx, sender, cosmosTxHash, params, price, common, tx.getIntrinsicGas(), transferred);
  }
  const pooled = await acquireEvm(k, ctx, params, common);
  try {
    return await runTransaction(k, ctx, tx, sender, cosmosTxHash, params, baseFee, price, pooled);
  } finally {
    releaseEvm(pooled);
  }
}

/** What a run of the EVM gives back that the settlement of a tx uses (the library's ExecResult). */
interface ExecOutcome {
  executionGasUsed: bigint;
  gasRefund?: bigint;
  exceptionError?: { error: string };
  logs?: [Uint8Array, Uint8Array[], Uint8Array][];
  returnValue: Uint8Array;
}

let plainTransfers = true;
/** How many txs took the plain-transfer path (tests). */
export const plainTransferCount = { count: 0 };

/** Tests: turn the plain-transfer path off (every tx through the EVM) or on again. */
export function setPlainTransfers(enabled: boolean): void {
  plainTransfers = enabled;
}

/**
 * EIPs under which a call to an address without code does more than move the value (access
 * witnesses, new-account state gas, transfer logs, block access lists): with any of them active
 * the EVM runs every tx.
 */
const TRANSFER_CHANGING_EIPS = [2780, 6800, 7708, 7864, 7928, 8037];
/** Per Common: undefined when its transfers do more, else its precompiles' addresses (unprefixed hex, as the EVM keys them). */
const plainTransferForks = new WeakMap<Common, { precompiles: ReadonlySet<string> } | undefined>();

function plainTransferFork(common: Common): { precompiles: ReadonlySet<string> } | undefined {
  if (plainTransferForks.has(common)) return plainTransferForks.get(common);
  // The EVM's own table (createEVM builds its precompiles with the same call, no custom ones).
  const fork = TRANSFER_CHANGING_EIPS.some((eip) => common.isActivatedEIP(eip)) ? undefined : { precompiles: new Set(getActivePrecompiles(common).keys()) };
  plainTransferForks.set(common, fork);
  return fork;
}

/**
 * A value transfer to an address with no code that is not a precompile, done without the
 * interpreter: the same state manager calls, in the same order, that the library's runCall makes
 * on this path (sender read, balance reduced and written, recipient read, balance added and
 * written), into the tx's context instead of a checkpoint branch that would be written into it
 * on success. The library then finds no code and exits with no execution gas, no refund, no logs
 * and an empty return value, which is what this returns. Undefined (nothing written) when the
 * library would do anything else — a contract creation, a tx with data (left to the EVM: nearly
 * always a contract call, whose code would otherwise be read twice), a precompile, code at the recipient, a
 * sender short of the value, a recipient balance overflowing 2^256 − 1, a fork whose transfers
 * do more, or a Common no EVM was created for yet — and the EVM runs the tx.
 */
async function plainTransfer(k: EvmKeeper, ctx: Context, tx: EthTx, sender: Uint8Array, params: EvmParams, common: Common): Promise<ExecOutcome | undefined> {
  const to = tx.to;
  // A call with data is almost always to a contract: the code read here would be done twice.
  if (to === undefined || tx.data.length > 0) return undefined;
  const fork = plainTransferFork(common);
  if (fork === undefined || fork.precompiles.has(bytesToUnprefixedHex(to.bytes))) return undefined;
  const bound = ctx.with({ metered: false });
  const state = new StoreStateManager(bound, k.accounts, k.bank, params.evmDenom);
  if ((await state.getCode(to)).length > 0) return undefined;
  const caller = new Address(sender);
  const value = tx.value;
  const from = (await state.getAccount(caller)) ?? new Account();
  if (from.balance < value) return undefined;
  const self = to.equals(caller);
  const recipientBefore = self ? from.balance - value : k.bank.getBalance(bound, to.bytes, params.evmDenom);
  if (recipientBefore + value > MAX_INTEGER) return undefined;
  from.balance -= value;
  await state.putAccount(caller, from);
  const recipient = (await state.getAccount(to)) ?? new Account();
  recipient.balance += value;
  await state.putAccount(to, recipient);
  return { executionGasUsed: 0n, gasRefund: 0n, returnValue: new Uint8Array(0) };
}

async function runTransaction(
  k: EvmKeeper,
  ctx: Context,
  tx: EthTx,
  sender: Uint8Array,
  cosmosTxHash: string,
  params: EvmParams,
  baseFee: bigint | undefined,
  price: bigint,
  { evm, common }: PooledEvm,
): Promise<MsgEthereumTxResponse> {
  const caller = new Address(sender);
  const block = blockOf(ctx, baseFee);
  const accessList = 'accessList' in tx ? accessListOf(tx.accessList) : [];
  warm(evm, common, caller, tx.to, accessList, block.header.coinbase);
  const intrinsic = tx.getIntrinsicGas();
  const result = await evm.runCall({
    caller,
    origin: caller,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit - intrinsic,
    gasPrice: price,
    block,
    // The ante chain has incremented the nonce already (the create address uses nonce − 1).
    skipNonceIncrement: true,
  });
  return settle(k, ctx, tx, sender, cosmosTxHash, params, price, common, intrinsic, result.execResult);
}

/** Gas used, the refund of the unused gas, the tx's events and its response. */
function settle(
  k: EvmKeeper,
  ctx: Context,
  tx: EthTx,
  sender: Uint8Array,
  cosmosTxHash: string,
  params: EvmParams,
  price: bigint,
  common: Common,
  intrinsic: bigint,
  exec: ExecOutcome,
): MsgEthereumTxResponse {
  const failed = exec.exceptionError !== undefined;
  let used = intrinsic + exec.executionGasUsed;
  if (!failed) {
    const quotient = common.gteHardfork('london') ? 5n : 2n;
    const refund = exec.gasRefund ?? 0n;
    used -= refund < used / quotient ? refund : used / quotient;
  }
  const multiplier = k.feeMarketKeeper?.getMinGasMultiplier(ctx) ?? { num: 0n, den: 1n };
  const minimum = (tx.gasLimit * multiplier.num) / multiplier.den;
  if (used < minimum) used = minimum;
  if (used > tx.gasLimit) used = tx.gasLimit;

  // Refund the unused gas at the price paid (Ethermint RefundGas: from the fee collector).
  const leftover = (tx.gasLimit - used) * price;
  if (leftover > 0n) k.bank.sendCoinsFromModuleToAccount(ctx, FEE_COLLECTOR_NAME, sender, [{ denom: params.evmDenom, amount: leftover }]);
  ctx.gasMeter.consumeGas(Number(used), 'evm');

  const txHash = bytesToHex(tx.hash());
  const logs = failed
    ? []
    : (exec.logs ?? []).map(([address, topics, data]) =>
        create(LogSchema, { address: checksumString(address), topics: topics.map((t) => bytesToHex(t)), data, blockNumber: BigInt(ctx.blockHeight), txHash }),
      );
  const attributes: [string, string][] = [
    ['amount', tx.value.toString()],
    ['ethereumTxHash', txHash],
    ['txHash', cosmosTxHash],
    ['txGasUsed', used.toString()],
  ];
  if (tx.to !== undefined) attributes.push(['recipient', checksumString(tx.to.bytes)]);
  if (failed) attributes.push(['ethereumTxFailed', exec.exceptionError!.error]);
  ctx.events.emit(newEvent(EVENT_TYPE_ETHEREUM_TX, ...attributes));
  if (logs.length > 0) {
    k.addToBlockBloom(ctx, exec.logs ?? []);
    ctx.events.emit(newEvent(EVENT_TYPE_TX_LOG, ...logs.map((log): [string, string] => ['txLog', JSON.stringify(logJson(log))])));
  }
  ctx.events.emit(newEvent('message', ['module', 'evm'], ['sender', bytesToHex(sender)], ['txType', String(tx.type)]));
  return create(MsgEthereumTxResponseSchema, {
    hash: txHash,
    logs,
    ret: exec.returnValue,
    vmError: failed ? exec.exceptionError!.error : '',
    gasUsed: used,
  });
}

/** A call on a throw-away branch of `ctx` (eth_call / eth_estimateGas); nothing is written. */
export async function call(k: EvmKeeper, ctx: Context, args: CallArgs, gasCap: bigint): Promise<CallResult> {
  const branch = ctx.multiStore.branch();
  const callCtx = ctx.with({ multiStore: branch, metered: false });
  try {
    const params = k.getParams(callCtx);
    const baseFee = k.baseFee(callCtx, params);
    const pooled = await acquireEvm(k, callCtx, params);
    try {
      return await runCallArgs(callCtx, args, gasCap, baseFee, pooled);
    } finally {
      releaseEvm(pooled);
    }
  } finally {
    branch.discard();
  }
}

async function runCallArgs(callCtx: Context, args: CallArgs, gasCap: bigint, baseFee: bigint | undefined, { evm, common }: PooledEvm): Promise<CallResult> {
  {
    const caller = new Address(args.from ?? new Uint8Array(20));
    const to = args.to === undefined ? undefined : new Address(args.to);
    const block = blockOf(callCtx, baseFee);
    warm(evm, common, caller, to, [], block.header.coinbase);
    const data = args.data ?? new Uint8Array(0);
    let intrinsic = 21000n;
    for (const byte of data) intrinsic += byte === 0 ? 4n : 16n;
    if (to === undefined) {
      intrinsic += 32000n;
      if (common.isActivatedEIP(3860)) intrinsic += 2n * BigInt(Math.ceil(data.length / 32));
    }
    const gas = args.gas === undefined || args.gas === 0n || args.gas > gasCap ? gasCap : args.gas;
    if (gas < intrinsic) return { ret: new Uint8Array(0), vmError: `intrinsic gas too low: have ${gas}, want ${intrinsic}`, gasUsed: gas, logs: [] };
    // Calls are not charged: the sender's nonce and balance only matter for value and CREATE addresses.
    const account = await evm.stateManager.getAccount(caller);
    const value = args.value ?? 0n;
    if (value > (account?.balance ?? 0n)) return { ret: new Uint8Array(0), vmError: 'insufficient funds for transfer', gasUsed: intrinsic, logs: [] };
    const result = await evm.runCall({ caller, origin: caller, to, value, data, gasLimit: gas - intrinsic, gasPrice: args.gasPrice ?? 0n, block });
    const exec = result.execResult;
    let used = intrinsic + exec.executionGasUsed;
    const failed = exec.exceptionError !== undefined;
    if (!failed) {
      const refund = exec.gasRefund ?? 0n;
      used -= refund < used / 5n ? refund : used / 5n;
    }
    return {
      ret: exec.returnValue,
      vmError: failed ? exec.exceptionError!.error : '',
      gasUsed: used,
      logs: (exec.logs ?? []).map(([address, topics, logData]) => create(LogSchema, { address: toChecksumHex(address), topics: topics.map((t) => bytesToHex(t)), data: logData })),
      contractAddress: to === undefined ? createContractAddress(caller, account?.nonce ?? 0n).toString() : undefined,
    };
  }
}

/**
 * A call a module makes in the EVM on its own authority (Evmos' CallEVMWithData with commit):
 * from `from` (no signature, no fee, not metered on the tx's gas meter), up to `gasCap` gas, on a
 * branch of `ctx` written back only when the call succeeds. A contract creation (`to` undefined)
 * increments the caller's nonce (the new address comes from the nonce before); a call does not.
 */
export async function moduleCall(k: EvmKeeper, ctx: Context, from: Uint8Array, to: Uint8Array | undefined, data: Uint8Array, gasCap: bigint): Promise<CallResult> {
  const branch = ctx.multiStore.branch();
  const callCtx = ctx.with({ multiStore: branch, metered: false });
  let ok = false;
  try {
    const params = k.getParams(callCtx);
    const baseFee = k.baseFee(callCtx, params);
    const pooled = await acquireEvm(k, callCtx, params);
    try {
      const { evm, common } = pooled;
      const caller = new Address(from);
      const target = to === undefined ? undefined : new Address(to);
      const block = blockOf(callCtx, baseFee);
      warm(evm, common, caller, target, [], block.header.coinbase);
      const nonce = (await evm.stateManager.getAccount(caller))?.nonce ?? 0n;
      const result = await evm.runCall({ caller, origin: caller, to: target, value: 0n, data, gasLimit: gasCap, gasPrice: 0n, block, skipNonceIncrement: target !== undefined });
      const exec = result.execResult;
      const failed = exec.exceptionError !== undefined;
      ok = !failed;
      return {
        ret: exec.returnValue,
        vmError: failed ? exec.exceptionError!.error : '',
        gasUsed: exec.executionGasUsed,
        logs: failed ? [] : (exec.logs ?? []).map(([address, topics, logData]) => create(LogSchema, { address: toChecksumHex(address), topics: topics.map((t) => bytesToHex(t)), data: logData })),
        contractAddress: target === undefined ? createContractAddress(caller, nonce).toString() : undefined,
      };
    } finally {
      releaseEvm(pooled);
    }
  } finally {
    if (ok) branch.write();
    else branch.discard();
  }
}
