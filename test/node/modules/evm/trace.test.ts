/**
 * trace_tx / trace_block in-process, through the ABCI query router at block − 1 as the JSON-RPC
 * asks them: a contract forwarding value to another (an exchange's internal transfer) under the
 * call tracer, the struct logger and the prestate tracer; a revert's reason; a tx that follows
 * another of the same sender in its block sees that tx's effects; bad trace configs refused.
 */
import { Wallet, getBytes, getCreateAddress, hexlify } from 'ethers';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { commonFor, cosmosTxBytes, txFromRaw } from '../../../../src/node/modules/evm/ethTx.js';
import { decodeTx } from '../../../../src/node/app/tx.js';
import { TraceConfigSchema, type TraceConfig } from '../../../../src/gen/ethermint/evm/v1/evm_pb.js';
import type { MsgEthereumTx } from '../../../../src/gen/ethermint/evm/v1/tx_pb.js';
import {
  QueryTraceBlockRequestSchema,
  QueryTraceBlockResponseSchema,
  QueryTraceTxRequestSchema,
  QueryTraceTxResponseSchema,
} from '../../../../src/gen/ethermint/evm/v1/query_pb.js';
import { DENOM, GENESIS_TIME, TOKEN, abciQuery, buildAppState, startChain, testKey, type Chain } from '../../app/helpers.js';
import { parseGoDuration } from '../../../../src/node/modules/evm/trace.js';
import { ApiServer } from '../../../../src/node/api/index.js';
import { createQueryRouter } from '../../../../src/node/services/index.js';

const alice = testKey('alice');
const validator = testKey('validator');
const wallet = new Wallet(hexlify(alice.privateKey));
const CHAIN = 9000n;
const GWEI = 10n ** 9n;

/** Init code returning `runtime` (hex without 0x). */
function deployCode(runtime: string): string {
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}80600b6000396000f3${runtime}`;
}

// Receiver: sstore(0, callvalue); stop
const RECEIVER = '3460005500';
// Forwarder: call(gas, calldataload(0), callvalue, 0, 0, 0, 0); pop; stop
const FORWARDER = '600060006000600034600035' + '5af15000';
// Reverter: revert(Error("nope"))
const REVERTER =
  '7f08c379a0' + '00'.repeat(28) + '600052' + '6020600452' + '6004602452' + '7f6e6f7065' + '00'.repeat(28) + '604452' + '60646000fd';
// Logger: sstore(0, calldataload(0)); mstore(0, it); log1(0, 32, 0x2a); return(0, 32)
const LOGGER = '600035806000556000526' + '02a60206000a160206000f3';
// Multi: delegatecall(gas, calldataload(0), 0, 0, 0, 0); pop; staticcall(gas, calldataload(0), 0, 0, 0, 0); pop; stop
const MULTI = '60006000600060006000355af450' + '60006000600060006000355afa50' + '00';
// Spinner: jumpdest; push1 0; jump — loops until out of gas
const SPINNER = '5b600056';

function carry(raw: string): Uint8Array {
  const tx = txFromRaw(getBytes(raw), commonFor(CHAIN, 'cancun'));
  return cosmosTxBytes(tx, tx.getSenderAddress().toString(), DENOM);
}

function msgOf(bytes: Uint8Array): MsgEthereumTx {
  return decodeTx(bytes).msgs[0]!.message as MsgEthereumTx;
}

const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

describe('tracing (trace_tx, trace_block)', () => {
  let chain: Chain;
  let nonce = 0;
  const contracts: Record<string, string> = {};

  async function send(fields: { to?: string; data?: string; value?: bigint; gasLimit?: bigint }): Promise<Uint8Array> {
    const raw = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: nonce++, to: fields.to, data: fields.data ?? '0x', value: fields.value ?? 0n, gasLimit: fields.gasLimit ?? 200_000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    return carry(raw);
  }

  async function deploy(runtime: string): Promise<string> {
    const address = getCreateAddress({ from: wallet.address, nonce });
    const result = (await chain.block([await send({ data: deployCode(runtime) })])).txResults[0]!;
    expect(result.code).toBe(0);
    return address.toLowerCase();
  }

  /** Runs txs in one block; returns their messages and the block height. */
  async function block(txs: Uint8Array[]): Promise<{ msgs: MsgEthereumTx[]; height: number }> {
    const response = await chain.block(txs);
    for (const result of response.txResults) expect(result.code).toBe(0);
    return { msgs: txs.map(msgOf), height: chain.height };
  }

  async function traceTx(msg: MsgEthereumTx, height: number, config: Partial<Omit<TraceConfig, '$typeName'>> = {}, predecessors: MsgEthereumTx[] = []) {
    const request = create(QueryTraceTxRequestSchema, {
      msg,
      predecessors,
      traceConfig: create(TraceConfigSchema, config),
      blockNumber: BigInt(height),
      blockTime: timestampFromDate(new Date(GENESIS_TIME.getTime() + height * 1000)),
      proposerAddress: new Uint8Array(20),
      chainId: CHAIN,
    });
    const { response, value } = await abciQuery(chain.app, '/ethermint.evm.v1.Query/TraceTx', toBinary(QueryTraceTxRequestSchema, request), QueryTraceTxResponseSchema, height - 1);
    return { response, json: value === undefined ? undefined : (JSON.parse(Buffer.from(value.data).toString('utf8')) as Record<string, any>) };
  }

  beforeAll(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    contracts.receiver = await deploy(RECEIVER);
    contracts.forwarder = await deploy(FORWARDER);
    contracts.reverter = await deploy(REVERTER);
    contracts.spinner = await deploy(SPINNER);
    contracts.multi = await deploy(MULTI);
    contracts.logger = await deploy(LOGGER);
  });
  afterAll(async () => {
    await chain.close();
  });

  test('callTracer: the forwarded value shows as a nested CALL from the forwarder to the receiver', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 12345n })]);
    const { response, json } = await traceTx(msgs[0]!, height, { tracer: 'callTracer' });
    expect(response.log).toBe('');
    expect(json).toMatchObject({
      type: 'CALL',
      from: wallet.address.toLowerCase(),
      to: contracts.forwarder,
      value: '0x3039',
      gas: '0x30d40',
      input: word(contracts.receiver!),
      calls: [{ type: 'CALL', from: contracts.forwarder, to: contracts.receiver, value: '0x3039', input: '0x' }],
    });
    expect(json!.error).toBeUndefined();
    expect(BigInt(json!.gasUsed)).toBeGreaterThan(21000n);
    expect(BigInt(json!.calls[0].gasUsed)).toBeGreaterThan(20000n); // the receiver's SSTORE
    // onlyTopCall drops the nested frame
    const top = await traceTx(msgs[0]!, height, { tracer: 'callTracer', tracerJsonConfig: '{"onlyTopCall": true}' });
    expect(top.json!.calls).toBeUndefined();
    expect(top.json!.gasUsed).toBe(json!.gasUsed);
  });

  test('callTracer names frames by their opcode: DELEGATECALL (the caller’s value) and a STATICCALL refused for writing', async () => {
    const { msgs, height } = await block([await send({ to: contracts.multi, data: word(contracts.receiver!), value: 6n })]);
    const { json } = await traceTx(msgs[0]!, height, { tracer: 'callTracer' });
    expect(json!.calls).toHaveLength(2);
    expect(json!.calls[0]).toMatchObject({ type: 'DELEGATECALL', from: contracts.multi, to: contracts.receiver, value: '0x6' });
    expect(json!.calls[1]).toMatchObject({ type: 'STATICCALL', from: contracts.multi, to: contracts.receiver, error: 'write protection' });
    expect(json!.calls[1].value).toBeUndefined();
    expect(json!.error).toBeUndefined();
  });

  test('callTracer withLog: the frame’s logs with their position among its calls', async () => {
    const value = `0x${'07'.padStart(64, '0')}`;
    const { msgs, height } = await block([await send({ to: contracts.logger, data: value })]);
    const plain = await traceTx(msgs[0]!, height, { tracer: 'callTracer' });
    expect(plain.json!.logs).toBeUndefined();
    expect(plain.json!.output).toBe(value);
    const { json } = await traceTx(msgs[0]!, height, { tracer: 'callTracer', tracerJsonConfig: '{"withLog": true}' });
    expect(json!.logs).toEqual([{ address: contracts.logger, topics: [`0x${'2a'.padStart(64, '0')}`], data: value, position: '0x0' }]);
  });

  test('callTracer on a contract creation: CREATE to the new address, the runtime code as output', async () => {
    const address = getCreateAddress({ from: wallet.address, nonce }).toLowerCase();
    const { msgs, height } = await block([await send({ data: deployCode(RECEIVER) })]);
    const { json } = await traceTx(msgs[0]!, height, { tracer: 'callTracer' });
    expect(json).toMatchObject({ type: 'CREATE', from: wallet.address.toLowerCase(), to: address, input: deployCode(RECEIVER), output: `0x${RECEIVER}`, value: '0x0' });
  });

  test('struct logger: the expected opcodes at both depths, storage, stack and memory switches', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 9n })]);
    const { json } = await traceTx(msgs[0]!, height);
    expect(json!.failed).toBe(false);
    expect(json!.returnValue).toBe('');
    const logs = json!.structLogs as { op: string; depth: number; pc: number; gas: number; gasCost: number; stack?: string[]; storage?: Record<string, string> }[];
    expect(logs.filter((l) => l.depth === 1).map((l) => l.op)).toEqual(['PUSH1', 'PUSH1', 'PUSH1', 'PUSH1', 'CALLVALUE', 'PUSH1', 'CALLDATALOAD', 'GAS', 'CALL', 'POP', 'STOP']);
    expect(logs.filter((l) => l.depth === 2).map((l) => l.op)).toEqual(['CALLVALUE', 'PUSH1', 'SSTORE', 'STOP']);
    const call = logs.find((l) => l.op === 'CALL')!;
    // geth's CALL cost: access (2,600) + value (9,000) + the gas handed on (the callee's gas − the 2,300 stipend)
    const callee = logs[logs.indexOf(call) + 1]!;
    expect(call.gasCost).toBe(2600 + 9000 + callee.gas - 2300);
    expect(call.stack![call.stack!.length - 2]).toBe(`0x${BigInt(contracts.receiver!).toString(16)}`);
    expect(call.stack![call.stack!.length - 3]).toBe('0x9');
    const sstore = logs.find((l) => l.op === 'SSTORE')!;
    expect(sstore.storage).toEqual({ ['0'.repeat(64)]: '9'.padStart(64, '0') });
    expect(logs[0]!.pc).toBe(0);
    expect(logs[1]!.gas).toBe(logs[0]!.gas - logs[0]!.gasCost);
    // switches
    const bare = await traceTx(msgs[0]!, height, { disableStack: true, disableStorage: true, enableMemory: true, limit: 5 });
    const bareLogs = bare.json!.structLogs as Record<string, unknown>[];
    expect(bareLogs).toHaveLength(5);
    expect(bareLogs[0]!.stack).toBeUndefined();
    expect(bareLogs[0]!.memory).toEqual([]);
  });

  test('prestateTracer: the accounts the tx touched, as they were before it; diffMode gives pre and post', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 3n })]);
    const { json } = await traceTx(msgs[0]!, height, { tracer: 'prestateTracer' });
    const sender = wallet.address.toLowerCase();
    expect(json![sender].nonce).toBe(nonce - 1);
    expect(BigInt(json![sender].balance)).toBeGreaterThan(0n);
    expect(json![contracts.forwarder!].code).toBe(`0x${FORWARDER}`);
    // the receiver's slot 0 held the value of the previous test's transfer
    expect(json![contracts.receiver!].storage).toEqual({ [`0x${'0'.repeat(64)}`]: `0x${'9'.padStart(64, '0')}` });
    const diff = await traceTx(msgs[0]!, height, { tracer: 'prestateTracer', tracerJsonConfig: '{"diffMode": true}' });
    expect(diff.json!.post[contracts.receiver!].storage).toEqual({ [`0x${'0'.repeat(64)}`]: `0x${'3'.padStart(64, '0')}` });
    expect(diff.json!.post[sender].nonce).toBe(nonce);
    expect(BigInt(diff.json!.pre[contracts.receiver!].balance) + 3n).toBe(BigInt(diff.json!.post[contracts.receiver!].balance));
  });

  test('a reverted tx: callTracer gives the error and the revert reason, the struct logger the return value', async () => {
    const { msgs, height } = await block([await send({ to: contracts.reverter, gasLimit: 100_000n })]);
    const { json } = await traceTx(msgs[0]!, height, { tracer: 'callTracer' });
    expect(json).toMatchObject({ type: 'CALL', error: 'execution reverted', revertReason: 'nope' });
    expect(json!.output).toMatch(/^0x08c379a0/);
    const logs = await traceTx(msgs[0]!, height);
    expect(logs.json!.failed).toBe(true);
    expect(logs.json!.returnValue).toMatch(/^08c379a0/);
    expect(logs.json!.structLogs.at(-1).op).toBe('REVERT');
  });

  test('a tx after another of the same sender in its block sees the first one’s effects (predecessors)', async () => {
    const first = await send({ to: contracts.receiver, value: 77n, gasLimit: 100_000n });
    const second = await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 5n });
    const { msgs, height } = await block([first, second]);
    const alone = await traceTx(msgs[1]!, height, { tracer: 'prestateTracer' });
    const replayed = await traceTx(msgs[1]!, height, { tracer: 'prestateTracer' }, [msgs[0]!]);
    const slot = `0x${'0'.repeat(64)}`;
    expect(replayed.json![contracts.receiver!].storage[slot]).toBe(`0x${(77).toString(16).padStart(64, '0')}`);
    expect(alone.json![contracts.receiver!].storage[slot]).not.toBe(replayed.json![contracts.receiver!].storage[slot]);
    expect(replayed.json![wallet.address.toLowerCase()].nonce).toBe(alone.json![wallet.address.toLowerCase()].nonce + 1);

    // trace_block: one result per message, the second seeing the first
    const request = create(QueryTraceBlockRequestSchema, { txs: msgs, traceConfig: create(TraceConfigSchema, { tracer: 'prestateTracer' }), blockNumber: BigInt(height), chainId: CHAIN });
    const { value } = await abciQuery(chain.app, '/ethermint.evm.v1.Query/TraceBlock', toBinary(QueryTraceBlockRequestSchema, request), QueryTraceBlockResponseSchema, height - 1);
    const results = JSON.parse(Buffer.from(value!.data).toString('utf8')) as { result: Record<string, any> }[];
    expect(results).toHaveLength(2);
    expect(results[1]!.result[contracts.receiver!].storage[slot]).toBe(replayed.json![contracts.receiver!].storage[slot]);
  });

  test('bad trace configs and an endless loop are refused with one clear error each', async () => {
    const { msgs, height } = await block([await send({ to: contracts.receiver, value: 1n, gasLimit: 100_000n })]);
    const cases: [Partial<Omit<TraceConfig, '$typeName'>>, RegExp][] = [
      [{ tracer: 'noSuchTracer' }, /desc = tracer not found: unknown request/],
      [{ tracer: '{step: function() {}, result: function() {}, fault: function() {' }, /desc = tracer not found: unknown request/],
      [{ tracer: '{step: function() {}, fault: function() {}}' }, /desc = tracer not found: unknown request/],
      [{ limit: -1 }, /output limit cannot be negative, got -1/],
      [{ timeout: 'soon' }, /timeout value: time: invalid duration "soon"/],
      [{ tracer: 'callTracer', tracerJsonConfig: '{not json' }, /invalid tracer config/],
    ];
    for (const [config, text] of cases) {
      const { response } = await traceTx(msgs[0]!, height, config);
      expect(response.code).not.toBe(0);
      expect(response.log).toMatch(text);
    }
    const { response } = await traceTx(create((await import('../../../../src/gen/ethermint/evm/v1/tx_pb.js')).MsgEthereumTxSchema, {}), height);
    expect(response.code).not.toBe(0);

    // A loop burning 1M gas traced with a 1 ms budget stops with Ethermint's "execution timeout".
    const spin = await block([await send({ to: contracts.spinner, gasLimit: 1_000_000n }), await send({ to: contracts.spinner, gasLimit: 100_000n })]);
    const timedOut = await traceTx(spin.msgs[0]!, spin.height, { timeout: '1ms' });
    expect(timedOut.response.log).toMatch(/execution timeout/);
    // …and a short one runs to its out-of-gas end under the default budget.
    const full = await traceTx(spin.msgs[1]!, spin.height, { tracer: 'callTracer' });
    expect(full.json!.error).toBe('out of gas');
  });

  test('JavaScript tracers: an opcode counter agrees with the struct logger; frames, db, ctx and the helpers answer as geth', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 777n })]);
    const structLogs = (await traceTx(msgs[0]!, height)).json!.structLogs as { op: string }[];
    const counter = '{count: 0, ops: {}, step: function(log, db) { this.count++; var op = log.op.toString(); this.ops[op] = (this.ops[op] || 0) + 1; }, fault: function() {}, result: function() { return {count: this.count, ops: this.ops}; }}';
    const counted = await traceTx(msgs[0]!, height, { tracer: counter });
    expect(counted.response.log).toBe('');
    expect(counted.json!.count).toBe(structLogs.length);
    const byOp: Record<string, number> = {};
    for (const log of structLogs) byOp[log.op] = (byOp[log.op] ?? 0) + 1;
    expect(counted.json!.ops).toEqual(byOp);

    const rich = `{
      frames: [], sstores: [], setupSeen: null,
      setup: function(config) { this.setupSeen = JSON.parse(config).tag; },
      step: function(log, db) {
        if (log.op.toString() === 'SSTORE') this.sstores.push({ slot: log.stack.peek(0).toString(16), value: log.stack.peek(1).valueOf(), depth: log.getDepth(),
          address: toHex(log.contract.getAddress()), caller: toHex(log.contract.getCaller()), value2: log.contract.getValue().toString(), stackLength: log.stack.length() });
      },
      enter: function(frame) { this.frames.push({ type: frame.getType(), from: toHex(frame.getFrom()), to: toHex(frame.getTo()), value: frame.getValue().toString(), gas: frame.getGas() > 0 }); },
      exit: function(result) { this.frames.push({ gasUsed: result.getGasUsed() > 2000, error: result.getError() === undefined }); },
      fault: function() {},
      result: function(ctx, db) {
        return { type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), value: ctx.value.toString(10), gasUsed: ctx.gasUsed > 0, intrinsicGas: ctx.intrinsicGas,
          block: ctx.block, hashes: [typeof ctx.blockHash, typeof ctx.txIndex, typeof ctx.txHash], time: typeof ctx.time,
          receiverStorage: toHex(db.getState(toAddress('${contracts.receiver}'), toWord('0x0'))), receiverBalance: db.getBalance(toAddress('${contracts.receiver}')).toString(),
          nonce: db.getNonce(ctx.from) > 0, code: db.getCode(toAddress('${contracts.receiver}')).length, exists: db.exists(ctx.to), precompiled: [isPrecompiled(toAddress('0x1')), isPrecompiled(ctx.to)],
          contract: toHex(toContract(ctx.from, 0)), word: toHex(toWord('0x0102')), sliced: toHex(slice(ctx.input, 30, 32)), big: bigInt('ff', 16).add(1).toString(),
          setup: this.setupSeen, frames: this.frames, sstores: this.sstores,
          sandbox: [typeof require, typeof process, typeof Buffer, typeof setTimeout, typeof Promise] };
      }
    }`;
    const { response, json } = await traceTx(msgs[0]!, height, { tracer: rich, tracerJsonConfig: '{"tag": "t1"}' });
    expect(response.log).toBe('');
    expect(json).toMatchObject({
      type: 'CALL',
      from: wallet.address.toLowerCase(),
      to: contracts.forwarder,
      value: '777',
      gasUsed: true,
      intrinsicGas: getBytes(word(contracts.receiver!)).reduce((sum, b) => sum + (b === 0 ? 4 : 16), 21000),
      block: height,
      // no block hash in this request: geth's ctx then has no blockHash / txIndex / txHash
      hashes: ['undefined', 'undefined', 'undefined'],
      time: 'string',
      receiverStorage: `0x${(777).toString(16).padStart(64, '0')}`,
      nonce: true,
      code: RECEIVER.length / 2,
      exists: true,
      precompiled: [true, false],
      contract: getCreateAddress({ from: wallet.address, nonce: 0 }).toLowerCase(),
      word: `0x${'0102'.padStart(64, '0')}`,
      big: '256',
      setup: 't1',
      frames: [{ type: 'CALL', from: contracts.forwarder, to: contracts.receiver, value: '777', gas: true }, { gasUsed: true, error: true }],
      sstores: [{ slot: '0', value: 777, depth: 2, address: contracts.receiver, caller: contracts.forwarder, value2: '777', stackLength: 2 }],
      sandbox: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
    });
    expect(BigInt(json!.receiverBalance)).toBeGreaterThanOrEqual(777n); // after the traced tx (earlier tests sent it value too)
    expect(json!.sliced).toBe(`0x${contracts.receiver!.slice(-4)}`);
    // fault(log, db) sees the error of a frame that ran code (geth calls it for a REVERT too)
    const reverted = await block([await send({ to: contracts.reverter, gasLimit: 100_000n })]);
    const faults = await traceTx(reverted.msgs[0]!, reverted.height, { tracer: '{faults: [], fault: function(log) { this.faults.push([log.op.toString(), log.getError()]); }, result: function(ctx) { return {faults: this.faults, error: ctx.error, output: toHex(ctx.output).length > 2}; }}' });
    expect(faults.json).toEqual({ faults: [['REVERT', 'execution reverted']], error: 'execution reverted', output: true });
  });

  test('geth’s other named tracers: opcount, unigram, bigram, trigram, 4byte, noop', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 3n })]);
    const structLogs = (await traceTx(msgs[0]!, height)).json!.structLogs as { op: string; depth: number }[];
    const named = async (tracer: string) => (await traceTx(msgs[0]!, height, { tracer })).json;
    expect(await named('opcountTracer')).toBe(structLogs.length);
    const unigram: Record<string, number> = {};
    const bigram: Record<string, number> = {};
    for (const [i, log] of structLogs.entries()) {
      unigram[log.op] = (unigram[log.op] ?? 0) + 1;
      const previous = structLogs[i - 1];
      if (previous !== undefined && previous.depth === log.depth) bigram[`${previous.op}-${log.op}`] = (bigram[`${previous.op}-${log.op}`] ?? 0) + 1;
    }
    expect(await named('unigramTracer')).toEqual(unigram);
    expect(await named('bigramTracer')).toEqual(bigram);
    const trigram = (await named('trigramTracer')) as Record<string, number>;
    expect(Object.values(trigram).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // the top call's input is a 32-byte word, no selector-sized prefix matters: 0x<first 4>-28
    expect(await named('4byteTracer')).toEqual({ [`${word(contracts.receiver!).slice(0, 10)}-28`]: 1 });
    expect(await named('noopTracer')).toEqual({});
  });

  test('JavaScript tracers: a tracer that loops forever is stopped by the timeout; errors carry geth’s wording; the sandbox has no way out', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 5n })]);
    const loops: [string, string][] = [
      ['{step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1; }}', 'step'],
      ['{step: function() { while (true) { try { for (;;) {} } catch (e) {} } }, fault: function() {}, result: function() { return 1; }}', 'step'],
      ['{n: 0, step: function() { for (;;) { try { this.n++; } finally { continue; } } }, fault: function() {}, result: function() { return 1; }}', 'step'],
      ['{fault: function() {}, result: function() { var f = function() { return [1].map(function() { return f(); }); }; try { f(); } catch (e) {} for (;;) {} }}', 'result'],
      ['{enter: function() { do ; while (1) }, exit: function() {}, fault: function() {}, result: function() { return 1; }}', 'enter'],
    ];
    for (const [tracer, fn] of loops) {
      const { response } = await traceTx(msgs[0]!, height, { tracer, timeout: '150ms' });
      expect(response.code).not.toBe(0);
      expect(response.log).toContain(`execution timeout    in server-side tracer function '${fn}'`);
    }
    // The instrumented source keeps its meaning: nested unbraced loops, labels, arrow bodies.
    const shapes = '{fault: function() {}, result: function() { var n = 0; for (var i = 0; i < 3; i++) for (var j = 0; j < 2; j++) n++; var f = () => ({ n: n }); outer: while (true) do { break outer; } while (true); return [f(), [1, 2].map(x => x * 2), (function* () { yield 1; yield 2; })().next().value]; }}';
    expect((await traceTx(msgs[0]!, height, { tracer: shapes })).json).toEqual([{ n: 6 }, [2, 4], 1]);
    // The default budget (5 s) applies without a timeout: a quick tracer is untouched by it.
    expect((await traceTx(msgs[0]!, height, { tracer: '{fault: function() {}, result: function() { return "ok"; }}' })).json).toBe('ok');

    const errors: [string, RegExp][] = [
      ['{step: function(log) { log.stack.peek(99); }, fault: function() {}, result: function() { return 1; }}', /tracer accessed out of bound stack: size \d+, index 99 {4}in server-side tracer function 'step'/],
      ['{step: function(log) { try { log.memory.slice(0, 4096); } catch (e) {} }, fault: function() {}, result: function() { return 1; }}', /tracer accessed out of bound memory: available \d+, offset 0, size 4096 {4}in server-side tracer function 'step'/],
      ['{fault: function() {}, result: function() { return undefinedThing.x; }}', /ReferenceError: undefinedThing is not defined {4}in server-side tracer function 'result'/],
      ['{fault: function() {}, result: function() { return this.constructor.constructor("return process")(); }}', /EvalError: Code generation from strings disallowed for this context {4}in server-side tracer function 'result'/],
      ['{fault: function() {}, result: function() { return eval("1"); }}', /ReferenceError: eval is not defined/],
      ['{fault: function() {}, result: function() { return toHex("0x12"); }}', /invalid buffer type {4}in server-side tracer function 'result'/],
      ['{setup: function() { throw new Error("no"); }, fault: function() {}, result: function() { return 1; }}', /desc = tracer not found/],
      ['{fault: async function() {}, result: function() { return 1; }}', /desc = tracer not found/],
      ['{step: function() {}, enter: function() {}, fault: function() {}, result: function() { return 1; }}', /desc = tracer not found/],
    ];
    for (const [tracer, text] of errors) {
      const { response } = await traceTx(msgs[0]!, height, { tracer });
      expect(response.code).not.toBe(0);
      expect(response.log).toMatch(text);
    }
  });

  test('over HTTP: GET /evmx/evm/v1/trace_tx and /ethermint/evm/v1/trace_block with the spec query parameters', async () => {
    const { msgs, height } = await block([await send({ to: contracts.forwarder, data: word(contracts.receiver!), value: 21n })]);
    const api = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: 'tcp://127.0.0.1:0', maxBodyBytes: 64 * 1024 } });
    const { url } = await api.start();
    try {
      const msg = msgs[0]!;
      const query = new URLSearchParams({
        'msg.data.type_url': msg.data!.typeUrl,
        'msg.data.value': Buffer.from(msg.data!.value).toString('base64'),
        'msg.hash': msg.hash,
        'msg.from': msg.from,
        'trace_config.tracer': 'callTracer',
        'trace_config.tracer_json_config': '{"onlyTopCall":true}',
        block_number: String(height),
        chain_id: String(CHAIN),
      });
      const headers = { 'x-cosmos-block-height': String(height - 1) };
      const res = await fetch(`${url}/evmx/evm/v1/trace_tx?${query}`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: string };
      const trace = JSON.parse(Buffer.from(body.data, 'base64').toString('utf8')) as Record<string, unknown>;
      expect(trace).toMatchObject({ type: 'CALL', to: contracts.forwarder, value: '0x15' });
      expect(trace.calls).toBeUndefined();

      // The spec's trace_block parameters carry no txs (a message list does not fit a query
      // string): the route answers, with Ethermint's empty list.
      const blockQuery = new URLSearchParams({ 'trace_config.disable_stack': 'true', block_number: String(height), chain_id: String(CHAIN) });
      const blockRes = await fetch(`${url}/ethermint/evm/v1/trace_block?${blockQuery}`, { headers });
      expect(blockRes.status).toBe(200);
      expect(JSON.parse(Buffer.from(((await blockRes.json()) as { data: string }).data, 'base64').toString('utf8'))).toEqual([]);

      // A JavaScript tracer through trace_config.tracer.
      query.set('trace_config.tracer', '{n: 0, step: function() { this.n++; }, fault: function() {}, result: function(ctx) { return {steps: this.n, type: ctx.type}; }}');
      const js = await fetch(`${url}/evmx/evm/v1/trace_tx?${query}`, { headers });
      expect(js.status).toBe(200);
      const jsTrace = JSON.parse(Buffer.from(((await js.json()) as { data: string }).data, 'base64').toString('utf8')) as { steps: number; type: string };
      expect(jsTrace.type).toBe('CALL');
      expect(jsTrace.steps).toBeGreaterThan(10);

      const bad = await fetch(`${url}/evmx/evm/v1/trace_tx?${query}&trace_config.limit=-3`, { headers });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toMatch(/output limit cannot be negative, got -3/);
    } finally {
      await api.stop();
    }
  });

  test('Go durations', () => {
    expect(parseGoDuration('5s')).toBe(5000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('300ms')).toBe(300);
    expect(parseGoDuration('1.5h')).toBe(5_400_000);
    expect(() => parseGoDuration('5')).toThrow(/invalid duration "5"/);
  });
});
