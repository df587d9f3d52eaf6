/**
 * The debug namespace through the real JSON-RPC server of an in-process node: ethers deploys a
 * forwarder and a receiver, sends value through the forwarder (an exchange's internal transfer),
 * and debug_traceTransaction with callTracer describes the nested CALL — the same through ethers'
 * provider.send and a bare fetch; the struct logger, traceBlockByNumber / ByHash and traceCall
 * answer; bad input gets one JSON-RPC error each; without `debug` in `[json-rpc] api` the methods
 * answer -32601.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet, type HDNodeWallet } from 'ethers';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import type { RunningNode } from '../../../src/node/node.js';
import { removeHomes, startFast, waitFor } from '../faults/helpers.js';

jest.setTimeout(120_000);

const homes: string[] = [];
let node: RunningNode;
let plain: RunningNode;
let wallet: HDNodeWallet;
let provider: JsonRpcProvider;
let url: string;

// Receiver: sstore(0, callvalue); stop. Forwarder: call(gas, calldataload(0), callvalue, 0, 0, 0, 0); pop; stop
const RECEIVER = '3460005500';
const FORWARDER = '6000600060006000346000355af15000';
const deployCode = (runtime: string) => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;

async function rpc(target: string, method: string, params: unknown[] = []): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function devnet(label: string): Promise<{ home: string; mnemonic: string }> {
  const home = mkdtempSync(join(tmpdir(), `tokend-${label}-`));
  homes.push(home);
  const info = await ensureDevnet(home);
  return { home, mnemonic: info.mnemonic! };
}

let receiver: string;
let forwarder: string;
let txHash: string;
let txBlock: number;

beforeAll(async () => {
  const { home, mnemonic } = await devnet('debug');
  node = await startFast(home, { jsonRpcApi: 'eth,net,web3,debug' });
  url = node.jsonRpcAddress!.url;
  provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 200, cacheTimeout: -1 });
  wallet = Wallet.fromPhrase(mnemonic, provider);
  plain = await startFast((await devnet('no-debug')).home);
  // The genesis state (the gentx moved the dev account's sequence to 1) is queryable once block 1
  // is committed: a nonce read before then is 0.
  await waitFor(async () => (await provider.getBlockNumber()) >= 1, 'height 1 committed');
  const fees = { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n };
  const r = await (await wallet.sendTransaction({ data: deployCode(RECEIVER), gasLimit: 200_000n, ...fees })).wait();
  const f = await (await wallet.sendTransaction({ data: deployCode(FORWARDER), gasLimit: 200_000n, ...fees })).wait();
  receiver = r!.contractAddress!.toLowerCase();
  forwarder = f!.contractAddress!.toLowerCase();
  const sent = await wallet.sendTransaction({ to: forwarder, data: `0x${receiver.slice(2).padStart(64, '0')}`, value: 4242n, gasLimit: 150_000n, ...fees });
  const receipt = await sent.wait();
  expect(receipt!.status).toBe(1);
  txHash = sent.hash;
  txBlock = receipt!.blockNumber;
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
  await plain?.stop();
  removeHomes(homes);
});

describe('debug namespace', () => {
  it('debug_traceTransaction with callTracer describes the internal transfer; ethers and a bare request agree', async () => {
    const viaEthers = (await provider.send('debug_traceTransaction', [txHash, { tracer: 'callTracer' }])) as Record<string, any>;
    const bare = await rpc(url, 'debug_traceTransaction', [txHash, { tracer: 'callTracer' }]);
    expect(bare.result).toEqual(viaEthers);
    expect(viaEthers).toMatchObject({
      type: 'CALL',
      from: wallet.address.toLowerCase(),
      to: forwarder,
      value: '0x1092',
      gas: '0x249f0',
      calls: [{ type: 'CALL', from: forwarder, to: receiver, value: '0x1092', input: '0x' }],
    });
    const receipt = await provider.getTransactionReceipt(txHash);
    expect(BigInt(viaEthers.gasUsed)).toBe(receipt!.gasUsed);
  });

  it('the struct logger, traceBlockByNumber / ByHash and traceCall answer', async () => {
    const logs = (await rpc(url, 'debug_traceTransaction', [txHash])).result;
    expect(logs.failed).toBe(false);
    expect(logs.structLogs.map((l: { op: string }) => l.op)).toContain('CALL');
    expect(logs.structLogs.filter((l: { depth: number }) => l.depth === 2).map((l: { op: string }) => l.op)).toEqual(['CALLVALUE', 'PUSH1', 'SSTORE', 'STOP']);

    const byNumber = (await rpc(url, 'debug_traceBlockByNumber', [`0x${txBlock.toString(16)}`, { tracer: 'callTracer' }])).result as { result: Record<string, unknown> }[];
    expect(byNumber).toHaveLength(1);
    expect(byNumber[0]!.result).toMatchObject({ to: forwarder, value: '0x1092' });
    const block = await provider.getBlock(txBlock);
    const byHash = (await rpc(url, 'debug_traceBlockByHash', [block!.hash, { tracer: 'callTracer' }])).result;
    expect(byHash).toEqual(byNumber);

    const call = (await rpc(url, 'debug_traceCall', [{ from: wallet.address, to: forwarder, data: `0x${receiver.slice(2).padStart(64, '0')}`, value: '0x7' }, 'latest', { tracer: 'callTracer' }])).result;
    expect(call).toMatchObject({ type: 'CALL', to: forwarder, calls: [{ type: 'CALL', from: forwarder, to: receiver, value: '0x7' }] });
    // nothing was written by the traced call
    expect(await provider.getStorage(receiver, 0)).toBe(`0x${(4242).toString(16).padStart(64, '0')}`);
  });

  it('bad input: one clear JSON-RPC error each', async () => {
    const unknownTracer = await rpc(url, 'debug_traceTransaction', [txHash, { tracer: 'fooTracer' }]);
    expect(unknownTracer.error).toEqual({ code: -32000, message: 'tracer not found' });
    // A tracer without fault() is not a tracer (geth 1.10 folds every construction error into this).
    const script = await rpc(url, 'debug_traceTransaction', [txHash, { tracer: '{step: function(log) {}, result: function() { return 1; }}' }]);
    expect(script.error).toEqual({ code: -32000, message: 'tracer not found' });
    expect((await rpc(url, 'debug_traceTransaction', [txHash, { tracer: '{step: function(log) {, fault: function() {}}' }])).error).toEqual({ code: -32000, message: 'tracer not found' });
    const badHash = await rpc(url, 'debug_traceTransaction', ['0x1234']);
    expect(badHash.error).toEqual({ code: -32602, message: 'invalid argument 0: hex string has length 4, want 64 for common.Hash' });
    const unknown = `0x${'ab'.repeat(32)}`;
    expect((await rpc(url, 'debug_traceTransaction', [unknown])).error).toEqual({ code: -32000, message: `GetTxByEthHash ${unknown}: ethereum tx not found` });
    expect((await rpc(url, 'debug_traceTransaction', [txHash, { disableStack: 'yes' }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go struct field TraceConfig.disableStack of type bool',
    });
    expect((await rpc(url, 'debug_traceTransaction', [txHash, { timeout: 'later' }])).error?.message).toBe('timeout value: time: invalid duration "later"');
    expect((await rpc(url, 'debug_traceBlockByHash', [`0x${'cd'.repeat(32)}`])).error).toEqual({ code: -32000, message: 'block not found' });
  });

  it('JavaScript tracers: an opcode counter matches the struct logger; ctx names the tx; a tracer looping forever is stopped by the timeout and the node keeps serving', async () => {
    const structLogs = (await rpc(url, 'debug_traceTransaction', [txHash])).result.structLogs as unknown[];
    const counter = '{count: 0, step: function(log) { this.count++; }, fault: function() {}, result: function(ctx) { return {count: this.count, txHash: ctx.txHash ? toHex(ctx.txHash) : null, txIndex: ctx.txIndex, to: toHex(ctx.to)}; }}';
    const counted = (await provider.send('debug_traceTransaction', [txHash, { tracer: counter }])) as Record<string, unknown>;
    expect(counted).toEqual({ count: structLogs.length, txHash, txIndex: 0, to: forwarder });
    const byNumber = (await rpc(url, 'debug_traceBlockByNumber', [`0x${txBlock.toString(16)}`, { tracer: counter }])).result as { result: Record<string, unknown> }[];
    expect(byNumber).toEqual([{ result: counted }]);
    const call = (await rpc(url, 'debug_traceCall', [{ from: wallet.address, to: receiver, value: '0x1' }, 'latest', { tracer: counter }])).result;
    expect(call).toEqual({ count: 4, to: receiver, txHash: null }); // CALLVALUE PUSH1 SSTORE STOP; a call has no tx hash

    const height = await provider.getBlockNumber();
    const loop = await rpc(url, 'debug_traceTransaction', [txHash, { tracer: '{step: function() { for (;;) {} }, fault: function() {}, result: function() { return 1; }}', timeout: '300ms' }]);
    expect(loop.error).toEqual({ code: -32000, message: "execution timeout    in server-side tracer function 'step'" });
    // still serving, and still producing blocks
    expect((await rpc(url, 'eth_chainId')).result).toMatch(/^0x/);
    await waitFor(async () => (await provider.getBlockNumber()) > height, 'a new block after the timed-out trace');
  });

  it('is refused with -32601 when debug is not in [json-rpc] api', async () => {
    const target = plain.jsonRpcAddress!.url;
    for (const method of ['debug_traceTransaction', 'debug_traceBlockByNumber', 'debug_traceBlockByHash', 'debug_traceCall']) {
      expect((await rpc(target, method, [txHash])).error).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` });
    }
  });
});
