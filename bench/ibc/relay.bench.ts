/**
 * Issue 13 — packets relayed per second between two local chains. Two real tokend nodes (the
 * built binary, so `npm run build` first; one validator each, loopback ports) and the published
 * TypeScript relayer (@confio/relayer, as a library, test/helpers/relayer.ts): the relayer opens
 * clients, a connection and an ICS-20 channel; then N transfers (default 1,000) are sent from A in
 * txs of IBC_RELAY_BATCH MsgTransfers, and the relayer carries them to B (MsgRecvPacket, one tx per
 * batch with a client update) and their acknowledgements back to A (MsgAcknowledgement). Timed:
 * sending, receiving on B, acknowledging on A, all from the moment the packets are committed on A;
 * gas per MsgRecvPacket from the delivered txs. The balances are checked at
 * the end (every voucher arrived, nothing left pending).
 *
 *   npm run build && npx tsx bench/ibc/relay.bench.ts
 *   IBC_RELAY_PACKETS=200 IBC_RELAY_BATCH=50 IBC_RELAY_BLOCK=200ms npx tsx bench/ibc/relay.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cliOk, tempHome } from '../../test/helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, type BackgroundNode } from '../../test/helpers/node.js';
import { connectRelayerClient, Link, relayerAddress } from '../../test/helpers/relayer.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const VALIDATOR_MNEMONIC = 'test test test test test test test test test test test junk';
const RELAYER_MNEMONIC = 'enlist hip relief stomach skate base shallow young switch frequent cry park';
const DENOM = 'attotoken';
const GAS_PRICE = `20000000000${DENOM}`;
const ORDER_UNORDERED = 1;
const silent = { error: () => {}, warn: () => {}, info: () => {}, verbose: () => {}, debug: () => {} };

interface Chain {
  chainId: string;
  home: string;
  rpc: string;
  bg: BackgroundNode;
}

async function rpcGet(rpc: string, path: string): Promise<any> {
  const body = (await (await fetch(`${rpc}/${path}`, { signal: AbortSignal.timeout(30_000) })).json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function waitForHeight(rpc: string, height: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const status = await rpcGet(rpc, 'status');
      if (Number(status.sync_info.latest_block_height) >= height) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${rpc} did not reach height ${height}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startChain(chainId: string, relayer: string, blockTime: string): Promise<Chain> {
  const home = tempHome(`tokend-relay-bench-${chainId}-`);
  const h = ['--home', home];
  await cliOk(['init', 'val', '--chain-id', chainId, ...h]);
  fastBlocks(home, blockTime);
  await cliOk(['keys', 'add', 'val', '--recover', '--keyring-backend', 'test', ...h], VALIDATOR_MNEMONIC);
  await cliOk(['add-genesis-account', 'val', `1000000000000000000000000${DENOM}`, '--keyring-backend', 'test', ...h]);
  await cliOk(['add-genesis-account', relayer, `1000000000000000000000000${DENOM}`, ...h]);
  await cliOk(['gentx', 'val', `1000000000000000000000${DENOM}`, '--chain-id', chainId, '--keyring-backend', 'test', ...h]);
  await cliOk(['collect-gentxs', ...h]);
  const port = await freePort();
  const bg = await startBackground(home, port);
  const chain = { chainId, home, rpc: `http://127.0.0.1:${port}`, bg };
  await waitForHeight(chain.rpc, 2);
  return chain;
}

/** Gas used by a delivered tx, from the RPC. */
async function gasUsed(rpc: string, hash: string): Promise<number> {
  const tx = await rpcGet(rpc, `tx?hash=0x${hash}`);
  return Number(tx.tx_result.gas_used);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function run(): Promise<Row[]> {
  const packets = Number(process.env.IBC_RELAY_PACKETS ?? 1000);
  const batch = Number(process.env.IBC_RELAY_BATCH ?? 100);
  const blockTime = process.env.IBC_RELAY_BLOCK ?? '500ms';
  const relayer = await relayerAddress(RELAYER_MNEMONIC, 'token');
  const started = await Promise.allSettled([startChain('relaya_9100-1', relayer, blockTime), startChain('relayb_9101-1', relayer, blockTime)]);
  const chains = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const [a, b] = chains as [Chain, Chain];
    const blockTimeMs = /^\d+ms$/.test(blockTime) ? Number.parseInt(blockTime, 10) : Number.parseFloat(blockTime) * 1000;
    const clientA = await connectRelayerClient({ rpc: a.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC, blockTimeMs });
    const clientB = await connectRelayerClient({ rpc: b.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC, blockTimeMs });
    const link = await Link.createWithNewConnections(clientA, clientB, silent);
    const channels = await link.createChannel('A', 'transfer', 'transfer', ORDER_UNORDERED, 'ics20-1');
    const [channelA, channelB] = [channels.src.channelId as string, channels.dest.channelId as string];

    // N transfers from A, IBC_RELAY_BATCH per tx, to one receiver on B, each of a distinct amount.
    const receiver = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/2");
    const timeoutTimestamp = BigInt(Math.floor(Date.now() / 1000) + 3600) * 1_000_000_000n;
    const transfers = Array.from({ length: packets }, (_, i) => ({
      typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
      value: { sourcePort: 'transfer', sourceChannel: channelA, token: { denom: DENOM, amount: String(1000 + i) }, sender: clientA.senderAddress, receiver, timeoutHeight: undefined, timeoutTimestamp, memo: '' },
    }));
    const sendStart = performance.now();
    for (const msgs of chunks(transfers, batch)) {
      const result = await clientA.sign.signAndBroadcast(clientA.senderAddress, msgs, 'auto');
      if (result.code !== 0) throw new Error(`MsgTransfer batch failed: ${result.rawLog}`);
    }
    const sendMs = performance.now() - sendStart;

    // The relayer's own steps, a batch per tx: packets A → B, then their acks B → A.
    const relayStart = performance.now();
    const pending = await link.getPendingPackets('A');
    if (pending.length !== packets) throw new Error(`the relayer found ${pending.length} pending packets, expected ${packets}`);
    const acks: any[] = [];
    const recvTxs = new Set<string>();
    for (const part of chunks(pending, batch)) {
      const got = await link.relayPackets('A', part);
      for (const ack of got) recvTxs.add(ack.txHash);
      acks.push(...got);
    }
    const recvMs = performance.now() - relayStart;
    if (acks.length !== packets) throw new Error(`${acks.length} acknowledgements written on B, expected ${packets}`);
    const ackStart = performance.now();
    for (const part of chunks(acks, batch)) await link.relayAcks('B', part);
    const ackMs = performance.now() - ackStart;
    const totalMs = performance.now() - relayStart;

    // Every voucher arrived; nothing is left to relay.
    const voucher = `ibc/${createHash('sha256').update(`transfer/${channelB}/${DENOM}`).digest('hex').toUpperCase()}`;
    const expected = transfers.reduce((sum, t) => sum + BigInt(t.value.token.amount), 0n);
    const balance = JSON.parse(await cliOk(['q', 'bank', 'balances', receiver, '--denom', voucher, '--node', b.bg.node, '-o', 'json'])).balance.amount;
    if (BigInt(balance) !== expected) throw new Error(`receiver holds ${balance} ${voucher}, expected ${expected}`);
    const left = await link.getPendingPackets('A');
    const leftAcks = await link.getPendingAcks('B');
    if (left.length !== 0 || leftAcks.length !== 0) throw new Error(`${left.length} packets and ${leftAcks.length} acks still pending`);

    const recvGas = await Promise.all([...recvTxs].map((hash) => gasUsed(b.rpc, hash)));
    return [
      { name: `transfers sent on A (${packets} in txs of ${batch}, blocks ${blockTime})`, value: packets / (sendMs / 1000), unit: 'packets/s' },
      { name: 'packets received on B (MsgRecvPacket + client update per tx)', value: packets / (recvMs / 1000), unit: 'packets/s' },
      { name: 'acknowledgements on A (MsgAcknowledgement + client update per tx)', value: packets / (ackMs / 1000), unit: 'acks/s' },
      { name: 'packets relayed both ways (receive + acknowledge)', value: packets / (totalMs / 1000), unit: 'packets/s' },
      { name: 'gas per MsgRecvPacket (tx gas / packets, incl. the client update)', value: recvGas.reduce((s, g) => s + g, 0) / packets, unit: 'gas' },
    ];
  } finally {
    for (const chain of chains) {
      await stopNode(chain.bg);
      rmSync(chain.home, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run();
  for (const row of rows) console.log(`${row.name}: ${row.value.toFixed(1)} ${row.unit}`);
}
