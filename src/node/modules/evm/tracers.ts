/**
 * Tracers for trace_tx / trace_block / debug_trace*: geth's struct logger (the default),
 * `callTracer` and `prestateTracer`, fed by @ethereumjs/evm's `step`, `beforeMessage` and
 * `afterMessage` events. Output shapes are geth's (struct logs as geth 1.10 / Ethermint v0.22,
 * call frames and prestate as geth 1.11+: revertReason, withLog, diffMode).
 *
 * Listeners take one argument, so the EVM calls them synchronously (a two-argument listener
 * makes it await a promise per step).
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import type { Context } from '../shared/context.js';
import { bytesToHex } from './hex.js';
import type { EvmKeeper } from './keeper.js';

/** What a tracer learns of the transaction around the EVM run. */
export interface TraceTxInfo {
  from: Uint8Array;
  /** The recipient, or the created contract's address. */
  to: Uint8Array;
  create: boolean;
  value: bigint;
  gasLimit: bigint;
  input: Uint8Array;
  coinbase: Uint8Array;
  /** For JavaScript tracers' ctx: intrinsic gas, gas price, block number, and for a tx of a
   * block its block hash, index and hash. */
  intrinsicGas?: bigint;
  gasPrice?: bigint;
  blockNumber?: bigint;
  blockHash?: Uint8Array;
  txHash?: Uint8Array;
  txIndex?: number;
}

export interface TraceOutcome {
  gasUsed: bigint;
  /** geth's error text, undefined on success. */
  error: string | undefined;
  returnValue: Uint8Array;
}

/** State views for the prestate tracer: before the tx and after it. */
export interface TraceStates {
  keeper: EvmKeeper;
  before: Context;
  after: Context;
}

export interface EvmTracer {
  onStep(step: InterpreterStep): void;
  onBeforeMessage(message: Message): void;
  onAfterMessage(result: EVMResult): void;
  result(info: TraceTxInfo, outcome: TraceOutcome, states: TraceStates): unknown;
}

export const TRACER_NAMES = ['callTracer', 'prestateTracer'] as const;

/** geth's texts for @ethereumjs's VM errors. */
const GETH_ERRORS: Record<string, string> = {
  revert: 'execution reverted',
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'value out of range': 'return data out of bounds',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
};

export function gethError(vmError: string): string {
  return GETH_ERRORS[vmError] ?? vmError;
}

/** The Error(string) reason of revert data, if it is one. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 68 || data[0] !== 0x08 || data[1] !== 0xc3 || data[2] !== 0x79 || data[3] !== 0xa0) return undefined;
  const offset = Number(BigInt(bytesToHex(data.subarray(4, 36))));
  if (offset + 36 > data.length) return undefined;
  const length = Number(BigInt(bytesToHex(data.subarray(4 + offset, 36 + offset))));
  if (36 + offset + length > data.length) return undefined;
  return Buffer.from(data.subarray(36 + offset, 36 + offset + length)).toString('utf8');
}

const quantity = (n: bigint | number): string => `0x${n.toString(16)}`;
const word = (n: bigint): string => n.toString(16).padStart(64, '0');
const lowerAddress = (bytes: Uint8Array): string => bytesToHex(bytes);

/** Bytes of memory [offset, offset+size), zero-padded past its end (LOG data before expansion). */
function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  const out = new Uint8Array(Number(size));
  if (offset < BigInt(memory.length)) out.set(memory.subarray(Number(offset), Math.min(memory.length, Number(offset + size))));
  return out;
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

// ---------------------------------------------------------------------------------------------
// The struct logger

export interface StructLoggerConfig {
  disableStack: boolean;
  disableStorage: boolean;
  enableMemory: boolean;
  enableReturnData: boolean;
  limit: number;
}

interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  memory?: string[];
  returnData?: string;
  storage?: Record<string, string>;
  refund?: number;
}

export class StructLogger implements EvmTracer {
  private readonly logs: StructLog[] = [];
  /** Per contract: the slots seen so far (geth keeps them across steps). */
  private readonly storage = new Map<string, Map<string, string>>();
  /** An SLOAD whose value is the top of the stack at the next step. */
  private pendingLoad: { log: StructLog; contract: Map<string, string>; key: string } | undefined;
  private returnData: Uint8Array = new Uint8Array(0);
  private readonly frames: number[] = [];

  constructor(private readonly config: StructLoggerConfig) {}

  onStep(step: InterpreterStep): void {
    if (this.pendingLoad !== undefined) {
      const { log, contract, key } = this.pendingLoad;
      this.pendingLoad = undefined;
      const value = step.stack[step.stack.length - 1];
      if (value !== undefined) {
        contract.set(key, word(value));
        log.storage = Object.fromEntries(contract);
      }
    }
    if (this.config.limit !== 0 && this.logs.length >= this.config.limit) return;
    const op = step.opcode.name;
    const log: StructLog = { pc: step.pc, op, gas: Number(step.gasLeft), gasCost: Number(step.opcode.dynamicFee ?? BigInt(step.opcode.fee)), depth: step.depth + 1 };
    if (!this.config.disableStack) log.stack = step.stack.map((v) => quantity(v));
    if (this.config.enableMemory) {
      const memory: string[] = [];
      for (let i = 0; i + 32 <= step.memory.length; i += 32) memory.push(Buffer.from(step.memory.subarray(i, i + 32)).toString('hex'));
      log.memory = memory;
    }
    if (this.config.enableReturnData && this.returnData.length > 0) log.returnData = bytesToHex(this.returnData);
    if (!this.config.disableStorage && (op === 'SLOAD' || op === 'SSTORE')) {
      const address = step.address.toString();
      let contract = this.storage.get(address);
      if (contract === undefined) {
        contract = new Map();
        this.storage.set(address, contract);
      }
      const n = step.stack.length;
      if (op === 'SLOAD' && n >= 1) {
        this.pendingLoad = { log, contract, key: word(step.stack[n - 1]!) };
        log.storage = Object.fromEntries(contract);
      } else if (op === 'SSTORE' && n >= 2) {
        contract.set(word(step.stack[n - 1]!), word(step.stack[n - 2]!));
        log.storage = Object.fromEntries(contract);
      }
    }
    if (step.gasRefund > 0n) log.refund = Number(step.gasRefund);
    this.logs.push(log);
  }

  onBeforeMessage(message: Message): void {
    this.frames.push(this.logs.length);
    // geth counts the gas handed to the new frame in the CALL / CREATE step's cost (the stipend
    // of a value transfer is a gift, not a cost).
    const last = this.logs[this.logs.length - 1];
    if (message.depth > 0 && last !== undefined && last.depth === message.depth && CALL_OPS.has(last.op)) {
      const stipend = message.value > 0n && (last.op === 'CALL' || last.op === 'CALLCODE') ? 2300n : 0n;
      last.gasCost += Number(message.gasLimit - stipend);
    }
  }

  onAfterMessage(result: EVMResult): void {
    const start = this.frames.pop() ?? 0;
    this.returnData = result.execResult.returnValue;
    const error = result.execResult.exceptionError?.error;
    // An exceptional halt (not a revert) is marked on the frame's last step.
    if (error !== undefined && error !== 'revert') {
      for (let i = this.logs.length - 1; i >= start; i--) {
        if (this.logs[i]!.depth === this.frames.length + 1) {
          this.logs[i]!.error ??= gethError(error);
          break;
        }
      }
    }
  }

  result(_info: TraceTxInfo, outcome: TraceOutcome): unknown {
    const failed = outcome.error !== undefined;
    const returnValue = failed && outcome.error !== 'execution reverted' ? '' : Buffer.from(outcome.returnValue).toString('hex');
    return { gas: Number(outcome.gasUsed), failed, returnValue, structLogs: this.logs };
  }
}

// ---------------------------------------------------------------------------------------------
// callTracer

export interface CallTracerConfig {
  onlyTopCall?: boolean;
  withLog?: boolean;
}

interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

interface CallFrame {
  type: string;
  from: string;
  gas: bigint;
  gasUsed: bigint;
  to?: string;
  input: Uint8Array;
  output?: Uint8Array;
  error?: string;
  revertReason?: string;
  calls: CallFrame[];
  logs: CallLog[];
  value?: bigint;
}

export class CallTracer implements EvmTracer {
  private readonly stack: CallFrame[] = [];
  private top: CallFrame | undefined;
  /** The CALL-family opcode last seen at each depth: the type of the frame it opens. */
  private readonly lastOp: string[] = [];
  /** Messages entered and not yet left. */
  private open = 0;

  constructor(
    private readonly config: CallTracerConfig,
    private readonly balanceOf: (address: Uint8Array) => bigint,
  ) {}

  onStep(step: InterpreterStep): void {
    const op = step.opcode.name;
    if (CALL_OPS.has(op)) this.lastOp[step.depth] = op;
    if (this.config.onlyTopCall === true && step.depth > 0) return;
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return;
    const n = step.stack.length;
    if (op === 'SELFDESTRUCT' && n >= 1 && this.config.onlyTopCall !== true) {
      const beneficiary = new Uint8Array(Buffer.from(word(step.stack[n - 1]!).slice(24), 'hex'));
      const value = this.balanceOf(step.address.bytes);
      frame.calls.push({ type: 'SELFDESTRUCT', from: step.address.toString(), to: lowerAddress(beneficiary), gas: 0n, gasUsed: 0n, input: new Uint8Array(0), calls: [], logs: [], value });
    } else if (this.config.withLog === true && op.startsWith('LOG') && op.length === 4) {
      const topicCount = Number(op[3]);
      if (n < 2 + topicCount) return;
      const topics: string[] = [];
      for (let i = 0; i < topicCount; i++) topics.push(`0x${word(step.stack[n - 3 - i]!)}`);
      const data = memorySlice(step.memory, step.stack[n - 1]!, step.stack[n - 2]!);
      frame.logs.push({ address: step.address.toString(), topics, data: bytesToHex(data), position: quantity(frame.calls.length) });
    }
  }

  onBeforeMessage(message: Message): void {
    this.open++;
    if (message.depth === 0) {
      const frame: CallFrame = {
        type: message.to === undefined ? 'CREATE' : 'CALL',
        from: message.caller.toString(),
        gas: message.gasLimit,
        gasUsed: 0n,
        to: message.to?.toString(),
        input: message.data,
        calls: [],
        logs: [],
        value: message.value,
      };
      this.top = frame;
      this.stack.push(frame);
      return;
    }
    if (this.config.onlyTopCall === true) return;
    const op = this.lastOp[message.depth - 1] ?? 'CALL';
    let from = message.caller.toString();
    let to = message.to?.toString();
    let value: bigint | undefined = message.value;
    if (op === 'DELEGATECALL') {
      from = message.to!.toString();
      to = message.codeAddress.toString();
    } else if (op === 'CALLCODE') {
      to = message.codeAddress.toString();
    } else if (op === 'STATICCALL') {
      value = undefined;
    }
    this.stack.push({ type: op, from, gas: message.gasLimit, gasUsed: 0n, to, input: message.data, calls: [], logs: [], value });
  }

  onAfterMessage(result: EVMResult): void {
    this.open--;
    if (this.config.onlyTopCall === true && this.open > 0) return;
    const frame = this.stack.pop();
    if (frame === undefined) return;
    const exec = result.execResult;
    frame.gasUsed = exec.executionGasUsed;
    if (result.createdAddress !== undefined) frame.to = result.createdAddress.toString();
    const error = exec.exceptionError?.error;
    if (error === undefined) {
      frame.output = exec.returnValue;
    } else {
      frame.error = gethError(error);
      if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined;
      if (error === 'revert' && exec.returnValue.length > 0) {
        frame.output = exec.returnValue;
        const reason = revertReason(exec.returnValue);
        if (reason !== undefined) frame.revertReason = reason;
      }
    }
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) parent.calls.push(frame);
  }

  result(info: TraceTxInfo, outcome: TraceOutcome): unknown {
    const top = this.top;
    if (top === undefined) throw new Error('incorrect number of top-level calls');
    // The top frame carries the transaction's gas limit and gas used (geth 1.11+).
    top.gas = info.gasLimit;
    top.gasUsed = outcome.gasUsed;
    if (top.type === 'CREATE' && outcome.error === undefined) top.to = lowerAddress(info.to);
    return frameJson(top, false);
  }
}

function frameJson(frame: CallFrame, parentFailed: boolean): Record<string, unknown> {
  const failed = parentFailed || frame.error !== undefined;
  const json: Record<string, unknown> = { type: frame.type, from: frame.from, gas: quantity(frame.gas), gasUsed: quantity(frame.gasUsed) };
  if (frame.to !== undefined) json.to = frame.to;
  json.input = bytesToHex(frame.input);
  if (frame.output !== undefined && frame.output.length > 0) json.output = bytesToHex(frame.output);
  if (frame.error !== undefined) json.error = frame.error;
  if (frame.revertReason !== undefined) json.revertReason = frame.revertReason;
  if (frame.calls.length > 0) json.calls = frame.calls.map((c) => frameJson(c, failed));
  // Logs of a failed frame (or of a frame inside one) were discarded by the chain: geth drops them.
  if (frame.logs.length > 0 && !failed) json.logs = frame.logs;
  if (frame.value !== undefined) json.value = quantity(frame.value);
  return json;
}

// ---------------------------------------------------------------------------------------------
// prestateTracer

export interface PrestateTracerConfig {
  diffMode?: boolean;
}

interface AccountState {
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  storage: Map<string, Uint8Array>;
}

export class PrestateTracer implements EvmTracer {
  /** Touched addresses (hex) → touched slots (hex). */
  private readonly touched = new Map<string, Set<string>>();
  private readonly created = new Set<string>();

  constructor(private readonly config: PrestateTracerConfig) {}

  private touch(address: string): Set<string> {
    let slots = this.touched.get(address);
    if (slots === undefined) {
      slots = new Set();
      this.touched.set(address, slots);
    }
    return slots;
  }

  private touchWord(value: bigint | undefined): void {
    if (value !== undefined) this.touch(`0x${word(value).slice(24)}`);
  }

  onStep(step: InterpreterStep): void {
    const stack = step.stack;
    const n = stack.length;
    switch (step.opcode.name) {
      case 'SLOAD':
      case 'SSTORE':
        if (n >= 1) this.touch(step.address.toString()).add(`0x${word(stack[n - 1]!)}`);
        break;
      case 'BALANCE':
      case 'EXTCODESIZE':
      case 'EXTCODECOPY':
      case 'EXTCODEHASH':
      case 'SELFDESTRUCT':
        this.touchWord(stack[n - 1]);
        break;
      case 'CALL':
      case 'CALLCODE':
      case 'DELEGATECALL':
      case 'STATICCALL':
        this.touchWord(stack[n - 2]);
        break;
      default:
    }
  }

  onBeforeMessage(message: Message): void {
    this.touch(message.caller.toString());
    if (message.to !== undefined) this.touch(message.to.toString());
  }

  onAfterMessage(result: EVMResult): void {
    if (result.createdAddress !== undefined) {
      const address = result.createdAddress.toString();
      this.touch(address);
      this.created.add(address);
    }
  }

  private read(keeper: EvmKeeper, ctx: Context, address: string, slots: Iterable<string>): AccountState {
    const bytes = new Uint8Array(Buffer.from(address.slice(2), 'hex'));
    const storage = new Map<string, Uint8Array>();
    for (const slot of slots) storage.set(slot, keeper.storage(ctx, bytes, new Uint8Array(Buffer.from(slot.slice(2), 'hex'))));
    return { balance: keeper.balance(ctx, bytes), nonce: keeper.accounts.getAccount(ctx, bytes)?.sequence ?? 0n, code: keeper.code(ctx, bytes), storage };
  }

  result(info: TraceTxInfo, _outcome: TraceOutcome, { keeper, before, after }: TraceStates): unknown {
    this.touch(lowerAddress(info.from));
    this.touch(lowerAddress(info.to));
    this.touch(lowerAddress(info.coinbase));
    if (info.create) this.created.add(lowerAddress(info.to));
    const pre = new Map<string, AccountState>();
    for (const [address, slots] of this.touched) pre.set(address, this.read(keeper, before, address, slots));
    const exists = (a: AccountState) => a.balance !== 0n || a.nonce !== 0n || a.code.length > 0 || [...a.storage.values()].some((v) => v.some((b) => b !== 0));
    if (this.config.diffMode !== true) {
      const out: Record<string, unknown> = {};
      for (const [address, state] of pre) {
        if (this.created.has(address) && !exists(state)) continue;
        out[address] = accountJson(state, true);
      }
      return out;
    }
    const preOut: Record<string, unknown> = {};
    const postOut: Record<string, unknown> = {};
    for (const [address, state] of pre) {
      const now = this.read(keeper, after, address, state.storage.keys());
      const post: AccountState = { balance: -1n, nonce: -1n, code: new Uint8Array(0), storage: new Map() };
      let modified = false;
      let codeChanged = false;
      if (now.balance !== state.balance) {
        modified = true;
        post.balance = now.balance;
      }
      if (now.nonce !== state.nonce) {
        modified = true;
        post.nonce = now.nonce;
      }
      if (Buffer.compare(now.code, state.code) !== 0) {
        modified = true;
        codeChanged = true;
        post.code = now.code;
      }
      for (const [slot, value] of [...state.storage]) {
        const next = now.storage.get(slot)!;
        const zero = !value.some((b) => b !== 0);
        if (Buffer.compare(next, value) === 0) {
          state.storage.delete(slot);
          continue;
        }
        if (zero) state.storage.delete(slot);
        modified = true;
        if (next.some((b) => b !== 0)) post.storage.set(slot, next);
      }
      if (!modified) continue;
      if (!(this.created.has(address) && !exists(state))) preOut[address] = accountJson(state, true);
      postOut[address] = accountJson(post, false, codeChanged);
    }
    return { post: postOut, pre: preOut };
  }
}

/** geth's account JSON: balance (hex), code (hex), nonce (number), storage; empty fields left out. */
function accountJson(state: AccountState, full: boolean, codeChanged = false): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (full || state.balance >= 0n) json.balance = quantity(state.balance < 0n ? 0n : state.balance);
  if (state.code.length > 0 || codeChanged) json.code = bytesToHex(state.code);
  if (state.nonce > 0n) json.nonce = Number(state.nonce);
  if (state.storage.size > 0) json.storage = Object.fromEntries([...state.storage].map(([k, v]) => [k, bytesToHex(v)]));
  return json;
}

/** Attaches a tracer to an EVM; returns the detach function. */
export function attachTracer(evm: EVM, tracer: EvmTracer, onStep?: () => void): () => void {
  const step = (data: InterpreterStep) => {
    onStep?.();
    tracer.onStep(data);
  };
  const before = (data: Message) => tracer.onBeforeMessage(data);
  const after = (data: EVMResult) => tracer.onAfterMessage(data);
  evm.events.on('step', step);
  evm.events.on('beforeMessage', before);
  evm.events.on('afterMessage', after);
  return () => {
    evm.events.off('step', step);
    evm.events.off('beforeMessage', before);
    evm.events.off('afterMessage', after);
  };
}
