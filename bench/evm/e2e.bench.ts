/**
 * EVM value transfers and ERC-20 transfers end to end (issue 12): a built node (`npm run build`
 * first; `bin/run.js`) in its own process, 1 s blocks, and this process submitting pre-signed
 * EIP-1559 txs through `eth_sendRawTransaction` over 50 keep-alive connections.
 *
 * Value phase: EVM_E2E_ACCOUNTS funded accounts (genesis) send EVM_E2E_TXS_PER_ACCOUNT transfers
 * each. Committed transfers are counted from `block_results` (code 0); the rate is committed /
 * (last commit seen − first submission).
 *
 * ERC-20 phase (same node, after the value phase): contracts/ERC20Token.sol (the solc build's
 * artifact, src/contracts/artifacts.ts) is deployed by the first account, whose constructor
 * mints the supply to it, and it transfers every other account a share — all before the measured
 * part, receipts checked. Then each account sends EVM_E2E_ERC20_TXS_PER_ACCOUNT (default: as
 * many as in the value phase) pre-signed `transfer(next account, i + 1)` txs; `block_results`
 * are read while they are submitted. A transfer counts when its result has code 0 AND its
 * ethereum_tx event has no `ethereumTxFailed` attribute (a reverted call is included with code
 * 0). Rows: transfers committed/s, submit → commit p50 (request sent → its block's results seen,
 * read every 50 ms), the node's CPU per committed transfer (main thread and whole process, from
 * /proc, first submission to last commit), and gas used per transfer (`txGasUsed`). Afterwards
 * every account's balance is read with eth_call balanceOf: the sum must equal the supply and each
 * balance its funding plus the counted transfers in and out (amounts differ per sender, so a
 * transfer that did nothing shows), or the bench throws.
 *
 * The in-process figures (evm-chain's value transfers and its SSTORE+LOG contract calls, an
 * ERC-20 transfer's shape: CheckTx → FinalizeBlock → Commit with no network, mempool or
 * consensus) are measured in the same run, after the node has stopped, for the ratio — on
 * evm-chain's set-up (`openEvmChain`).
 *
 *   npm run bench -- evm-e2e
 *
 * EVM_E2E_VALUE=0 / EVM_E2E_ERC20=0 skip a phase (and its in-process figure);
 * EVM_E2E_IN_PROCESS=0 skips the in-process figures. EVM_E2E_JSON_RPC_THREAD=0|1 sets app.toml
 * [json-rpc] http-thread (default: as init writes it, true). EVM_E2E_NODE_PROFILE=<dir> makes the node
 * write a CPU profile (node --cpu-prof) into <dir> when it stops (as bench/e2e's
 * E2E_NODE_PROFILE), sampled every EVM_E2E_NODE_PROFILE_INTERVAL µs (node's default 1000).
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Interface, Wallet, getBytes, getCreateAddress, hexlify, keccak256 } from 'ethers';
import { Agent, request } from 'undici';
import { ERC20Token } from '../../src/contracts/artifacts.js';
import { addGenesisAccounts } from '../../src/node/app/index.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { cliOk, tempHome } from '../../test/helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, waitForHeight } from '../../test/helpers/node.js';
import { contractCallRows, openEvmChain, valueTransferRows } from './chain.bench.js';
import { setAppTomlKey } from '../support/appToml.js';
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
  // EVM_E2E_VALUE=0 / EVM_E2E_ERC20=0: skip a phase (e.g. to profile the other alone).
  const valuePhase = process.env['EVM_E2E_VALUE'] !== '0';
  const erc20Phase = process.env['EVM_E2E_ERC20'] !== '0';
  const erc20PerAccount = Number(process.env['EVM_E2E_ERC20_TXS_PER_ACCOUNT'] ?? perAccount);
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
    if (process.env['EVM_E2E_JSON_RPC_THREAD'] !== undefined) setAppTomlKey(home, 'json-rpc', 'http-thread', String(process.env['EVM_E2E_JSON_RPC_THREAD'] === '1'));

    if (valuePhase) log(`signing ${total} transfers`);
    const signed: string[] = [];
    for (let nonce = 0; valuePhase && nonce < perAccount; nonce++) {
      for (let i = 0; i < accounts; i++) {
        signed.push(await wallets[i]!.signTransaction({ type: 2, chainId: 9000n, nonce, to: wallets[(i + 1) % accounts]!.address, value: 1n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }));
      }
    }

    const jsonRpcPort = await freePort();
    const interval = process.env['EVM_E2E_NODE_PROFILE_INTERVAL']; // µs between samples (node's default 1000)
    const profile = process.env['EVM_E2E_NODE_PROFILE'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['EVM_E2E_NODE_PROFILE'], ...(interval ? ['--cpu-prof-interval', interval] : [])] : [];
    const node = await startBackground(home, await freePort(), ['--json-rpc.address', `127.0.0.1:${jsonRpcPort}`], undefined, profile);
    const url = `http://127.0.0.1:${jsonRpcPort}`;
    const cometUrl = `http://${node.node.replace(/^tcp:\/\//, '')}`;
    try {
      await waitForHeight(node.node, 2, 60_000);
      const height = async (): Promise<number> => Number((await post<{ sync_info: { latest_block_height: string } }>(cometUrl, 'status', {})).result?.sync_info.latest_block_height ?? 0);
      let scanned = await height();
      const pid = node.child.pid!;
      if (valuePhase) {
        const agent = new Agent({ connections: CONNECTIONS });
        let next = 0;
        let refused = 0;
        let firstRefusal = '';
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
      }
      if (erc20Phase) {
        rows.push(...(await erc20Transfers(log, { url, cometUrl, pid, wallets, perAccount: erc20PerAccount, height })));
      }
    } finally {
      await stopNode(node);
    }
    if (process.env['EVM_E2E_IN_PROCESS'] === '0') return rows; // EVM_E2E_IN_PROCESS=0: the node's figures only
    const chain = await openEvmChain(log);
    const local: Row[] = [];
    try {
      if (valuePhase) local.push(...(await valueTransferRows(chain)));
      if (erc20Phase) local.push(...(await contractCallRows(chain)));
    } finally {
      await chain.close();
    }
    if (valuePhase) {
      const inProc = local.find((row) => row.name === 'evm value transfer → commit');
      if (inProc !== undefined) rows.push({ name: 'evm value transfer in process (same run)', value: inProc.value, unit: 'tx/s' });
    }
    if (erc20Phase) {
      const inProc = local.find((row) => row.name === 'evm contract call (sstore+log) → commit');
      if (inProc !== undefined) rows.push({ name: 'evm contract call (sstore+log) in process (same run)', value: inProc.value, unit: 'tx/s' });
      const main = local.find((row) => row.name === 'evm contract call, main-thread CPU');
      if (main !== undefined) rows.push({ name: 'evm contract call in process, main-thread CPU', value: main.value, unit: 'µs/tx' });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}

interface TxResultJson {
  code: number;
  events?: { type: string; attributes?: { key: string; value: string }[] }[];
}

/** The ethereum_tx event's attributes of a tx result (empty when it has none). */
function ethereumTxAttributes(result: TxResultJson): Map<string, string> {
  const event = (result.events ?? []).find((e) => e.type === 'ethereum_tx');
  return new Map((event?.attributes ?? []).map((a) => [a.key, a.value]));
}

/**
 * The ERC-20 phase: contracts/ERC20Token.sol (the solc build's artifact) deployed by the first
 * account, whose constructor mints the supply to it; it then transfers each other account its
 * share (all before the measured part, each tx's receipt checked). Measured: every account sends
 * `perAccount` pre-signed `transfer(next account, i + 1)` txs (the amount differs per sender, so
 * a transfer that did nothing changes the balances the check expects) through
 * eth_sendRawTransaction over the same 50 connections, while block_results are read as blocks
 * commit. A transfer counts when its tx result has code 0 and its ethereum_tx event has no
 * ethereumTxFailed attribute (a revert is included with code 0). Afterwards every account's
 * balance is read with eth_call balanceOf: their sum must equal the supply and each must equal its
 * funding plus the counted transfers in and out of it; the bench throws otherwise.
 */
async function erc20Transfers(
  log: (line: string) => void,
  { url, cometUrl, pid, wallets, perAccount, height }: { url: string; cometUrl: string; pid: number; wallets: Wallet[]; perAccount: number; height: () => Promise<number> },
): Promise<Row[]> {
  const token = new Interface(ERC20Token.abi);
  const fee = { type: 2, chainId: 9000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n };
  const call = async <T>(method: string, params: unknown[]): Promise<T> => {
    const reply = await post<T>(url, method, params);
    if (reply.error !== undefined || reply.result === undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  };
  const nonceOf = async (w: Wallet): Promise<number> => Number(await call<string>('eth_getTransactionCount', [w.address, 'latest']));
  const receipt = async (hash: string): Promise<{ status: string; gasUsed: string }> => {
    const started = Date.now();
    for (;;) {
      const reply = await post<{ status: string; gasUsed: string } | null>(url, 'eth_getTransactionReceipt', [hash]);
      if (reply.result) return reply.result;
      if (Date.now() - started > 60_000) throw new Error(`no receipt for ${hash}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const balanceOf = async (contract: string, address: string): Promise<bigint> => BigInt(await call<string>('eth_call', [{ to: contract, data: token.encodeFunctionData('balanceOf', [address]) }, 'latest']));

  // Deploy (the constructor mints the supply to the deployer) and fund every other account.
  const deployer = wallets[0]!;
  const share = 10n ** 24n;
  const supply = share * BigInt(wallets.length);
  let nonce = await nonceOf(deployer);
  const deployRaw = await deployer.signTransaction({ ...fee, nonce, data: ERC20Token.bytecode + token.encodeDeploy(['Bench Token', 'BNCH', 18, supply]).slice(2), gasLimit: 3_000_000n });
  const contract = getCreateAddress({ from: deployer.address, nonce });
  nonce++;
  const deployHash = await call<string>('eth_sendRawTransaction', [deployRaw]);
  if ((await receipt(deployHash)).status !== '0x1') throw new Error('ERC-20 deployment failed');
  log(`ERC-20 deployed at ${contract}; funding ${wallets.length - 1} accounts`);
  let lastFunding = '';
  for (let i = 1; i < wallets.length; i++) {
    const raw = await deployer.signTransaction({ ...fee, nonce: nonce++, to: contract, data: token.encodeFunctionData('transfer', [wallets[i]!.address, share]), gasLimit: 100_000n });
    lastFunding = await call<string>('eth_sendRawTransaction', [raw]);
  }
  if (lastFunding !== '' && (await receipt(lastFunding)).status !== '0x1') throw new Error('ERC-20 funding failed');
  const before = await Promise.all(wallets.map((w) => balanceOf(contract, w.address)));
  if (before.some((b) => b !== share)) throw new Error(`ERC-20 funding: balances ${before.filter((b) => b !== share).length} accounts off the share`);

  // Pre-sign every transfer: round r of all senders, then round r + 1 (as the value phase).
  const nonces = await Promise.all(wallets.map(nonceOf));
  log(`signing ${wallets.length * perAccount} ERC-20 transfers`);
  const planned: { raw: string; hash: string; from: number; to: number; amount: bigint }[] = [];
  for (let round = 0; round < perAccount; round++) {
    for (let i = 0; i < wallets.length; i++) {
      const to = (i + 1) % wallets.length;
      const amount = BigInt(i + 1);
      const raw = await wallets[i]!.signTransaction({ ...fee, nonce: nonces[i]!++, to: contract, data: token.encodeFunctionData('transfer', [wallets[to]!.address, amount]), gasLimit: 60_000n });
      planned.push({ raw, hash: keccak256(raw), from: i, to, amount });
    }
  }
  const byHash = new Map(planned.map((p, index) => [p.hash, index]));
  const submittedAt: number[] = new Array<number>(planned.length).fill(0);

  let scanned = await height();
  const agent = new Agent({ connections: CONNECTIONS });
  let next = 0;
  let refused = 0;
  let firstRefusal = '';
  let committed = 0;
  let reverted = 0;
  let failed = 0;
  let gasUsed = 0n;
  const latencies: number[] = [];
  const counted = new Set<number>();
  const cpuStart = cpuMs(pid);
  const started = Date.now();
  let lastCommit = started;
  let submitting = true;
  // Reads block_results as blocks commit (latencies need the commit time while submission goes on).
  const poller = (async () => {
    while ((submitting || committed + reverted + failed < planned.length - refused) && Date.now() - started < 300_000) {
      const latest = await height();
      while (scanned < latest) {
        const results = await post<{ txs_results: TxResultJson[] | null }>(cometUrl, 'block_results', { height: String(scanned + 1) });
        if (results.result === undefined) break; // not stored yet: next round
        scanned++;
        const seen = Date.now();
        for (const result of results.result.txs_results ?? []) {
          const attributes = ethereumTxAttributes(result);
          const index = byHash.get(attributes.get('ethereumTxHash') ?? '');
          if (index === undefined) continue;
          if (result.code !== 0) failed++;
          else if (attributes.has('ethereumTxFailed')) reverted++;
          else {
            committed++;
            counted.add(index);
            gasUsed += BigInt(attributes.get('txGasUsed') ?? '0');
            latencies.push(seen - submittedAt[index]!);
            lastCommit = seen;
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < planned.length) {
        const index = next++;
        submittedAt[index] = Date.now();
        const response = await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [planned[index]!.raw] }) });
        const reply = (await response.body.json()) as { error?: unknown };
        if (reply.error !== undefined) {
          refused++;
          firstRefusal ||= JSON.stringify(reply.error);
        }
      }
    }),
  );
  const submitted = Date.now();
  submitting = false;
  await agent.close();
  await poller;
  const cpuCommitted = cpuMs(pid);
  if (refused > 0) log(`ERC-20: ${refused} refused, first: ${firstRefusal}`);
  if (reverted + failed > 0) log(`ERC-20: ${reverted} reverted, ${failed} failed (not counted)`);

  // The balances must show exactly the counted transfers.
  const expected = [...before];
  for (const index of counted) {
    const p = planned[index]!;
    expected[p.from]! -= p.amount;
    expected[p.to]! += p.amount;
  }
  const after = await Promise.all(wallets.map((w) => balanceOf(contract, w.address)));
  const sum = after.reduce((a, b) => a + b, 0n);
  const wrong = after.filter((b, i) => b !== expected[i]).length;
  if (sum !== supply || wrong > 0) throw new Error(`ERC-20 balances: sum ${sum} (supply ${supply}), ${wrong} accounts differ from the counted transfers`);
  log(`ERC-20 balances exact: ${wallets.length} accounts, sum = supply`);

  const rows: Row[] = [];
  const rate = committed / ((lastCommit - started) / 1000);
  latencies.sort((a, b) => a - b);
  const p50 = latencies.length > 0 ? latencies[Math.floor(latencies.length / 2)]! : NaN;
  log(`ERC-20 through eth_sendRawTransaction: ${committed} committed, ${rate.toFixed(0)} tx/s; submitted in ${submitted - started} ms; submit→commit p50 ${p50} ms`);
  rows.push({ name: 'ERC-20 transfers via eth_sendRawTransaction → commit', value: rate, unit: 'tx/s' });
  rows.push({ name: 'ERC-20 submit → commit p50', value: p50, unit: 'ms' });
  if (cpuStart !== undefined && cpuCommitted !== undefined && committed > 0) {
    const perTx = (ms: number): number => (ms * 1000) / committed;
    log(`node CPU per committed ERC-20 transfer: main thread ${perTx(cpuCommitted.main - cpuStart.main).toFixed(0)} µs, whole process ${perTx(cpuCommitted.all - cpuStart.all).toFixed(0)} µs`);
    rows.push({ name: 'node main-thread CPU per committed ERC-20 transfer', value: perTx(cpuCommitted.main - cpuStart.main), unit: 'µs' });
    rows.push({ name: 'node process CPU per committed ERC-20 transfer', value: perTx(cpuCommitted.all - cpuStart.all), unit: 'µs' });
  }
  if (committed > 0) rows.push({ name: 'ERC-20 transfer gas used', value: Number(gasUsed / BigInt(committed)), unit: 'gas' });
  return rows;
}
