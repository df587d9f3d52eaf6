/**
 * EVM value transfers end to end (issue 12): a built node (`npm run build` first; `bin/run.js`)
 * in its own process, 1 s blocks, and this process submitting pre-signed EIP-1559 transfers from
 * EVM_E2E_ACCOUNTS funded accounts (EVM_E2E_TXS_PER_ACCOUNT each) through `eth_sendRawTransaction`
 * over 50 keep-alive connections. Committed transfers are counted from `block_results`; the rate
 * is committed / (last commit seen − first submission). The in-process figure (evm-chain's value
 * transfers: CheckTx → FinalizeBlock → Commit with no network, mempool or consensus) is measured
 * in the same run, after the node has stopped, for the ratio — on evm-chain's set-up
 * (`openEvmChain`), its value transfers only.
 *
 *   npm run bench -- evm-e2e
 *
 * EVM_E2E_NODE_PROFILE=<dir> makes the node write a CPU profile (node --cpu-prof) into <dir> when it
 * stops (as bench/e2e's E2E_NODE_PROFILE).
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet, getBytes, hexlify } from 'ethers';
import { Agent, request } from 'undici';
import { addGenesisAccounts } from '../../src/node/app/index.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { cliOk, tempHome } from '../../test/helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, waitForHeight } from '../../test/helpers/node.js';
import { openEvmChain, valueTransferRows } from './chain.bench.js';
import { cpuMs } from '../support/proc.js';

interface Row {
  name: string;
  value: number;
  unit: string;
}

const KB = ['--keyring-backend', 'test'];
const MNEMONIC = 'test test test test test test test test test test test junk';
const CONNECTIONS = 50;

async function post<T>(url: string, method: string, params: unknown): Promise<{ result?: T; error?: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as { result?: T; error?: unknown };
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const accounts = Number(process.env['EVM_E2E_ACCOUNTS'] ?? 500);
  const perAccount = Number(process.env['EVM_E2E_TXS_PER_ACCOUNT'] ?? 4);
  const total = accounts * perAccount;
  const home = tempHome('tokend-evm-e2e-');
  const h = ['--home', home];
  const rows: Row[] = [];
  try {
    await cliOk(['init', 'evm', '--chain-id', 'testnet', ...h]);
    fastBlocks(home, '1s');
    const configPath = join(home, 'config', 'config.toml');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace(/^size = 5000$/m, `size = ${Math.max(5000, total)}`));
    await cliOk(['keys', 'add', 'val', '--recover', ...KB, ...h], MNEMONIC);
    await cliOk(['add-genesis-account', 'val', '1000000000000000000000000attotoken', ...KB, ...h]);
    const wallets = Array.from({ length: accounts }, (_, i) => new Wallet(hexlify(sha256(new TextEncoder().encode(`evm-e2e-${i}`)))));
    const genesisPath = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(genesisPath, 'utf8')) as { app_state: Parameters<typeof addGenesisAccounts>[0] };
    genesis.app_state = addGenesisAccounts(
      genesis.app_state,
      wallets.map((w) => ({ address: keyPairFromPrivateKey('eth_secp256k1', getBytes(w.privateKey)).address, coins: [{ denom: 'attotoken', amount: 10n ** 24n }] })),
    );
    writeFileSync(genesisPath, JSON.stringify(genesis));
    await cliOk(['gentx', 'val', '1000000000000000000000attotoken', ...KB, ...h]);
    await cliOk(['collect-gentxs', ...h]);

    log(`signing ${total} transfers`);
    const signed: string[] = [];
    for (let nonce = 0; nonce < perAccount; nonce++) {
      for (let i = 0; i < accounts; i++) {
        signed.push(await wallets[i]!.signTransaction({ type: 2, chainId: 9000n, nonce, to: wallets[(i + 1) % accounts]!.address, value: 1n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }));
      }
    }

    const jsonRpcPort = await freePort();
    const profile = process.env['EVM_E2E_NODE_PROFILE'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['EVM_E2E_NODE_PROFILE']] : [];
    const node = await startBackground(home, await freePort(), ['--json-rpc.address', `127.0.0.1:${jsonRpcPort}`], undefined, profile);
    const url = `http://127.0.0.1:${jsonRpcPort}`;
    const cometUrl = `http://${node.node.replace(/^tcp:\/\//, '')}`;
    try {
      await waitForHeight(node.node, 2, 60_000);
      const height = async (): Promise<number> => Number((await post<{ sync_info: { latest_block_height: string } }>(cometUrl, 'status', {})).result?.sync_info.latest_block_height ?? 0);
      let scanned = await height();
      const agent = new Agent({ connections: CONNECTIONS });
      let next = 0;
      let refused = 0;
      let firstRefusal = '';
      const pid = node.child.pid!;
      const cpuStart = cpuMs(pid);
      const started = Date.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (next < signed.length) {
            const raw = signed[next++]!;
            const response = await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }) });
            const reply = (await response.body.json()) as { error?: unknown };
            if (reply.error !== undefined) {
              refused++;
              firstRefusal ||= JSON.stringify(reply.error);
            }
          }
        }),
      );
      const submitted = Date.now();
      const cpuSubmitted = cpuMs(pid);
      await agent.close();
      if (refused > 0) log(`${refused} refused, first: ${firstRefusal}`);
      let committed = 0;
      let lastCommit = submitted;
      while (committed < total - refused && Date.now() - started < 300_000) {
        const latest = await height();
        while (scanned < latest) {
          const results = await post<{ txs_results: { code: number }[] | null }>(cometUrl, 'block_results', { height: String(scanned + 1) });
          if (results.result === undefined) break; // not stored yet: next round
          scanned++;
          const ok = (results.result.txs_results ?? []).filter((r) => r.code === 0).length;
          if (ok > 0) {
            committed += ok;
            lastCommit = Date.now();
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const cpuCommitted = cpuMs(pid);
      const rate = committed / ((lastCommit - started) / 1000);
      // The node's CPU from the first submission to the last commit seen (a little idle block
      // time at the end included), per committed tx: what ranks builds on a shared machine.
      if (cpuStart !== undefined && cpuSubmitted !== undefined && cpuCommitted !== undefined && committed > 0) {
        const perTx = (ms: number): number => (ms * 1000) / committed;
        log(`node CPU per committed tx: main thread ${perTx(cpuCommitted.main - cpuStart.main).toFixed(0)} µs (${perTx(cpuSubmitted.main - cpuStart.main).toFixed(0)} µs while submitting), whole process ${perTx(cpuCommitted.all - cpuStart.all).toFixed(0)} µs`);
        rows.push({ name: 'node main-thread CPU per committed tx', value: perTx(cpuCommitted.main - cpuStart.main), unit: 'µs' });
        rows.push({ name: 'node process CPU per committed tx', value: perTx(cpuCommitted.all - cpuStart.all), unit: 'µs' });
      }
      log(`through eth_sendRawTransaction: ${committed} committed, ${rate.toFixed(0)} tx/s; submitted in ${submitted - started} ms`);
      rows.push({ name: 'evm value transfer via eth_sendRawTransaction → commit', value: rate, unit: 'tx/s' });
      rows.push({ name: 'eth_sendRawTransaction accepted', value: (total - refused) / ((submitted - started) / 1000), unit: 'tx/s' });
    } finally {
      await stopNode(node);
    }
    if (process.env['EVM_E2E_IN_PROCESS'] === '0') return rows; // EVM_E2E_IN_PROCESS=0: the node's figures only
    const chain = await openEvmChain(log);
    let local: Row[];
    try {
      local = await valueTransferRows(chain);
    } finally {
      await chain.close();
    }
    const inProc = local.find((row) => row.name === 'evm value transfer → commit');
    if (inProc !== undefined) rows.push({ name: 'evm value transfer in process (same run)', value: inProc.value, unit: 'tx/s' });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
