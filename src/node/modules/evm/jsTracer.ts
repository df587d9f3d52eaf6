/**
 * JavaScript tracers (geth 1.10's JS tracer API, the one Ethermint v0.22 runs): the tracer is the
 * source of an object with result(ctx, db) and fault(log, db), optionally step(log, db),
 * enter(frame) / exit(frameResult) (both or neither) and setup(config) (the tracer config as a
 * JSON string). It runs in the sandbox of jsSandbox.ts, bounded by the trace's deadline.
 *
 * Feeding it from @ethereumjs/evm's events: step → step(log, db); a frame ending with an error
 * after running code → fault(log, db) with the last step's log (geth calls it for a REVERT too);
 * nested frames → enter / exit (the frame type from the CALL-family opcode that opened it; a
 * CREATE's address known at its first step or its end), SELFDESTRUCT → an enter/exit pair after
 * its step. ctx for result(): type, from, to, input, gas (after intrinsic gas), gasPrice, value,
 * block, output, time, gasUsed (the top call's execution gas), intrinsicGas, error, and for a
 * tx of a block blockHash, txIndex, txHash.
 *
 * An error in a tracer function ends the trace with geth's wording: "<error>    in server-side
 * tracer function '<name>'".
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { Address, createContractAddress, createContractAddress2 } from '@ethereumjs/util';
import { bytesToHex } from './hex.js';
import { ERROR_MARK, openSandbox, TracerCompileError, type SandboxRunner } from './jsSandbox.js';
import { gethError, type EvmTracer, type TraceOutcome, type TraceTxInfo } from './tracers.js';

/** Synchronous state reads for db.* (the running frame's view). */
export interface JsTracerState {
  peekBalance(address: Uint8Array): bigint;
  peekNonce(address: Uint8Array): bigint;
  peekCode(address: Uint8Array): Uint8Array;
  peekStorage(address: Uint8Array, slot: Uint8Array): Uint8Array;
  peekExists(address: Uint8Array): boolean;
}

export interface JsTracerEnv {
  state: JsTracerState;
  isPrecompile(addressHex: string): boolean;
}

export class JsTracerError extends Error {}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

const bytesOf = (hexText: string): Uint8Array => new Uint8Array(Buffer.from(hexText.slice(2), 'hex'));
const fail = (message: string): string => `${ERROR_MARK}${message}`;

/** Go's time.Duration.String() of a span in milliseconds ("1.234567ms", "2.5s", "850µs"). */
export function goDurationString(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const trim = (value: number, digits: number) => value.toFixed(digits).replace(/\.?0+$/, '');
  if (ns < 1000) return `${ns}ns`;
  if (ns < 1e6) return `${trim(ns / 1e3, 3)}µs`;
  if (ns < 1e9) return `${trim(ns / 1e6, 6)}ms`;
  let seconds = ns / 1e9;
  let out = '';
  if (seconds >= 3600) {
    out += `${Math.floor(seconds / 3600)}h`;
    seconds %= 3600;
  }
  if (out !== '' || seconds >= 60) {
    out += `${Math.floor(seconds / 60)}m`;
    seconds %= 60;
  }
  return `${out}${trim(seconds, 9)}s`;
}

/** A step as the log object's fields: pc, gas, cost, depth (1-based as geth), refund, op, name, isPush. */
function stepFields(step: InterpreterStep): [number, number, number, number, number, number, string, boolean] {
  const code = step.opcode.code;
  const cost = Number(step.opcode.dynamicFee ?? BigInt(step.opcode.fee));
  return [step.pc, Number(step.gasLeft), cost, step.depth + 1, Number(step.gasRefund), code, step.opcode.name, code >= 0x60 && code <= 0x7f];
}

interface PendingFrame {
  type: string;
  from: string;
  to: string | undefined;
  input: string;
  gas: number;
  value: bigint | undefined;
  entered: boolean;
  steps: number;
  depth: number;
}

export class JsTracer implements EvmTracer {
  private readonly runner: SandboxRunner;
  private readonly traceStep: boolean;
  private readonly traceFrames: boolean;
  private current: InterpreterStep | undefined;
  private readonly frames: PendingFrame[] = [];
  private readonly lastOp: string[] = [];
  private started = 0;
  private topGasUsed = 0n;
  private topOutput: Uint8Array = new Uint8Array(0);

  /** Throws TracerCompileError when the source is not a tracer (or its setup fails). */
  constructor(
    source: string,
    tracerConfig: string,
    deadlineMs: number,
    private readonly env: JsTracerEnv,
  ) {
    this.runner = openSandbox(source, (op, a, b, c) => this.bridge(op, a, b, c), deadlineMs);
    this.traceStep = this.runner.hasStep();
    this.traceFrames = this.runner.hasFrames();
    if (this.runner.hasSetup()) {
      const problem = this.runner.setup(tracerConfig === '' ? '{}' : tracerConfig);
      if (problem !== undefined) throw new TracerCompileError(`${problem}    in server-side tracer function 'setup'`);
    }
  }

  private check(problem: string | undefined, fn: string): void {
    if (problem === undefined) return;
    this.runner.close();
    throw new JsTracerError(`${problem}    in server-side tracer function '${fn}'`);
  }

  /** The host side of the sandbox's bridge: primitives only, never throws. */
  private bridge(op: number, a: unknown, b: unknown, c: unknown): unknown {
    try {
      const step = this.current;
      switch (op) {
        case 0: {
          const stack = step?.stack ?? [];
          const index = a as number;
          if (!Number.isInteger(index) || index < 0 || index >= stack.length) return fail(`tracer accessed out of bound stack: size ${stack.length}, index ${index}`);
          return stack[stack.length - 1 - index]!;
        }
        case 1:
          return step?.stack.length ?? 0;
        case 2: {
          const memory = step?.memory ?? new Uint8Array(0);
          const begin = a as number;
          const end = b as number;
          if (end === begin) return '0x';
          if (!(end > begin) || begin < 0) return fail(`tracer accessed out of bound memory: offset ${begin}, end ${end}`);
          if (memory.length < end) return fail(`tracer accessed out of bound memory: available ${memory.length}, offset ${begin}, size ${end - begin}`);
          return bytesToHex(memory.subarray(begin, end));
        }
        case 3: {
          const memory = step?.memory ?? new Uint8Array(0);
          const addr = a as number;
          if (!(addr >= 0) || memory.length < addr + 32) return fail(`tracer accessed out of bound memory: available ${memory.length}, offset ${addr}, size 32`);
          return BigInt(bytesToHex(memory.subarray(addr, addr + 32)));
        }
        case 4:
          return step?.memory.length ?? 0;
        case 5:
          return this.frameOf()?.caller ?? `0x${'0'.repeat(40)}`;
        case 6:
          return step?.address.toString() ?? `0x${'0'.repeat(40)}`;
        case 7:
          return this.frameOf()?.value ?? 0n;
        case 8:
          return this.frameOf()?.input ?? '0x';
        case 10:
          return this.env.state.peekBalance(bytesOf(a as string));
        case 11:
          return Number(this.env.state.peekNonce(bytesOf(a as string)));
        case 12:
          return bytesToHex(this.env.state.peekCode(bytesOf(a as string)));
        case 13: {
          const value = this.env.state.peekStorage(bytesOf(a as string), bytesOf(b as string));
          const word = new Uint8Array(32);
          word.set(value.subarray(Math.max(0, value.length - 32)), 32 - Math.min(32, value.length));
          return bytesToHex(word);
        }
        case 14:
          return this.env.state.peekExists(bytesOf(a as string));
        case 20:
          return createContractAddress(new Address(bytesOf(a as string)), BigInt(b as number)).toString();
        case 21: {
          const saltHex = (b as string).replace(/^0x/i, '');
          const salt = new Uint8Array(32);
          const saltBytes = Buffer.from(saltHex.length % 2 === 1 ? `0${saltHex}` : saltHex, 'hex');
          salt.set(saltBytes.subarray(Math.max(0, saltBytes.length - 32)), 32 - Math.min(32, saltBytes.length));
          return createContractAddress2(new Address(bytesOf(a as string)), salt, bytesOf(c as string)).toString();
        }
        case 22:
          return this.env.isPrecompile((a as string).slice(2));
        default:
          return fail('tracer: unknown host call');
      }
    } catch (err) {
      return fail(`tracer: ${(err as Error).message}`);
    }
  }

  /** The innermost open frame's message facts (contract.getCaller / getValue / getInput). */
  private readonly messages: { caller: string; value: bigint; input: string }[] = [];

  private frameOf(): { caller: string; value: bigint; input: string } | undefined {
    return this.messages[this.messages.length - 1];
  }

  private enter(frame: PendingFrame, to: string | undefined): void {
    frame.entered = true;
    if (!this.traceFrames) return;
    frame.to = to ?? frame.to ?? `0x${'0'.repeat(40)}`;
    this.check(this.runner.enter(frame.type, frame.from, frame.to, frame.input, frame.gas, frame.value), 'enter');
  }

  onStep(step: InterpreterStep): void {
    this.current = step;
    const frame = this.frames[this.frames.length - 1];
    if (frame !== undefined) {
      frame.steps++;
      if (!frame.entered && frame.depth > 0) this.enter(frame, step.address.toString());
    }
    const name = step.opcode.name;
    if (CALL_OPS.has(name)) this.lastOp[step.depth] = name;
    if (this.traceStep) this.check(this.runner.step(...stepFields(step)), 'step');
    if (name === 'SELFDESTRUCT' && this.traceFrames && step.stack.length > 0) {
      const beneficiary = `0x${step.stack[step.stack.length - 1]!.toString(16).padStart(64, '0').slice(24)}`;
      const balance = this.env.state.peekBalance(step.address.bytes);
      this.check(this.runner.enter('SELFDESTRUCT', step.address.toString(), beneficiary, '0x', 0, balance), 'enter');
      this.check(this.runner.exit(0, '0x', undefined), 'exit');
    }
  }

  onBeforeMessage(message: Message): void {
    if (message.depth === 0) this.started = performance.now();
    const input = bytesToHex(message.data);
    this.messages.push({ caller: message.caller.toString(), value: message.value, input });
    let type = message.depth === 0 ? (message.to === undefined ? 'CREATE' : 'CALL') : (this.lastOp[message.depth - 1] ?? 'CALL');
    if (message.depth > 0 && message.to === undefined && type !== 'CREATE' && type !== 'CREATE2') type = 'CREATE';
    let from = message.caller.toString();
    let to = message.to?.toString();
    let value: bigint | undefined = message.value;
    if (type === 'DELEGATECALL') {
      from = message.to!.toString();
      to = message.codeAddress.toString();
      value = undefined;
    } else if (type === 'CALLCODE') {
      to = message.codeAddress.toString();
    } else if (type === 'STATICCALL') {
      value = undefined;
    }
    const frame: PendingFrame = { type, from, to, input, gas: Number(message.gasLimit), value, entered: false, steps: 0, depth: message.depth };
    this.frames.push(frame);
    // A call's frame is entered now; a create's once its address is known.
    if (message.depth > 0 && to !== undefined) this.enter(frame, to);
  }

  onAfterMessage(result: EVMResult): void {
    this.messages.pop();
    const frame = this.frames.pop();
    if (frame === undefined) return;
    const exec = result.execResult;
    const error = exec.exceptionError === undefined ? undefined : gethError(exec.exceptionError.error);
    if (error !== undefined && frame.steps > 0 && this.current !== undefined) this.check(this.runner.fault(error, ...stepFields(this.current)), 'fault');
    if (frame.depth === 0) {
      this.topGasUsed = exec.executionGasUsed;
      this.topOutput = error === undefined || error === 'execution reverted' ? exec.returnValue : new Uint8Array(0);
      return;
    }
    if (!frame.entered) this.enter(frame, result.createdAddress?.toString());
    if (!this.traceFrames) return;
    const output = error === undefined || error === 'execution reverted' ? bytesToHex(exec.returnValue) : '0x';
    this.check(this.runner.exit(Number(exec.executionGasUsed), output, error), 'exit');
  }

  result(info: TraceTxInfo, outcome: TraceOutcome): unknown {
    const ctx: Record<string, unknown> = {
      type: info.create ? 'CREATE' : 'CALL',
      from: bytesToHex(info.from),
      to: bytesToHex(info.to),
      input: bytesToHex(info.input),
      gas: Number(info.gasLimit - (info.intrinsicGas ?? 0n)),
      gasPrice: Number(info.gasPrice ?? 0n),
      value: info.value.toString(),
      block: Number(info.blockNumber ?? 0n),
      output: bytesToHex(this.topOutput),
      time: goDurationString(performance.now() - this.started),
      gasUsed: Number(this.topGasUsed),
      intrinsicGas: Number(info.intrinsicGas ?? 0n),
    };
    if (outcome.error !== undefined) ctx.error = outcome.error;
    if (info.blockHash !== undefined && info.blockHash.some((b) => b !== 0)) {
      ctx.blockHash = bytesToHex(info.blockHash);
      if (info.txHash !== undefined) {
        ctx.txIndex = info.txIndex ?? 0;
        ctx.txHash = bytesToHex(info.txHash);
      }
    }
    const text = this.runner.result(JSON.stringify(ctx));
    this.runner.close();
    if (text.startsWith(ERROR_MARK)) throw new JsTracerError(`${text.slice(1)}    in server-side tracer function 'result'`);
    return JSON.parse(text) as unknown;
  }
}

/** True when a tracer name is JavaScript source rather than a built-in tracer's name. */
export function looksLikeJavaScript(name: string): boolean {
  return /[{(;]/.test(name);
}

export { TracerCompileError };
