/**
 * The EVM against a node started by the test, through clients no one here wrote: ethers v6 and
 * viem over the Ethereum JSON-RPC — chain id, balances (the same balance `q bank balances`
 * shows), an EIP-1559 value transfer signed the way MetaMask does, a contract deployed and
 * called, its logs read by getLogs and from the receipt, the call described by
 * debug_traceTransaction with callTracer; and the errors an Ethereum client sees
 * for a wrong chain id, a bad signature, a nonce too low and insufficient funds.
 */
import { rmSync } from 'node:fs';
import { jest } from '@jest/globals';
import { JsonRpcProvider, Transaction, Wallet, getBytes, hexlify, type TransactionReceipt } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http as viemHttp, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bech32 } from '@scure/base';
import WebSocket from 'ws';
import { cliOk as ok } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, spawnOnFreePorts, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(180_000);

const KB = ['--keyring-backend', 'test'];
const JUNK_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const JUNK_ETH = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
const CHAIN_ID = 9000;
// Runtime: sstore(0, calldataload(0)); mstore(0, it); log1(0, 32, 0x2a); return(0, 32)
const RUNTIME = '0x60003580600055600052602a60206000a160206000f3';
const INIT = '0x6016600c60003960166000f3' + RUNTIME.slice(2);
const TOPIC = '0x' + '2a'.padStart(64, '0');


function bech32Of(hex: string): string {
  return bech32.encode('token', bech32.toWords(getBytes(hex)));
}

describe('EVM over the Ethereum JSON-RPC', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let url: string;
  let wsUrl: string;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let contract: string;

  async function bankBalance(address: string): Promise<bigint> {
    const out = JSON.parse(await ok(['q', 'bank', 'balances', address, '--node', bg!.node, '-o', 'json']));
    return BigInt(out.balances.find((c: { denom: string }) => c.denom === 'attotoken')?.amount ?? '0');
  }

  async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: string } }> {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  }

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-evm-');
    fastBlocks(home);
    bg = await startOnFreePorts(home, 2, ['--json-rpc.api', 'eth,net,web3,debug']);
    wsUrl = bg.jsonRpcWs!;
    url = bg.jsonRpc!;
    // cacheTimeout -1: ethers otherwise answers an identical request made within 250 ms from its
    // cache — a nonce read ('pending') right after the previous tx's receipt would be the old one.
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 200, cacheTimeout: -1 });
    wallet = new Wallet(JUNK_KEY, provider);
  });

  afterAll(async () => {
    provider?.destroy();
    if (bg) await stopNode(bg);
  });

  test('a second node asked for the same JSON-RPC port exits with one line saying so', async () => {
    const other = await validatorHome('tokend-evm-busy-');
    try {
      const address = url.replace(/^http:\/\//, '');
      const second = spawnOnFreePorts(other, ['--json-rpc.address', address]);
      expect(await second.exited).not.toBe(0);
      expect(second.logs()).toContain(`cannot listen for the Ethereum JSON-RPC on ${address}: address already in use`);
      // The first node still answers.
      expect((await rpc('eth_chainId', [])).result).toBe(`0x${CHAIN_ID.toString(16)}`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('chain id, client version, block number, and one balance with two views', async () => {
    expect((await provider.getNetwork()).chainId).toBe(BigInt(CHAIN_ID));
    expect((await rpc('net_version', [])).result).toBe(String(CHAIN_ID));
    // init's app.toml serves the HTTP side on its own thread ([json-rpc] http-thread = true): every
    // call of this file goes through it.
    expect(bg!.logs()).toMatch(/Ethereum JSON-RPC listening.*thread=true/);
    expect((await rpc('web3_clientVersion', [])).result).toMatch(/^tokend\//);
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(2);
    expect(await provider.getBalance(JUNK_ETH)).toBe(await bankBalance(JUNK_ADDR));
    const block = await provider.getBlock('latest');
    expect(typeof block?.baseFeePerGas).toBe('bigint');
  });

  test('ethers: an EIP-1559 value transfer, seen by q bank balances; a Cosmos send seen by eth_getBalance', async () => {
    const to = Wallet.createRandom().address;
    const sent = await wallet.sendTransaction({ to, value: 123456789n });
    expect(sent.type).toBe(2);
    const receipt = (await sent.wait())!;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(21000n);
    expect(await bankBalance(bech32Of(to))).toBe(123456789n);
    expect(await provider.getBalance(to)).toBe(123456789n);
    const byHash = await provider.getTransaction(sent.hash);
    expect(byHash?.from).toBe(JUNK_ETH);
    expect(byHash?.blockNumber).toBe(receipt.blockNumber);

    const other = Wallet.createRandom().address;
    const cosmos = JSON.parse(await ok(['tx', 'send', 'alice', bech32Of(other), '777attotoken', '--fees', '200000attotoken', '--yes', '-b', 'block', '--node', bg!.node, ...KB, '--home', home, '-o', 'json']));
    expect(cosmos.code).toBe(0);
    expect(await provider.getBalance(other)).toBe(777n);
    // One counter for both kinds of tx: the gentx, the Ethereum tx, the Cosmos send.
    expect(await provider.getTransactionCount(JUNK_ETH)).toBe(3);
  });

  test('ethers: deploy a contract, call it, read its logs and storage', async () => {
    const deploy = await wallet.sendTransaction({ data: INIT });
    const deployed = (await deploy.wait())! as TransactionReceipt;
    expect(deployed.status).toBe(1);
    contract = deployed.contractAddress!;
    expect(await provider.getCode(contract)).toBe(RUNTIME);
    const value = '0x' + '07'.padStart(64, '0');
    expect(await provider.call({ to: contract, data: value })).toBe(value);
    const estimate = await provider.estimateGas({ from: JUNK_ETH, to: contract, data: value });
    expect(estimate).toBeGreaterThan(21000n);
    const call = await wallet.sendTransaction({ to: contract, data: value });
    const receipt = (await call.wait())!;
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0]!.topics).toEqual([TOPIC]);
    expect(receipt.logs[0]!.data).toBe(value);
    expect(await provider.getStorage(contract, 0)).toBe(value);
    // debug_traceTransaction with callTracer describes the call (the debug namespace is on).
    const trace = await provider.send('debug_traceTransaction', [call.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect(trace).toEqual({
      type: 'CALL',
      from: wallet.address.toLowerCase(),
      to: contract.toLowerCase(),
      gas: `0x${call.gasLimit.toString(16)}`,
      gasUsed: `0x${receipt.gasUsed.toString(16)}`,
      input: value,
      output: value,
      logs: [{ address: contract.toLowerCase(), topics: [TOPIC], data: value, position: '0x0' }],
      value: '0x0',
    });
    const logs = await provider.getLogs({ address: contract, fromBlock: deployed.blockNumber, toBlock: 'latest', topics: [TOPIC] });
    expect(logs.map((l) => l.transactionHash)).toEqual([call.hash]);
    const history = await provider.send('eth_feeHistory', ['0x4', 'latest', [50]]);
    expect(history.baseFeePerGas).toHaveLength(history.gasUsedRatio.length + 1);
  });

  test('filters: a log filter and a block filter polled with eth_getFilterChanges', async () => {
    const logFilter = (await rpc('eth_newFilter', [{ address: contract, topics: [TOPIC] }])).result as string;
    const blockFilter = (await rpc('eth_newBlockFilter', [])).result as string;
    const value = '0x' + '11'.padStart(64, '0');
    const call = await wallet.sendTransaction({ to: contract, data: value });
    await call.wait();
    let changes: { transactionHash: string; data: string }[] = [];
    for (let i = 0; i < 50 && changes.length === 0; i++) {
      changes = (await rpc('eth_getFilterChanges', [logFilter])).result as typeof changes;
      if (changes.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(changes.map((c) => [c.transactionHash, c.data])).toEqual([[call.hash, value]]);
    expect((await rpc('eth_getFilterChanges', [logFilter])).result).toEqual([]);
    expect(((await rpc('eth_getFilterChanges', [blockFilter])).result as string[]).length).toBeGreaterThanOrEqual(1);
    expect((await rpc('eth_uninstallFilter', [logFilter])).result).toBe(true);
    expect((await rpc('eth_getFilterChanges', [logFilter])).error).toEqual({ code: -32000, message: 'filter not found' });
  });

  test('websocket: eth_subscribe newHeads and logs deliver a new block and a contract log', async () => {
    const socket = new WebSocket(wsUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const messages: { id?: number; result?: string; method?: string; params?: { subscription: string; result: Record<string, unknown> } }[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(check()).toBe(true);
    };
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: contract }] }));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] }));
    await until(() => messages.filter((m) => m.id !== undefined).length === 3);
    const heads = messages.find((m) => m.id === 1)!.result!;
    const logsSub = messages.find((m) => m.id === 2)!.result!;
    expect(messages.find((m) => m.id === 3)!.result).toBe('0x2328');
    const value = '0x' + '22'.padStart(64, '0');
    const call = await wallet.sendTransaction({ to: contract, data: value });
    await call.wait();
    await until(() => messages.some((m) => m.params?.subscription === logsSub));
    const log = messages.find((m) => m.params?.subscription === logsSub)!.params!.result;
    expect(log).toMatchObject({ transactionHash: call.hash, data: value, topics: [TOPIC] });
    const head = messages.find((m) => m.params?.subscription === heads)!.params!.result;
    expect(head.number).toMatch(/^0x[0-9a-f]+$/);
    expect(head.hash).toMatch(/^0x[0-9a-f]{64}$/);
    socket.close();
  });

  test('viem: a value transfer and its receipt; getLogs', async () => {
    const chain = defineChain({ id: CHAIN_ID, name: 'tokend', nativeCurrency: { name: 'token', symbol: 'TOKEN', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const client = createPublicClient({ chain, transport: viemHttp(url) });
    const walletClient = createWalletClient({ chain, transport: viemHttp(url), account: privateKeyToAccount(JUNK_KEY) });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const to = Wallet.createRandom().address as `0x${string}`;
    const hash = await walletClient.sendTransaction({ to, value: parseEther('0.5') });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.5'));
    expect(await bankBalance(bech32Of(to))).toBe(parseEther('0.5'));
    const logs = await client.getLogs({ fromBlock: 1n, toBlock: 'latest' });
    expect(logs.length).toBeGreaterThanOrEqual(1);
  });

  test('bad input: Ethermint’s errors, nothing changes, the node keeps serving', async () => {
    const before = await provider.getBalance(JUNK_ETH);
    const nonce = await provider.getTransactionCount(JUNK_ETH);
    const feeData = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, gasLimit: 21000n, type: 2 };
    const wrongChain = await new Wallet(JUNK_KEY).signTransaction({ ...feeData, chainId: 1n, nonce, to: JUNK_ETH, value: 1n });
    expect((await rpc('eth_sendRawTransaction', [wrongChain])).error?.message).toMatch(/invalid chain id for signer/);
    const tooLow = await new Wallet(JUNK_KEY).signTransaction({ ...feeData, chainId: BigInt(CHAIN_ID), nonce: 0, to: JUNK_ETH, value: 1n });
    expect((await rpc('eth_sendRawTransaction', [tooLow])).error?.message).toBe(`invalid nonce; got 0, expected ${nonce}: invalid sequence`);
    const poor = Wallet.createRandom();
    const broke = await poor.signTransaction({ ...feeData, chainId: BigInt(CHAIN_ID), nonce: 0, to: JUNK_ETH, value: 1n });
    expect((await rpc('eth_sendRawTransaction', [broke])).error?.message).toMatch(/^failed to check sender balance: sender balance < tx cost \(0 < \d+\): insufficient funds$/);
    // A bad signature: s flipped to a value no key produced.
    const good = Transaction.from(await new Wallet(JUNK_KEY).signTransaction({ ...feeData, chainId: BigInt(CHAIN_ID), nonce, to: JUNK_ETH, value: 1n }));
    const raw = getBytes(good.serialized);
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 0xff;
    const badSig = await rpc('eth_sendRawTransaction', [hexlify(raw)]);
    expect(badSig.error?.code).toBe(-32000);
    expect(badSig.error?.message).toMatch(/couldn't retrieve sender address from the ethereum transaction|invalid nonce|insufficient funds/);
    expect((await rpc('eth_getBalance', ['0x1234', 'latest'])).error?.code).toBe(-32602);
    expect((await rpc('eth_nosuch', [])).error).toEqual({ code: -32601, message: 'the method eth_nosuch does not exist/is not available' });
    const malformed = await fetch(url, { method: 'POST', body: '{"jsonrpc":' });
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    // A body over the 5 MiB request limit, and a verb other than POST.
    const huge = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["${'0'.repeat(5 * 1024 * 1024)}"]}` });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'content length too large (>5242880)' } });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const range = await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5000' }]);
    expect(range.error?.message).toMatch(/height \d+ must be less than or equal|maximum \[from, to\] blocks distance/);
    expect(await provider.getTransactionCount(JUNK_ETH)).toBe(nonce);
    expect(await provider.getBalance(JUNK_ETH)).toBe(before);
  });
});
