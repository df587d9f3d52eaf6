/**
 * End-to-end: two tokend chains as real processes, connected by the published TypeScript relayer
 * (@confio/relayer 0.12, used as a library). A relayer key — a plain secp256k1 Cosmos key from a
 * mnemonic, as the relayer's DirectSecp256k1HdWallet derives it — is funded at genesis on both
 * chains; the relayer creates a 07-tendermint client on each chain and opens a connection between
 * them (clients, connection handshake, proofs read with abci_query, updates with headers, commits and
 * validator sets from the RPC); both ends must be OPEN by the CLI and by REST.
 */
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { cliOk as ok, tempHome } from '../helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, type BackgroundNode } from '../helpers/node.js';
import { connectRelayerClient, Link, relayerAddress } from '../helpers/relayer.js';

jest.setTimeout(300_000);

const VALIDATOR_MNEMONIC = 'test test test test test test test test test test test junk';
const RELAYER_MNEMONIC = 'enlist hip relief stomach skate base shallow young switch frequent cry park';
const DENOM = 'attotoken';
const GAS_PRICE = `20000000000${DENOM}`;
/** ibc.core.channel.v1.Order.ORDER_UNORDERED */
const ORDER_UNORDERED = 1;

interface Chain {
  chainId: string;
  home: string;
  bg?: BackgroundNode;
  rpc: string;
}

/** Waits until the node's RPC /status reports `height` (fetch, not a CLI process: the machine may be loaded). */
async function waitForRpcHeight(rpc: string, height: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const body = (await (await fetch(`${rpc}/status`, { signal: AbortSignal.timeout(10_000) })).json()) as any;
      if (Number(body.result.sync_info.latest_block_height) >= height) return;
    } catch {
      // not listening yet, or busy
    }
    if (Date.now() > deadline) throw new Error(`${rpc} did not reach height ${height}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A one-validator chain with the relayer's address funded; `started` gets the node as soon as it runs. */
async function initChain(chainId: string, relayer: string, started: Chain[]): Promise<void> {
  const home = tempHome(`tokend-relayer-${chainId}-`);
  const h = ['--home', home];
  await ok(['init', 'val', '--chain-id', chainId, ...h]);
  fastBlocks(home, '500ms');
  await ok(['keys', 'add', 'val', '--recover', '--keyring-backend', 'test', ...h], VALIDATOR_MNEMONIC);
  await ok(['add-genesis-account', 'val', `1000000000000000000000000${DENOM}`, '--keyring-backend', 'test', ...h]);
  await ok(['add-genesis-account', relayer, `1000000000000000000000000${DENOM}`, ...h]);
  await ok(['gentx', 'val', `1000000000000000000000${DENOM}`, '--chain-id', chainId, '--keyring-backend', 'test', ...h]);
  await ok(['collect-gentxs', ...h]);
  const port = await freePort();
  const chain: Chain = { chainId, home, rpc: `http://127.0.0.1:${port}` };
  started.push(chain);
  chain.bg = await startBackground(home, port);
  await waitForRpcHeight(chain.rpc, 2);
}

describe('two tokend chains connected by @confio/relayer', () => {
  const chains: Chain[] = [];
  /** Every node started, stopped at the end even when the other chain failed to come up. */
  const nodes: Chain[] = [];
  let relayer: { link: any; clientA: any; clientB: any } | undefined;
  let transfer: { channelA: string; channelB: string } | undefined;
  const logs: string[] = [];
  const logger = {
    error: (m: string) => logs.push(`error ${m}`),
    warn: (m: string) => logs.push(`warn ${m}`),
    info: (m: string) => logs.push(`info ${m}`),
    verbose: (m: string) => logs.push(`verbose ${m}`),
    debug: (m: string) => logs.push(`debug ${m}`),
  };

  beforeAll(async () => {
    const address = await relayerAddress(RELAYER_MNEMONIC, 'token');
    const started: Chain[] = [];
    const settled = await Promise.allSettled([initChain('tokenda_9000-1', address, started), initChain('tokendb_9001-1', address, started)]);
    nodes.push(...started);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    chains.push(...['tokenda_9000-1', 'tokendb_9001-1'].map((id) => started.find((c) => c.chainId === id)!));
  });

  afterAll(async () => {
    for (const chain of nodes) if (chain.bg) await stopNode(chain.bg);
  });

  test('clients on both chains and an OPEN connection, by the CLI and REST', async () => {
    const [a, b] = chains as [Chain, Chain];
    const clientA = await connectRelayerClient({ rpc: a.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC });
    const clientB = await connectRelayerClient({ rpc: b.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC });
    let link;
    try {
      link = await Link.createWithNewConnections(clientA, clientB, logger);
    } catch (err) {
      throw new Error(`${(err as Error).stack}\nrelayer log:\n${logs.join('\n')}\nnode A:\n${a.bg!.logs().slice(-3000)}\nnode B:\n${b.bg!.logs().slice(-3000)}`);
    }
    const ends = [
      { chain: a, connectionId: link.endA.connectionID as string, clientId: link.endA.clientID as string, counterparty: link.endB },
      { chain: b, connectionId: link.endB.connectionID as string, clientId: link.endB.clientID as string, counterparty: link.endA },
    ];
    for (const end of ends) {
      const cli = JSON.parse(await ok(['q', 'ibc', 'connection', 'end', end.connectionId, '--node', end.chain.bg!.node, '-o', 'json']));
      expect(cli.connection).toMatchObject({
        client_id: end.clientId,
        state: 'STATE_OPEN',
        counterparty: { client_id: end.counterparty.clientID, connection_id: end.counterparty.connectionID, prefix: { key_prefix: 'aWJj' } },
        versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
      });
      const rest = (await (await fetch(`${end.chain.bg!.api}/ibc/core/connection/v1/connections/${end.connectionId}`)).json()) as any;
      expect(rest.connection).toMatchObject({ client_id: end.clientId, state: 'STATE_OPEN' });
      const client = JSON.parse(await ok(['q', 'ibc', 'client', 'state', end.clientId, '--node', end.chain.bg!.node, '-o', 'json']));
      expect(client.client_state.chain_id).toBe(end.chain === a ? b.chainId : a.chainId);
    }
    relayer = { link, clientA, clientB };
  });

  test('the relayer updates both clients, re-opens the link from the connections, and scans for packets and acks', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (err) {
        throw new Error(`${what}: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
      }
    };
    // MsgUpdateClient with a new header of the other chain (headers, commits and validator sets from the RPC).
    for (const [side, chain] of [['A', a], ['B', b]] as const) {
      const before = JSON.parse(await ok(['q', 'ibc', 'client', 'state', side === 'A' ? link.endA.clientID : link.endB.clientID, '--node', chain.bg!.node, '-o', 'json']));
      const updated = await guard<any>(`updateClient ${side}`, () => link.updateClient(side === 'A' ? 'B' : 'A'));
      const after = JSON.parse(await ok(['q', 'ibc', 'client', 'state', side === 'A' ? link.endA.clientID : link.endB.clientID, '--node', chain.bg!.node, '-o', 'json']));
      expect(BigInt(after.client_state.latest_height.revision_height)).toBe(updated.revisionHeight);
      expect(BigInt(after.client_state.latest_height.revision_height)).toBeGreaterThan(BigInt(before.client_state.latest_height.revision_height));
    }
    // The link from the existing connections: the relayer checks each client's latest consensus
    // state against the other chain's header at that height.
    const again = await guard<any>('createWithExistingConnections', () => Link.createWithExistingConnections(clientA, clientB, link.endA.connectionID, link.endB.connectionID, logger));
    expect([again.endA.clientID, again.endB.clientID]).toEqual([link.endA.clientID, link.endB.clientID]);
    // No channel yet: the packet and ack scans (tx_search and block_search on send_packet /
    // write_acknowledgement by connection) find nothing to relay.
    const info = await guard('relayAll', () => link.relayAll());
    expect(info).toEqual({ packetsFromA: 0, packetsFromB: 0, acksFromA: [], acksFromB: [] });
  });

  test('an ICS-20 channel: attotoken A → B arrives as ibc/<hash> with its trace, and goes back with exact balances', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (err) {
        throw new Error(`${what}: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
      }
    };
    const channels = await guard<any>('createChannel', () => link.createChannel('A', 'transfer', 'transfer', ORDER_UNORDERED, 'ics20-1'));
    const [channelA, channelB] = [channels.src.channelId as string, channels.dest.channelId as string];
    transfer = { channelA, channelB };
    for (const [chain, channel, counterparty] of [[a, channelA, channelB], [b, channelB, channelA]] as const) {
      const end = JSON.parse(await ok(['q', 'ibc', 'channel', 'end', 'transfer', channel, '--node', chain.bg!.node, '-o', 'json']));
      expect(end.channel).toMatchObject({ state: 'STATE_OPEN', ordering: 'ORDER_UNORDERED', version: 'ics20-1', counterparty: { port_id: 'transfer', channel_id: counterparty } });
    }

    // A → B: the relayer's key sends 1000 attotoken to its own address on B.
    const sent = await guard<any>('transfer A→B', () => clientA.transferTokens('transfer', channelA, { denom: DENOM, amount: '1000' }, clientB.senderAddress, undefined, Math.floor(Date.now() / 1000) + 600));
    expect(sent.transactionHash).toMatch(/^[0-9A-F]{64}$/);
    const relayed = await guard<any>('relayAll A→B', () => link.relayAll());
    expect([relayed.packetsFromA, relayed.packetsFromB]).toEqual([1, 0]);
    const voucher = `ibc/${createHash('sha256').update(`transfer/${channelB}/${DENOM}`).digest('hex').toUpperCase()}`;
    const balance = async (chain: Chain, address: string, denom: string): Promise<string> =>
      JSON.parse(await ok(['q', 'bank', 'balances', address, '--denom', denom, '--node', chain.bg!.node, '-o', 'json'])).balance.amount;
    expect(await balance(b, clientB.senderAddress, voucher)).toBe('1000');
    const trace = JSON.parse(await ok(['q', 'ibc-transfer', 'denom-trace', voucher, '--node', b.bg!.node, '-o', 'json']));
    expect(trace.denom_trace).toEqual({ path: `transfer/${channelB}`, base_denom: DENOM });
    const escrow = JSON.parse(await ok(['q', 'ibc-transfer', 'escrow-address', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json'])).escrow_address;
    expect(await balance(a, escrow, DENOM)).toBe('1000');

    // B → A: 400 of the voucher back to a fresh address on A, which receives exactly 400 attotoken.
    const receiver = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/1");
    await guard('transfer B→A', () => clientB.transferTokens('transfer', channelB, { denom: voucher, amount: '400' }, receiver, undefined, Math.floor(Date.now() / 1000) + 600));
    const back = await guard<any>('relayAll B→A', () => link.relayAll());
    expect([back.packetsFromA, back.packetsFromB]).toEqual([0, 1]);
    expect(await balance(a, receiver, DENOM)).toBe('400');
    expect(await balance(a, escrow, DENOM)).toBe('600');
    expect(await balance(b, clientB.senderAddress, voucher)).toBe('600');
  });

  test('a packet that times out on B is refunded on A (MsgTimeout with the absence proof of its receipt)', async () => {
    expect(relayer && transfer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const { channelA } = transfer!;
    const [a, b] = chains as [Chain, Chain];
    const balance = async (chain: Chain, address: string, denom: string): Promise<string> =>
      JSON.parse(await ok(['q', 'bank', 'balances', address, '--denom', denom, '--node', chain.bg!.node, '-o', 'json'])).balance.amount;
    const escrow = JSON.parse(await ok(['q', 'ibc-transfer', 'escrow-address', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json'])).escrow_address;
    const escrowed = BigInt(await balance(a, escrow, DENOM));
    const timeoutHeight = await clientB.timeoutHeight(3);
    try {
      await clientA.transferTokens('transfer', channelA, { denom: DENOM, amount: '50' }, clientB.senderAddress, timeoutHeight);
    } catch (err) {
      throw new Error(`transfer: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
    }
    expect(BigInt(await balance(a, escrow, DENOM))).toBe(escrowed + 50n);
    await waitForRpcHeight(b.rpc, Number(timeoutHeight.revisionHeight) + 1);
    let info;
    try {
      info = await link.relayAll();
    } catch (err) {
      throw new Error(`relayAll: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
    }
    // Pending packets count the timed-out one (relayed as a timeout, not to B).
    expect([info.packetsFromA, info.packetsFromB]).toEqual([1, 0]);
    expect(BigInt(await balance(a, escrow, DENOM))).toBe(escrowed);
    const commitments = JSON.parse(await ok(['q', 'ibc', 'channel', 'packet-commitments', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json']));
    expect(commitments.commitments).toEqual([]);
  });
});
