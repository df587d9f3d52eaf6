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
      [{ tracer: '{step: function() {}, result: function() {}, fault: function() {}}' }, /JavaScript tracers are not supported/],
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
