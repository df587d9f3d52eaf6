/**
 * The sandbox a JavaScript tracer runs in: a node:vm context with no Node globals (no require,
 * process, Buffer, timers), no code generation from strings, no Promise / Atomics /
 * SharedArrayBuffer / WeakRef / FinalizationRegistry, and geth's tracer API (toHex, toWord,
 * toAddress, toContract, toContract2, isPrecompiled, slice, bigInt; the log, db, frame objects)
 * written as JavaScript inside the context.
 *
 * Safety rules the prelude keeps:
 * - No object of the host realm is ever reachable by tracer code (a host object's
 *   constructor.constructor would be the host's Function, i.e. an escape). The one host function
 *   (the bridge) is a closure variable of the prelude; it takes and returns primitives only and
 *   never throws (errors come back as strings starting with NUL).
 * - Every loop body, function body, catch clause and finally block of the tracer source starts
 *   with a call of the tick function (instrument()), which checks the deadline every 1024 calls
 *   and, once the trace is interrupted (timeout, or a bad argument to an API function, which geth
 *   makes uncatchable too), throws on every call — so a tracer that catches the error and loops
 *   on is stopped at its next loop iteration, catch or finally. The tick is a non-writable,
 *   non-configurable global with a random name.
 * - async functions, await and import() are refused at compile time (no microtasks can outlive
 *   a call).
 *
 * What it cannot bound: a single built-in operation that runs long by itself (a catastrophic
 * regular expression, a huge Array/String operation) holds the thread until it ends.
 *
 * Threading: geth runs a trace in its own goroutine and interrupts the JS engine from a timer.
 * Here a trace (any tracer) runs on the node's main thread, because the EVM reads the store
 * synchronously; a JS tracer therefore holds the event loop for at most its timeout (default
 * 5 s, the trace config's `timeout`) — consensus timers and other requests wait that long.
 * node:vm's own `timeout` option would interrupt from a watchdog thread, but it costs ~0.1 ms per
 * call (a thread per call), 20–50× the cost of a step; the instrumented ticks cost a counter.
 * The debug namespace is opt-in (`[json-rpc] api`), as in Ethermint.
 */
import { randomBytes } from 'node:crypto';
import { runInContext, createContext, Script, type Context as VmContext } from 'node:vm';
import { parse, type Node } from 'acorn';

/** Thrown for tracer code that does not compile or evaluate to a tracer object. */
export class TracerCompileError extends Error {}

const ERROR_MARK = '\u0000';

/** The prelude: evaluated in the context, called once with the bridge and the tick's name. */
const PRELUDE = String.raw`(function (bridge, tickName) {
  'use strict';
  var now = Date.now, Error_ = Error, TypeError_ = TypeError, Uint8Array_ = Uint8Array, BigInt_ = BigInt, isArray = Array.isArray;
  var defineProperty = Object.defineProperty, freeze = Object.freeze, String_ = String, JSON_stringify = JSON.stringify, JSON_parse = JSON.parse;
  var deadline = Infinity, ticks = 0, interrupted;

  function interrupt(message) {
    if (interrupted === undefined) interrupted = message;
    throw new Error_(interrupted);
  }
  function tick() {
    if (interrupted !== undefined) throw new Error_(interrupted);
    if (++ticks >= 1024) {
      ticks = 0;
      if (now() > deadline) interrupt('execution timeout');
    }
  }
  defineProperty(globalThis, tickName, { value: tick, writable: false, configurable: false, enumerable: false });

  function call(op, a, b, c) {
    var result;
    try { result = bridge(op, a, b, c); } catch (e) { interrupt('tracer: host call failed'); }
    if (typeof result === 'string' && result.charCodeAt(0) === 0) interrupt(result.slice(1));
    return result;
  }

  // ---- bytes
  var HEX = '0123456789abcdef';
  function toHexString(bytes) {
    var out = '0x';
    for (var i = 0; i < bytes.length; i++) out += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
    return out;
  }
  function fromHexString(text) {
    var digits = text.slice(0, 2) === '0x' || text.slice(0, 2) === '0X' ? text.slice(2) : text;
    if (digits.length % 2 === 1) digits = '0' + digits;
    var out = new Uint8Array_(digits.length / 2);
    for (var i = 0; i < out.length; i++) {
      var byte = parseInt(digits.substr(i * 2, 2), 16);
      if (byte !== byte) return out.slice(0, i);
      out[i] = byte;
    }
    return out;
  }
  function fromBuf(value, allowString) {
    if (typeof value === 'string') {
      if (allowString) return fromHexString(value);
    } else if (value instanceof Uint8Array_) {
      return value;
    } else if (isArray(value)) {
      var out = new Uint8Array_(value.length);
      for (var i = 0; i < value.length; i++) out[i] = Number(value[i]) & 255;
      return out;
    }
    interrupt('invalid buffer type');
  }
  function leftPad(bytes, size) {
    var out = new Uint8Array_(size);
    var tail = bytes.length > size ? bytes.subarray(bytes.length - size) : bytes;
    out.set(tail, size - tail.length);
    return out;
  }
  function addressHex(value) { return toHexString(leftPad(fromBuf(value, false), 20)); }

  // ---- bigInt (the big-integer API geth's tracers use, over native BigInt)
  function Big(value) { this.value = value; }
  function bigValue(x) {
    if (x instanceof Big) return x.value;
    if (typeof x === 'bigint') return x;
    if (typeof x === 'number') return BigInt_(Math.trunc(x));
    if (typeof x === 'string') return parseBig(x, 10);
    if (x === undefined) return BigInt_(0);
    throw new TypeError_('invalid bigInt value');
  }
  function parseBig(text, base) {
    var s = String_(text).trim(), negative = false;
    if (s[0] === '-') { negative = true; s = s.slice(1); }
    if (s.slice(0, 2).toLowerCase() === '0x') { s = s.slice(2); base = 16; }
    var value;
    if (base === 10) value = BigInt_(s);
    else if (base === 16) value = BigInt_('0x' + s);
    else if (base === 8) value = BigInt_('0o' + s);
    else if (base === 2) value = BigInt_('0b' + s);
    else {
      value = BigInt_(0);
      var B = BigInt_(base);
      for (var i = 0; i < s.length; i++) {
        var d = parseInt(s[i], base);
        if (d !== d) throw new TypeError_('Invalid integer: ' + text);
        value = value * B + BigInt_(d);
      }
    }
    return negative ? -value : value;
  }
  function big(value) { return new Big(value); }
  function bigInt(x, base) {
    if (base !== undefined && typeof x === 'string') return big(parseBig(x, Number(base)));
    return big(bigValue(x));
  }
  var ZERO = BigInt_(0);
  var proto = {
    add: function (x) { return big(this.value + bigValue(x)); },
    subtract: function (x) { return big(this.value - bigValue(x)); },
    multiply: function (x) { return big(this.value * bigValue(x)); },
    divide: function (x) { return big(this.value / bigValue(x)); },
    mod: function (x) { return big(this.value % bigValue(x)); },
    pow: function (x) { return big(this.value ** bigValue(x)); },
    negate: function () { return big(-this.value); },
    abs: function () { return big(this.value < ZERO ? -this.value : this.value); },
    and: function (x) { return big(this.value & bigValue(x)); },
    or: function (x) { return big(this.value | bigValue(x)); },
    xor: function (x) { return big(this.value ^ bigValue(x)); },
    not: function () { return big(~this.value); },
    shiftLeft: function (n) { return big(this.value << BigInt_(n)); },
    shiftRight: function (n) { return big(this.value >> BigInt_(n)); },
    compare: function (x) { var y = bigValue(x); return this.value === y ? 0 : this.value > y ? 1 : -1; },
    compareAbs: function (x) { var a = this.value < ZERO ? -this.value : this.value, y = bigValue(x); if (y < ZERO) y = -y; return a === y ? 0 : a > y ? 1 : -1; },
    equals: function (x) { return this.value === bigValue(x); },
    notEquals: function (x) { return this.value !== bigValue(x); },
    greater: function (x) { return this.value > bigValue(x); },
    greaterOrEquals: function (x) { return this.value >= bigValue(x); },
    lesser: function (x) { return this.value < bigValue(x); },
    lesserOrEquals: function (x) { return this.value <= bigValue(x); },
    isZero: function () { return this.value === ZERO; },
    isNegative: function () { return this.value < ZERO; },
    isPositive: function () { return this.value > ZERO; },
    isEven: function () { return this.value % BigInt_(2) === ZERO; },
    isOdd: function () { return this.value % BigInt_(2) !== ZERO; },
    toString: function (radix) { return this.value.toString(radix === undefined ? 10 : radix); },
    toJSNumber: function () { return Number(this.value); },
    valueOf: function () { return Number(this.value); },
    toJSON: function () { return this.value.toString(); }
  };
  proto.plus = proto.add; proto.minus = proto.subtract; proto.times = proto.multiply; proto.over = proto.divide;
  proto.toNumber = proto.toJSNumber; proto.remainder = proto.mod; proto.compareTo = proto.compare; proto.eq = proto.equals; proto.neq = proto.notEquals;
  proto.gt = proto.greater; proto.geq = proto.greaterOrEquals; proto.lt = proto.lesser; proto.leq = proto.lesserOrEquals;
  proto.constructor = Big;
  Big.prototype = proto;
  bigInt.zero = big(ZERO); bigInt.one = big(BigInt_(1)); bigInt.minusOne = big(BigInt_(-1));
  bigInt.isInstance = function (x) { return x instanceof Big; };

  // ---- globals geth gives tracers
  globalThis.bigInt = bigInt;
  globalThis.toHex = function (value) { return toHexString(fromBuf(value, false)); };
  globalThis.toWord = function (value) { return leftPad(fromBuf(value, true), 32); };
  globalThis.toAddress = function (value) { return leftPad(fromBuf(value, true), 20); };
  globalThis.toContract = function (from, nonce) { return fromHexString(call(20, addressHex(fromBuf(from, true)), Number(nonce) >>> 0)); };
  globalThis.toContract2 = function (from, salt, initcode) { return fromHexString(call(21, addressHex(fromBuf(from, true)), String_(salt), toHexString(fromBuf(initcode, true)))); };
  globalThis.isPrecompiled = function (value) { return call(22, addressHex(fromBuf(value, true))); };
  globalThis.slice = function (value, start, end) {
    var bytes = fromBuf(value, false);
    if (start < 0 || start > end || end > bytes.length) interrupt('Tracer accessed out of bound memory: available ' + bytes.length + ', offset ' + start + ', size ' + (end - start));
    return bytes.slice(start, end);
  };

  // ---- the objects passed to step / fault / enter / exit / result
  var step = { pc: 0, gas: 0, cost: 0, depth: 0, refund: 0, op: 0, opName: '', push: false, error: undefined };
  var op = freeze({
    toNumber: function () { return step.op; },
    toString: function () { return step.opName; },
    isPush: function () { return step.push; }
  });
  var stack = freeze({
    peek: function (i) { return big(call(0, Number(i))); },
    length: function () { return call(1); }
  });
  var memory = freeze({
    slice: function (begin, end) { return fromHexString(call(2, Number(begin), Number(end))); },
    getUint: function (addr) { return big(call(3, Number(addr))); },
    length: function () { return call(4); }
  });
  var contract = freeze({
    getCaller: function () { return fromHexString(call(5)); },
    getAddress: function () { return fromHexString(call(6)); },
    getValue: function () { return big(call(7)); },
    getInput: function () { return fromHexString(call(8)); }
  });
  var log = freeze({
    op: op, stack: stack, memory: memory, contract: contract,
    getPC: function () { return step.pc; },
    getGas: function () { return step.gas; },
    getCost: function () { return step.cost; },
    getDepth: function () { return step.depth; },
    getRefund: function () { return step.refund; },
    getError: function () { return step.error; }
  });
  var db = freeze({
    getBalance: function (a) { return big(call(10, addressHex(a))); },
    getNonce: function (a) { return call(11, addressHex(a)); },
    getCode: function (a) { return fromHexString(call(12, addressHex(a))); },
    getState: function (a, slot) { return fromHexString(call(13, addressHex(a), toHexString(leftPad(fromBuf(slot, false), 32)))); },
    exists: function (a) { return call(14, addressHex(a)); }
  });
  var frame = { type: '', from: '', to: '', input: '', gas: 0, value: undefined };
  var frameObject = freeze({
    getType: function () { return frame.type; },
    getFrom: function () { return fromHexString(frame.from); },
    getTo: function () { return fromHexString(frame.to); },
    getInput: function () { return fromHexString(frame.input); },
    getGas: function () { return frame.gas; },
    getValue: function () { return frame.value === undefined ? undefined : big(frame.value); }
  });
  var exit = { gasUsed: 0, output: '0x', error: undefined };
  var exitObject = freeze({
    getGasUsed: function () { return exit.gasUsed; },
    getOutput: function () { return fromHexString(exit.output); },
    getError: function () { return exit.error; }
  });

  var tracer, fns = {};
  function describe(e) {
    if (interrupted !== undefined) return interrupted;
    try {
      if (e instanceof Error_) return String_(e.name) + ': ' + String_(e.message);
      return String_(e);
    } catch (inner) {
      return interrupted !== undefined ? interrupted : 'tracer error';
    }
  }
  function invoke(fn, a, b) {
    try {
      fn.call(tracer, a, b);
      return interrupted;
    } catch (e) {
      return describe(e);
    }
  }

  return freeze({
    setDeadline: function (ms) { deadline = ms; ticks = 1024; },
    // After the trace: any tracer code still reachable (a callback kept somewhere) stops at once.
    close: function () { if (interrupted === undefined) interrupted = 'tracer finished'; },
    // The tracer object: the value of the instrumented source. '' when fine, else why not.
    install: function (value) {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return 'trace object must expose a function result()';
      tracer = value;
      try {
        fns.result = value.result; fns.fault = value.fault; fns.step = value.step; fns.enter = value.enter; fns.exit = value.exit; fns.setup = value.setup;
      } catch (e) { return describe(e); }
      if (typeof fns.result !== 'function') return 'trace object must expose a function result()';
      if (typeof fns.fault !== 'function') return 'trace object must expose a function fault()';
      if ((typeof fns.enter === 'function') !== (typeof fns.exit === 'function')) return 'trace object must expose either both or none of enter() and exit()';
      return '';
    },
    hasStep: function () { return typeof fns.step === 'function'; },
    hasFrames: function () { return typeof fns.enter === 'function'; },
    hasSetup: function () { return typeof fns.setup === 'function'; },
    setup: function (config) { return invoke(fns.setup, config); },
    step: function (pc, gas, cost, depth, refund, opNumber, opName, push) {
      step.pc = pc; step.gas = gas; step.cost = cost; step.depth = depth; step.refund = refund;
      step.op = opNumber; step.opName = opName; step.push = push; step.error = undefined;
      return invoke(fns.step, log, db);
    },
    // The log of a fault is the last step's (set here too: a tracer may have no step()).
    fault: function (error, pc, gas, cost, depth, refund, opNumber, opName, push) {
      step.pc = pc; step.gas = gas; step.cost = cost; step.depth = depth; step.refund = refund;
      step.op = opNumber; step.opName = opName; step.push = push; step.error = error;
      return invoke(fns.fault, log, db);
    },
    enter: function (type, from, to, input, gas, value) {
      frame.type = type; frame.from = from; frame.to = to; frame.input = input; frame.gas = gas; frame.value = value;
      return invoke(fns.enter, frameObject);
    },
    exit: function (gasUsed, output, error) {
      exit.gasUsed = gasUsed; exit.output = output; exit.error = error;
      return invoke(fns.exit, exitObject);
    },
    // ctx arrives as JSON; byte fields as hex become Uint8Arrays, value a bigInt. Returns the
    // result as JSON text, or NUL + why not.
    result: function (ctxJson) {
      var raw = JSON_parse(ctxJson), ctx = {};
      for (var key in raw) ctx[key] = raw[key];
      var bytesKeys = ['from', 'to', 'input', 'output', 'blockHash', 'txHash'];
      for (var i = 0; i < bytesKeys.length; i++) if (typeof raw[bytesKeys[i]] === 'string') ctx[bytesKeys[i]] = fromHexString(raw[bytesKeys[i]]);
      ctx.value = big(BigInt_(raw.value));
      var text;
      try {
        var value = fns.result.call(tracer, ctx, db);
        if (interrupted !== undefined) return '\u0000' + interrupted;
        text = JSON_stringify(value);
      } catch (e) {
        return '\u0000' + describe(e);
      }
      return text === undefined ? 'null' : String_(text);
    }
  });
})`;

const FORBIDDEN_GLOBALS = ['Promise', 'Atomics', 'SharedArrayBuffer', 'WeakRef', 'FinalizationRegistry', 'WebAssembly', 'eval'];
/** Built-ins that hand out a Promise (newer Node versions): a callback on it would run after the trace. */
const FORBIDDEN_STATICS: [string, string][] = [['Array', 'fromAsync']];

/** The runner the prelude returns (functions of the context). */
export interface SandboxRunner {
  setDeadline(ms: number): void;
  close(): void;
  install(value: unknown): string;
  hasStep(): boolean;
  hasFrames(): boolean;
  hasSetup(): boolean;
  setup(config: string): string | undefined;
  step(pc: number, gas: number, cost: number, depth: number, refund: number, op: number, opName: string, push: boolean): string | undefined;
  fault(error: string, pc: number, gas: number, cost: number, depth: number, refund: number, op: number, opName: string, push: boolean): string | undefined;
  enter(type: string, from: string, to: string, input: string, gas: number, value: bigint | undefined): string | undefined;
  exit(gasUsed: number, output: string, error: string | undefined): string | undefined;
  result(ctxJson: string): string;
}

/** The host side of the bridge: primitives in, primitives out, errors as NUL + text, never throws. */
export type Bridge = (op: number, a?: unknown, b?: unknown, c?: unknown) => unknown;

type AnyNode = Node & Record<string, unknown>;

function* children(node: AnyNode): Generator<AnyNode> {
  for (const key of Object.keys(node)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object' && typeof (item as AnyNode).type === 'string') yield item as AnyNode;
    } else if (value !== null && typeof value === 'object' && typeof (value as AnyNode).type === 'string') {
      yield value as AnyNode;
    }
  }
}

/**
 * The tracer source as an expression with a tick call at the start of every loop body,
 * function body, catch clause and finally block. Throws TracerCompileError for source that does
 * not parse as one expression or uses async functions, await or import().
 */
export function instrument(source: string, tickName: string): string {
  const wrapped = `(${source}\n)`;
  let program: AnyNode;
  try {
    program = parse(wrapped, { ecmaVersion: 'latest', sourceType: 'script', preserveParens: true }) as unknown as AnyNode;
  } catch (err) {
    throw new TracerCompileError(`SyntaxError: ${(err as Error).message}`);
  }
  const body = program.body as AnyNode[];
  if (body.length !== 1 || body[0]!.type !== 'ExpressionStatement') throw new TracerCompileError('tracer code must be one expression');
  const inserts: { at: number; text: string; order: number; closing: boolean }[] = [];
  const call = `${tickName}();`;
  let order = 0;
  const add = (at: number, text: string, closing = false) => inserts.push({ at, text, order: order++, closing });
  const wrapStatement = (statement: AnyNode) => {
    if (statement.type === 'BlockStatement') add(statement.start + 1, call);
    else {
      add(statement.start, `{${call}`);
      add(statement.end, '}', true);
    }
  };
  const visit = (node: AnyNode) => {
    switch (node.type) {
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
        wrapStatement(node.body as AnyNode);
        break;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        if (node.async === true) throw new TracerCompileError('async functions are not supported in tracers');
        const fnBody = node.body as AnyNode;
        if (fnBody.type === 'BlockStatement') add(fnBody.start + 1, call);
        else {
          add(fnBody.start, `{${call}return (`);
          add(fnBody.end, ');}', true);
        }
        break;
      }
      case 'CatchClause':
        add((node.body as AnyNode).start + 1, call);
        break;
      case 'TryStatement':
        if (node.finalizer !== null && node.finalizer !== undefined) add((node.finalizer as AnyNode).start + 1, call);
        break;
      case 'AwaitExpression':
      case 'ImportExpression':
        throw new TracerCompileError(`${node.type === 'AwaitExpression' ? 'await' : 'import'} is not supported in tracers`);
      default:
    }
    for (const child of children(node)) visit(child);
  };
  visit(body[0]!);
  // Insert from the end so earlier positions stay valid. Text inserted at a position goes before
  // what was inserted there already: at one position, openings first (inner before outer), then
  // closings (outer before inner), so the result reads close-then-open, outer-open-first,
  // inner-close-first.
  inserts.sort((x, y) => y.at - x.at || Number(x.closing) - Number(y.closing) || (x.closing ? x.order - y.order : y.order - x.order));
  let out = wrapped;
  for (const { at, text } of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

const scriptCache = new Map<string, { script: Script; tickName: string }>();
const SCRIPT_CACHE_LIMIT = 32;
let preludeScript: Script | undefined;

/** A fresh sandbox with the tracer installed; throws TracerCompileError when it is not a tracer. */
export function openSandbox(source: string, bridge: Bridge, deadlineMs: number): SandboxRunner {
  let compiled = scriptCache.get(source);
  if (compiled === undefined) {
    const tickName = `$tick_${randomBytes(8).toString('hex')}`;
    const code = instrument(source, tickName);
    let script: Script;
    try {
      script = new Script(code, { filename: 'tracer.js' });
    } catch (err) {
      throw new TracerCompileError(`SyntaxError: ${(err as Error).message}`);
    }
    compiled = { script, tickName };
    if (scriptCache.size >= SCRIPT_CACHE_LIMIT) scriptCache.delete(scriptCache.keys().next().value!);
    scriptCache.set(source, compiled);
  }
  const context: VmContext = createContext(Object.create(null) as object, { codeGeneration: { strings: false, wasm: false }, name: 'tracer' });
  runInContext(
    `for (const name of ${JSON.stringify(FORBIDDEN_GLOBALS)}) delete globalThis[name];` +
      `for (const [owner, name] of ${JSON.stringify(FORBIDDEN_STATICS)}) if (globalThis[owner] !== undefined) delete globalThis[owner][name];`,
    context,
  );
  preludeScript ??= new Script(PRELUDE, { filename: 'tracer-prelude.js' });
  const makeRunner = preludeScript.runInContext(context) as (bridge: Bridge, tickName: string) => SandboxRunner;
  const runner = makeRunner(bridge, compiled.tickName);
  runner.setDeadline(deadlineMs);
  let value: unknown;
  try {
    value = compiled.script.runInContext(context);
  } catch {
    // Not described: the thrown value is the tracer's and describing it would run its code.
    throw new TracerCompileError('tracer code threw while evaluating');
  }
  const problem = runner.install(value);
  if (problem !== '') throw new TracerCompileError(problem);
  return runner;
}

export { ERROR_MARK };
