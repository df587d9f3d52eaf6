/**
 * `eth_getLogs` over a chain holding 1M logs (issue 12): an in-process single-validator node
 * (consensus, app, indexer, Ethereum JSON-RPC) executes calls of a contract that emits
 * LOGS_PER_TX Transfer-shaped logs (LOG2: the ERC-20 Transfer topic, then a per-log counter;
 * 32 bytes of data) until the chain holds LOGS_BENCH_TOTAL logs. Then, through the JSON-RPC
 * server over HTTP:
 *
 *   selective     the whole range, topic1 = one counter value: one log per tx (an exchange
 *                 scanning for its deposit address)
 *   no match      the whole range, an address no log has: every block is ruled out
 *   dense block   one block, no filter: every log of the block (at the 10,000-result cap)
 *   no logs       LOGS_BENCH_QUIET_BLOCKS blocks of 20 value transfers each (txs, no logs),
 *                 no filter: nothing to return, every block to rule out
 *
 *   npx tsx bench/evm/logs.bench.ts
 *   LOGS_BENCH_TOTAL=100000 npx tsx bench/evm/logs.bench.ts   (a quick look)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Wallet, getBytes, getCreateAddress, hexlify } from 'ethers';
import { request } from 'undici';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { addGenesisAccount } from '../../src/node/app/index.js';
import { EthRpcServer } from '../../src/node/ethrpc/server.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { commonFor, cosmosTxBytes, recoverSender, txFromRaw } from '../../src/node/modules/evm/ethTx.js';
import { TRANSFER_TOPIC as TRANSFER, counterTopic, logContractInitCode } from '../../test/helpers/logContract.js';
import { DENOM, TOKEN } from '../../test/node/app/helpers.js';
import { startFullNode, waitFor } from '../../test/node/services/helpers.js';

interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN_ID = 'logs_9000-1';
const GWEI = 10n ** 9n;
async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await request(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers: { 'content-type': 'application/json' } });
  const body = (await response.body.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const total = Number(process.env['LOGS_BENCH_TOTAL'] ?? 1_000_000);
  const perTx = Number(process.env['LOGS_BENCH_PER_TX'] ?? 500);
  const txsPerBlock = Math.floor(10_000 / perTx);
  const txCount = Math.ceil(total / perTx);
  const wallet = new Wallet(hexlify(sha256(new TextEncoder().encode('logs-bench'))));
  const ethAddress = keyPairFromPrivateKey('eth_secp256k1', getBytes(wallet.privateKey)).address;
  const dir = await mkdtemp(join(tmpdir(), 'tokend-logs-bench-'));
  const db = await openDatabase(dir);
  const node = await startFullNode({ chainId: CHAIN_ID, db, editAppState: (state) => addGenesisAccount(state, ethAddress, [{ denom: DENOM, amount: 1_000_000n * TOKEN }]) });
  const server = new EthRpcServer({ env: node.env, address: '127.0.0.1:0' });
  const rows: Row[] = [];
  try {
    const { url } = await server.start();
    const common = commonFor(9000n, 'cancun');
    const carry = (raw: string) => {
      const tx = txFromRaw(getBytes(raw), common);
      return cosmosTxBytes(tx, hexlify(recoverSender(tx)), DENOM);
    };
    const fee = { type: 2, chainId: 9000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    let nonce = 0;
    const submit = async (raw: string) => {
      const response = await node.env.mempool.checkTx(carry(raw));
      if (response.code !== 0) throw new Error(`CheckTx: ${response.log}`);
    };
    await submit(await wallet.signTransaction({ ...fee, nonce: nonce++, data: logContractInitCode(perTx), gasLimit: 300_000n }));
    const contract = getCreateAddress({ from: wallet.address, nonce: 0 });
    const gasLimit = BigInt(30_000 + perTx * 1_500);
    log(`logs: ${txCount} txs × ${perTx} logs, ${txsPerBlock} txs per block`);
    const started = performance.now();
    for (let i = 0; i < txCount; i++) {
      // One block's worth at a time, so each block holds txsPerBlock calls (10,000 logs).
      if (i % txsPerBlock === 0) await waitFor(() => node.consensus.mempool.size() === 0, 600_000, 'mempool drain');
      await submit(await wallet.signTransaction({ ...fee, nonce: nonce++, to: contract, gasLimit }));
    }
    await waitFor(() => node.consensus.mempool.size() === 0, 600_000, 'all txs committed');
    const last = node.consensus.blockStore.height();
    await node.waitForHeight(last + 1, 60_000);
    log(`logs: chain built in ${((performance.now() - started) / 1000).toFixed(0)} s, ${last + 1} blocks`);
    // Then blocks with txs but no logs: value transfers, 20 a block.
    const quietBlocks = Number(process.env['LOGS_BENCH_QUIET_BLOCKS'] ?? 100);
    const quietFrom = node.consensus.blockStore.height() + 1;
    const transfer = { ...fee, to: `0x${'22'.repeat(20)}`, value: 1n, gasLimit: 21_000n };
    for (let b = 0; b < quietBlocks; b++) {
      await waitFor(() => node.consensus.mempool.size() === 0, 600_000, 'mempool drain');
      for (let i = 0; i < 20; i++) await submit(await wallet.signTransaction({ ...transfer, nonce: nonce++ }));
    }
    await waitFor(() => node.consensus.mempool.size() === 0, 600_000, 'transfers committed');
    const quietTo = node.consensus.blockStore.height();
    await node.waitForHeight(quietTo + 1, 60_000);

    const range = { fromBlock: '0x1', toBlock: `0x${(last + 1).toString(16)}` };
    const timed = async (label: string, filter: Record<string, unknown>, expect: (n: number) => boolean): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const logs = (await rpc(url, 'eth_getLogs', [filter])) as unknown[];
        times.push(performance.now() - t0);
        if (!expect(logs.length)) throw new Error(`${label}: unexpected ${logs.length} logs`);
      }
      log(`logs: ${label} ${times.map((t) => t.toFixed(0)).join(' / ')} ms`);
      return Math.min(...times);
    };
    const counter = counterTopic(7);
    rows.push({ name: `eth_getLogs, ${total / 1e6}M logs: one topic value (${txCount} matches)`, value: await timed('selective', { ...range, topics: [TRANSFER, counter] }, (n) => n === txCount), unit: 'ms' });
    rows.push({ name: `eth_getLogs, ${total / 1e6}M logs: an address with none`, value: await timed('no match', { ...range, address: `0x${'11'.repeat(20)}` }, (n) => n === 0), unit: 'ms' });
    // The block holding the first full set of calls (the deploy block aside).
    let dense = 0;
    for (let h = 1; h <= last && dense === 0; h++) if ((node.env.stateStore.loadFinalizeBlockResponse(h)?.txResults.length ?? 0) === txsPerBlock) dense = h;
    const quiet = { fromBlock: `0x${quietFrom.toString(16)}`, toBlock: `0x${quietTo.toString(16)}` };
    rows.push({ name: `eth_getLogs, ${quietTo - quietFrom + 1} blocks of value transfers (no logs), no filter`, value: await timed('no logs', quiet, (n) => n === 0), unit: 'ms' });
    rows.push({ name: `eth_getLogs, one block of ${txsPerBlock * perTx} logs, no filter`, value: await timed('dense block', { fromBlock: `0x${dense.toString(16)}`, toBlock: `0x${dense.toString(16)}` }, (n) => n === txsPerBlock * perTx), unit: 'ms' });
  } finally {
    await server.stop();
    await node.stop();
    await db.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(1)} ${row.unit}\n`);
}
