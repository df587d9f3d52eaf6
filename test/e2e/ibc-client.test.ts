/**
 * End-to-end, with the real binary: a light client created with `tokend tx ibc client create`
 * (client and consensus state as JSON Anys, as a user without a relayer would), then every
 * `tokend query ibc client …` command against the node — and the bad input: an unknown client
 * (NotFound, exit 1), a malformed identifier (one line), a client state the chain refuses (the
 * tx's ibc-go code, nothing stored).
 */
import { jest } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { MerkleRootSchema } from '../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema } from '../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { anyPack, toGatewayJson } from '../../src/node/codec/index.js';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import '../../src/node/app/modules.js';
import { cliOk as ok, runCli } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { height, testClientState } from '../helpers/ibcHeaders.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(120_000);


function anyJson(any: ReturnType<typeof anyPack>): string {
  return JSON.stringify(toGatewayJson(AnySchema, any));
}

describe('tokend tx/query ibc client against a node', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  const h = (): string[] => ['--home', home];

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-ibc-');
    fastBlocks(home, '500ms');
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  const tx = (args: string[]): string[] => ['tx', 'ibc', 'client', ...args, '--from', 'alice', '--keyring-backend', 'test', '--chain-id', 'testnet', '--yes', '-b', 'block', '--gas', '400000', '--fees', '8000000000000000attotoken', '--node', bg!.node, '-o', 'json', ...h()];

  test('create a client, then every client query', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const clientState = anyPack(ClientStateSchema, testClientState('chainb-1', height(1n, 10n)));
    const consensusState = anyPack(ConsensusStateSchema, create(ConsensusStateSchema, { timestamp: create(TimestampSchema, { seconds: now - 60n }), root: create(MerkleRootSchema, { hash: new Uint8Array(32).fill(1) }), nextValidatorsHash: new Uint8Array(32).fill(2) }));
    const created = JSON.parse(await ok(tx(['create', '--client-state', anyJson(clientState), '--consensus-state', anyJson(consensusState)])));
    expect([created.code, created.raw_log]).toEqual([0, '']);
    const events = created.events ?? created.logs?.[0]?.events ?? [];
    expect(JSON.stringify(events)).toContain('07-tendermint-0');

    const n = ['--node', bg!.node, '-o', 'json'];
    const q = async (args: string[]): Promise<any> => JSON.parse(await ok(['q', 'ibc', 'client', ...args, ...n]));
    expect((await q(['states'])).client_states.map((c: any) => c.client_id)).toEqual(['07-tendermint-0']);
    expect((await q(['state', '07-tendermint-0'])).client_state).toMatchObject({ '@type': '/ibc.lightclients.tendermint.v1.ClientState', chain_id: 'chainb-1', latest_height: { revision_number: '1', revision_height: '10' } });
    expect((await q(['status', '07-tendermint-0'])).status).toBe('Active');
    expect((await q(['consensus-states', '07-tendermint-0'])).consensus_states.map((c: any) => c.height)).toEqual([{ revision_number: '1', revision_height: '10' }]);
    expect((await q(['consensus-state-heights', '07-tendermint-0'])).consensus_state_heights).toEqual([{ revision_number: '1', revision_height: '10' }]);
    expect((await q(['consensus-state', '07-tendermint-0', '1', '10'])).consensus_state['@type']).toBe('/ibc.lightclients.tendermint.v1.ConsensusState');
    expect((await q(['params'])).params.allowed_clients).toEqual(['06-solomachine', '07-tendermint']);
  });

  test('bad input: unknown client, malformed id, a client state the chain refuses', async () => {
    const missing = await runCli(['q', 'ibc', 'client', 'state', '07-tendermint-9', '--node', bg!.node]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringContaining('07-tendermint-9: light client not found')]);
    const malformed = await runCli(['q', 'ibc', 'client', 'status', 'x', '--node', bg!.node]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr.trim().split('\n')).toEqual([expect.stringContaining('has invalid length')]);

    const bad = anyPack(ClientStateSchema, testClientState('chainb-1', height(2n, 10n)));
    const consensusState = anyPack(ConsensusStateSchema, create(ConsensusStateSchema, { timestamp: create(TimestampSchema, { seconds: 1_700_000_000n }), root: create(MerkleRootSchema, { hash: new Uint8Array(32).fill(1) }) }));
    const refused = await runCli(tx(['create', '--client-state', anyJson(bad), '--consensus-state', anyJson(consensusState)]));
    const out = JSON.parse(refused.stdout || '{}');
    expect([out.codespace, out.code]).toEqual(['07-tendermint', 5]);
    const states = JSON.parse(await ok(['q', 'ibc', 'client', 'states', '--node', bg!.node, '-o', 'json']));
    expect(states.client_states).toHaveLength(1);
  });

  test('a connection: tx ibc connection open-init, then every q ibc connection command; bad input', async () => {
    const conn = (args: string[]): string[] => ['tx', 'ibc', 'connection', ...tx(args).slice(3)];
    const counterparty = JSON.stringify({ client_id: '07-tendermint-0', connection_id: '', prefix: { key_prefix: Buffer.from('ibc').toString('base64') } });
    const opened = JSON.parse(await ok(conn(['open-init', '07-tendermint-0', '0', '--counterparty', counterparty])));
    expect([opened.code, opened.raw_log]).toEqual([0, '']);
    expect(JSON.stringify(opened.events ?? opened.logs?.[0]?.events ?? [])).toContain('connection_open_init');

    const n = ['--node', bg!.node, '-o', 'json'];
    const q = async (args: string[]): Promise<any> => JSON.parse(await ok(['q', 'ibc', 'connection', ...args, ...n]));
    const connections = await q(['connections']);
    expect(connections.connections.map((c: any) => [c.id, c.client_id, c.state])).toEqual([['connection-0', '07-tendermint-0', 'STATE_INIT']]);
    const end = await q(['end', 'connection-0']);
    expect(end.connection).toMatchObject({ client_id: '07-tendermint-0', state: 'STATE_INIT', versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }], counterparty: { client_id: '07-tendermint-0', connection_id: '', prefix: { key_prefix: 'aWJj' } }, delay_period: '0' });
    expect((await q(['path', '07-tendermint-0'])).connection_paths).toEqual(['connection-0']);
    expect((await q(['params'])).params).toEqual({ max_expected_time_per_block: '30000000000' });
    expect((await q(['client-state', 'connection-0'])).identified_client_state.client_id).toBe('07-tendermint-0');
    const consensus = await q(['consensus-state', 'connection-0', '1', '10']);
    expect([consensus.client_id, consensus.consensus_state['@type']]).toEqual(['07-tendermint-0', '/ibc.lightclients.tendermint.v1.ConsensusState']);

    const missing = await runCli(['q', 'ibc', 'connection', 'end', 'connection-9', '--node', bg!.node]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringContaining('connection-9: connection not found')]);
    const unknownClient = await runCli(conn(['open-init', '07-tendermint-9', '0', '--counterparty', counterparty]));
    const out = JSON.parse(unknownClient.stdout || '{}');
    expect([out.codespace, out.code]).toEqual(['client', 4]);
    expect((await q(['connections'])).connections).toHaveLength(1);

    // A channel on a port no application bound (transfer binds "transfer"): x/capability's error, no channel.
    const chan = (args: string[]): string[] => ['tx', 'ibc', 'channel', ...tx(args).slice(3)];
    const channel = JSON.stringify({ state: 'STATE_INIT', ordering: 'ORDER_UNORDERED', counterparty: { port_id: 'transfer', channel_id: '' }, connection_hops: ['connection-0'], version: 'ics20-1' });
    const unbound = await runCli(chan(['open-init', 'unbound', '--channel', channel]));
    const refused = JSON.parse(unbound.stdout || '{}');
    expect([refused.codespace, refused.code]).toEqual(['capability', 7]);
    expect(refused.raw_log).toContain('could not retrieve module from port-id: ports/unbound: capability not found');
    expect(JSON.parse(await ok(['q', 'ibc', 'channel', 'channels', ...n])).channels).toEqual([]);
  });
});
