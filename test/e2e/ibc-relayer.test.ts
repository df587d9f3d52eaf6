/**
 * End-to-end: two tokend chains as real processes, connected by the published TypeScript relayer
 * (@confio/relayer 0.12, used as a library). A relayer key — a plain secp256k1 Cosmos key from a
 * mnemonic, as the relayer's DirectSecp256k1HdWallet derives it — is funded at genesis on both
 * chains; the relayer creates a 07-tendermint client on each chain and opens a connection between
 * them (clients, connection handshake, proofs read with abci_query, updates with headers, commits and
 * validator sets from the RPC); both ends must be OPEN by the CLI and by REST.
 */
import { jest } from '@jest/globals';
import { cliOk as ok, tempHome } from '../helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, type BackgroundNode } from '../helpers/node.js';
import { connectRelayerClient, Link, relayerAddress } from '../helpers/relayer.js';

jest.setTimeout(300_000);

const VALIDATOR_MNEMONIC = 'test test test test test test test test test test test junk';
const RELAYER_MNEMONIC = 'enlist hip relief stomach skate base shallow young switch frequent cry park';
const DENOM = 'attotoken';
const GAS_PRICE = `20000000000${DENOM}`;

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
});
