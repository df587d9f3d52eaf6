/**
 * `[json-rpc] api` namespaces and the txpool namespace: a tx sent with eth_sendRawTransaction
 * waits in the mempool (blocks 6 s apart keep the next block away) and txpool_content,
 * txpool_contentFrom, txpool_inspect and txpool_status show it as geth does; a namespace that is
 * not enabled answers -32601; an unknown namespace in app.toml refuses the start.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet, type HDNodeWallet } from 'ethers';
import { appTomlPath } from '../../../src/node/config/node.js';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import type { RunningNode } from '../../../src/node/node.js';
import { removeHomes, startFast, waitFor } from '../faults/helpers.js';

jest.setTimeout(90_000);

const homes: string[] = [];
let node: RunningNode;
let plain: RunningNode;
let wallet: HDNodeWallet;
let url: string;

async function rpc(target: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function devnet(label: string): Promise<{ home: string; mnemonic: string }> {
  const home = mkdtempSync(join(tmpdir(), `tokend-${label}-`));
  homes.push(home);
  const info = await ensureDevnet(home);
  return { home, mnemonic: info.mnemonic! };
}

beforeAll(async () => {
  const { home, mnemonic } = await devnet('txpool');
  // Blocks 6 s apart: a tx sent just after a commit stays in the pool for seconds.
  node = await startFast(home, { jsonRpcApi: 'eth,net,web3,txpool', nodeConfig: (c) => void (c.consensus.timeoutCommitMs = 6_000) });
  await waitFor(() => node.consensus.status().latestBlockHeight >= 1, 'height 1');
  url = node.jsonRpcAddress!.url;
  wallet = Wallet.fromPhrase(mnemonic, new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 }));
  plain = await startFast((await devnet('eth-only')).home);
});

afterAll(async () => {
  (wallet?.provider as JsonRpcProvider | undefined)?.destroy();
  await node?.stop();
  await plain?.stop();
  removeHomes(homes);
});

describe('txpool namespace', () => {
  it('shows a pending Ethereum tx as geth does, and an empty pool once it is committed', async () => {
    const to = Wallet.createRandom().address;
    // Start right after a commit: the next block is timeout_commit away.
    const before = node.consensus.status().latestBlockHeight;
    await waitFor(() => node.consensus.status().latestBlockHeight > before, 'a fresh block');
    const height = node.consensus.status().latestBlockHeight;
    const sent = await wallet.sendTransaction({ to, value: 5n, gasLimit: 21000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n });
    // Still in the pool: no block since (the next one is 30 s away).
    expect(node.consensus.status().latestBlockHeight).toBe(height);
    // The pending nonce counts it; the latest does not.
    expect((await rpc(url, 'eth_getTransactionCount', [wallet.address, 'pending'])).result).toBe(`0x${(sent.nonce + 1).toString(16)}`);
    expect((await rpc(url, 'eth_getTransactionCount', [wallet.address, 'latest'])).result).toBe(`0x${sent.nonce.toString(16)}`);
    const status = (await rpc(url, 'txpool_status')).result;
    expect(status).toEqual({ pending: '0x1', queued: '0x0' });
    const content = (await rpc(url, 'txpool_content')).result as { pending: Record<string, Record<string, Record<string, unknown>>>; queued: object };
    expect(Object.keys(content.pending)).toEqual([wallet.address]); // EIP-55 checksummed, as geth's keys
    const entry = content.pending[wallet.address]![String(sent.nonce)]!;
    expect(entry).toMatchObject({ hash: sent.hash, from: wallet.address.toLowerCase(), to: to.toLowerCase(), value: '0x5', nonce: `0x${sent.nonce.toString(16)}`, blockHash: null, blockNumber: null, transactionIndex: null, type: '0x2' });
    expect(content.queued).toEqual({});
    const from = (await rpc(url, 'txpool_contentFrom', [wallet.address])).result as { pending: Record<string, { hash: string }> };
    expect(from.pending[String(sent.nonce)]!.hash).toBe(sent.hash);
    expect((await rpc(url, 'txpool_contentFrom', [to])).result).toEqual({ pending: {}, queued: {} });
    const inspect = (await rpc(url, 'txpool_inspect')).result as { pending: Record<string, Record<string, string>> };
    expect(inspect.pending[wallet.address]![String(sent.nonce)]).toBe(`${to}: 5 wei + 21000 gas × 1000000000000 wei`);
    const bad = await rpc(url, 'txpool_contentFrom', ['0x1234']);
    expect(bad.error?.code).toBe(-32602);

    await waitFor(async () => (await rpc(url, 'txpool_status')).result !== undefined && ((await rpc(url, 'txpool_status')).result as { pending: string }).pending === '0x0', 'the tx committed', 60_000);
    expect((await rpc(url, 'txpool_content')).result).toEqual({ pending: {}, queued: {} });
  });

  it('is off by default: eth, net and web3 only', async () => {
    const target = plain.jsonRpcAddress!.url;
    expect((await rpc(target, 'txpool_status')).error).toEqual({ code: -32601, message: 'the method txpool_status does not exist/is not available' });
    expect((await rpc(target, 'eth_chainId')).result).toMatch(/^0x/);
  });

  it('an unknown namespace in app.toml or --json-rpc.api refuses the start with one line naming it', async () => {
    const { home } = await devnet('bad-api');
    const path = appTomlPath(home);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^api = .*$/m, 'api = "eth,net,web3,ethh"'));
    await expect(startFast(home)).rejects.toThrow('app.toml: json-rpc.api: unknown namespace ethh (known: eth, net, web3, txpool, debug, personal, miner)');
    await expect(startFast((await devnet('bad-api-flag')).home, { jsonRpcApi: 'eth,foo' })).rejects.toThrow('--json-rpc.api: unknown namespace foo (known: eth, net, web3, txpool, debug, personal, miner)');
  });
});
