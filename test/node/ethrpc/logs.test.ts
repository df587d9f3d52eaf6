/**
 * eth_getLogs reads logs from the blocks' results (no tx decoded) and passes over blocks whose
 * bloom — the evm module's `block_bloom` EndBlock event — rules the filter out. The logs it
 * returns are the receipts' logs, numbered the same way; blocks without logs carry no bloom, and
 * every block the node wrote carries one exactly when a tx in it left logs — which is what lets
 * eth_getLogs pass over a block without a bloom unread, and the block's logsBloom come from the
 * stored bloom (the same as the bloom of its logs).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet, type HDNodeWallet } from 'ethers';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import type { RunningNode } from '../../../src/node/node.js';
import { bloomMayContain } from '../../../src/node/modules/evm/bloom.js';
import { bloom } from '../../../src/node/ethrpc/backend.js';
import { TRANSFER_TOPIC, counterTopic, logContractInitCode } from '../../helpers/logContract.js';
import { removeHomes, startFast, waitFor } from '../faults/helpers.js';

jest.setTimeout(90_000);

const homes: string[] = [];
let node: RunningNode;
let wallet: HDNodeWallet;
let provider: JsonRpcProvider;
let url: string;
let contract: string;
let calls: { hash: string; blockNumber: number; logs: Record<string, unknown>[] }[];
/** Blocks of Ethereum txs that left no logs: a value transfer, a call that ran out of gas. */
let quiet: { blockNumber: number; status: string }[];

async function rpc(method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

const blockBloom = (height: number): string | undefined =>
  node.consensus.stateStore.loadFinalizeBlockResponse(height)?.events.find((e) => e.type === 'block_bloom')?.attributes.find((a) => a.key === 'bloom')?.value;

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'tokend-logs-'));
  homes.push(home);
  const { mnemonic } = await ensureDevnet(home);
  node = await startFast(home);
  url = node.jsonRpcAddress!.url;
  // The JSON-RPC's latest block is the last one the app committed (the block store runs ahead).
  let latest = 0;
  while (latest < 1) latest = Number((await rpc('eth_blockNumber')).result ?? 0);
  provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 200, cacheTimeout: -1 });
  wallet = Wallet.fromPhrase(mnemonic!, provider);
  const fee = { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n };
  const deploy = await (await wallet.sendTransaction({ data: logContractInitCode(3), gasLimit: 200_000n, ...fee })).wait();
  contract = deploy!.contractAddress!;
  calls = [];
  for (let i = 0; i < 2; i++) {
    const receipt = (await (await wallet.sendTransaction({ to: contract, gasLimit: 100_000n, ...fee })).wait())!;
    const raw = (await rpc('eth_getTransactionReceipt', [receipt.hash])).result as { logs: Record<string, unknown>[] };
    calls.push({ hash: receipt.hash, blockNumber: receipt.blockNumber, logs: raw.logs });
  }
  quiet = [];
  for (const tx of [{ to: `0x${'22'.repeat(20)}`, value: 1n, gasLimit: 21_000n }, { to: contract, gasLimit: 22_000n }]) {
    const sent = await wallet.sendTransaction({ ...tx, ...fee });
    let receipt: { blockNumber: string; status: string } | undefined;
    await waitFor(async () => (receipt = (await rpc('eth_getTransactionReceipt', [sent.hash])).result as typeof receipt) != null, 'a receipt');
    quiet.push({ blockNumber: Number(receipt!.blockNumber), status: receipt!.status });
  }
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
  removeHomes(homes);
});

describe('eth_getLogs', () => {
  it('returns the receipts\' logs for a block, numbered as the receipts number them', async () => {
    for (const call of calls) {
      expect(call.logs).toHaveLength(3);
      const block = `0x${call.blockNumber.toString(16)}`;
      const logs = (await rpc('eth_getLogs', [{ fromBlock: block, toBlock: block, address: contract }])).result as Record<string, unknown>[];
      expect(logs.filter((log) => log.transactionHash === call.hash)).toEqual(call.logs);
    }
  });

  it('filters by topic position across the range', async () => {
    const from = `0x${calls[0]!.blockNumber.toString(16)}`;
    const to = `0x${calls[1]!.blockNumber.toString(16)}`;
    const logs = (await rpc('eth_getLogs', [{ fromBlock: from, toBlock: to, topics: [TRANSFER_TOPIC, counterTopic(2)] }])).result as Record<string, unknown>[];
    expect(logs).toEqual(calls.map((call) => call.logs.find((log) => (log.topics as string[])[1] === counterTopic(2))));
    // Alternatives within a position, and a position left open.
    const either = (await rpc('eth_getLogs', [{ fromBlock: from, toBlock: to, topics: [null, [counterTopic(1), counterTopic(3)]] }])).result as unknown[];
    expect(either).toHaveLength(4);
    // A value no log has, an address no log comes from: nothing.
    expect((await rpc('eth_getLogs', [{ fromBlock: from, toBlock: to, topics: [TRANSFER_TOPIC, counterTopic(9)] }])).result).toEqual([]);
    expect((await rpc('eth_getLogs', [{ fromBlock: from, toBlock: to, address: `0x${'11'.repeat(20)}` }])).result).toEqual([]);
    // The address filter is case-insensitive (checksummed or not).
    expect((await rpc('eth_getLogs', [{ fromBlock: from, toBlock: to, address: contract.toLowerCase(), topics: [null, counterTopic(3)] }])).result).toHaveLength(2);
  });

  it('a block with logs carries their bloom; a block without logs carries none', async () => {
    const bloomHex = blockBloom(calls[0]!.blockNumber);
    expect(bloomHex).toMatch(/^0x[0-9a-f]{512}$/);
    const bloom = Buffer.from(bloomHex!.slice(2), 'hex');
    expect(bloomMayContain(bloom, Buffer.from(contract.slice(2), 'hex'))).toBe(true);
    expect(bloomMayContain(bloom, Buffer.from(TRANSFER_TOPIC.slice(2), 'hex'))).toBe(true);
    expect(bloomMayContain(bloom, Buffer.from(counterTopic(3).slice(2), 'hex'))).toBe(true);
    // The block header's logsBloom is the same bloom.
    const block = (await rpc('eth_getBlockByNumber', [`0x${calls[0]!.blockNumber.toString(16)}`, false])).result as { logsBloom: string };
    expect(block.logsBloom).toBe(bloomHex);
    const after = node.consensus.status().latestBlockHeight;
    await waitFor(() => node.consensus.status().latestBlockHeight > after + 1, 'an empty block');
    expect(blockBloom(after + 1)).toBeUndefined();
  });

  it('every block carries a bloom exactly when a tx in it left logs, and its logsBloom is that bloom (or the empty one)', async () => {
    expect(quiet.map((q) => q.status)).toEqual(['0x1', '0x0']);
    for (const q of quiet) expect(blockBloom(q.blockNumber)).toBeUndefined();
    const latest = Number((await rpc('eth_blockNumber')).result);
    for (let h = 1; h <= latest; h++) {
      const response = node.consensus.stateStore.loadFinalizeBlockResponse(h)!;
      const logged = response.txResults.some((r) => r.code === 0 && r.events.some((e) => e.type === 'tx_log' && e.attributes.some((a) => a.key === 'txLog')));
      expect([h, blockBloom(h) !== undefined]).toEqual([h, logged]);
      const block = (await rpc('eth_getBlockByNumber', [`0x${h.toString(16)}`, false])).result as { logsBloom: string };
      const logs = (await rpc('eth_getLogs', [{ fromBlock: `0x${h.toString(16)}`, toBlock: `0x${h.toString(16)}` }])).result as { address: string; topics: string[] }[];
      expect(block.logsBloom).toBe(`0x${Buffer.from(bloom(logs)).toString('hex')}`);
      if (!logged) expect(block.logsBloom).toBe(`0x${'0'.repeat(512)}`);
    }
    // No filter over the whole range: every receipt's log, and nothing from the blocks without.
    const all = (await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: `0x${latest.toString(16)}` }])).result as unknown[];
    expect(all).toEqual(calls.flatMap((call) => call.logs));
  });
});
