/**
 * The ibc genesis section: the default is ibc-go v6's (allowed clients 06-solomachine and
 * 07-tendermint, next sequence 0, connection and channel defaults), every invalid client,
 * connection or channel genesis gets one line naming what is wrong, and channel state imports
 * and exports unchanged.
 */
import { create, type JsonObject } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import '../../../../src/node/app/modules.js';
import { anyPack, toGatewayJson } from '../../../../src/node/codec/index.js';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { defaultIbcGenesis, validateIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { TOKEN, buildAppState, startChain, testKey } from '../../app/helpers.js';
import { height, testClientState } from '../../../helpers/ibcHeaders.js';

const clientAny = (latest = 10n, chainId = 'chainb-1') => toGatewayJson(AnySchema, anyPack(ClientStateSchema, testClientState(chainId, height(1n, latest))));
const consensusAny = () =>
  toGatewayJson(AnySchema, anyPack(ConsensusStateSchema, create(ConsensusStateSchema, { timestamp: create(TimestampSchema, { seconds: 1_700_000_000n }), root: create(MerkleRootSchema, { hash: new Uint8Array(32).fill(1) }) })));

function withClients(clientGenesis: Record<string, unknown>): JsonObject {
  const base = defaultIbcGenesis() as Record<string, any>;
  return { ...base, client_genesis: { ...base['client_genesis'], ...clientGenesis } } as JsonObject;
}

describe('ibc genesis', () => {
  test('the default is ibc-go v6’s and valid', () => {
    const genesis = defaultIbcGenesis() as Record<string, any>;
    expect(genesis['client_genesis']).toEqual({ clients: [], clients_consensus: [], clients_metadata: [], params: { allowed_clients: ['06-solomachine', '07-tendermint'] }, create_localhost: false, next_client_sequence: '0' });
    expect(genesis['connection_genesis'].params).toEqual({ max_expected_time_per_block: '30000000000' });
    expect(validateIbcGenesis(genesis)).toEqual([]);
  });

  test('a client with its consensus state and a sequence above it is valid', () => {
    const genesis = withClients({
      clients: [{ client_id: '07-tendermint-0', client_state: clientAny() }],
      clients_consensus: [{ client_id: '07-tendermint-0', consensus_states: [{ height: { revision_number: '1', revision_height: '10' }, consensus_state: consensusAny() }] }],
      next_client_sequence: '1',
    });
    expect(validateIbcGenesis(genesis)).toEqual([]);
  });

  test.each([
    ['a malformed client id', { clients: [{ client_id: 'x', client_state: clientAny() }], next_client_sequence: '1' }, 'invalid client identifier'],
    ['a next sequence not above the ids used', { clients: [{ client_id: '07-tendermint-3', client_state: clientAny() }], next_client_sequence: '2' }, 'must be greater than the maximum sequence used in the provided client identifiers 3'],
    ['an invalid client state', { clients: [{ client_id: '07-tendermint-0', client_state: clientAny(0n) }], next_client_sequence: '1' }, "latest height revision height cannot be zero"],
    ['a duplicate client', { clients: [{ client_id: '07-tendermint-0', client_state: clientAny() }, { client_id: '07-tendermint-0', client_state: clientAny() }], next_client_sequence: '1' }, 'duplicate client id 07-tendermint-0'],
    ['consensus states of no client', { clients_consensus: [{ client_id: '07-tendermint-5', consensus_states: [] }] }, 'does not map to a genesis client'],
    ['the localhost client', { create_localhost: true }, 'localhost client is not supported'],
    ['a blank allowed client type', { params: { allowed_clients: [' '] } }, 'client type 0 cannot be blank'],
  ])('refuses %s with one line', (_name, clientGenesis, text) => {
    const problems = validateIbcGenesis(withClients(clientGenesis));
    expect(problems).toEqual([expect.stringContaining(text)]);
  });

  const openConnection = (id: string) => ({
    id,
    client_id: '07-tendermint-0',
    versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
    state: 'STATE_OPEN',
    counterparty: { client_id: '07-tendermint-3', connection_id: 'connection-7', prefix: { key_prefix: Buffer.from('ibc').toString('base64') } },
    delay_period: '0',
  });
  function withConnections(section: Record<string, unknown>): JsonObject {
    const base = defaultIbcGenesis() as Record<string, any>;
    return { ...base, connection_genesis: { ...base['connection_genesis'], ...section } } as JsonObject;
  }

  test('connections with their client paths and a sequence above them are valid', () => {
    const genesis = withConnections({ connections: [openConnection('connection-0'), openConnection('connection-4')], client_connection_paths: [{ client_id: '07-tendermint-0', paths: ['connection-0', 'connection-4'] }], next_connection_sequence: '5' });
    expect(validateIbcGenesis(genesis)).toEqual([]);
  });

  test.each([
    ['a connection id not of the form connection-N', { connections: [openConnection('conn-0')], next_connection_sequence: '1' }, 'is not in the format: `connection-{N}`'],
    ['a next sequence not above the ids used', { connections: [openConnection('connection-3')], next_connection_sequence: '3' }, 'next connection sequence 3 must be greater than maximum sequence used in connection identifier 3'],
    ['a connection without versions', { connections: [{ ...openConnection('connection-0'), versions: [] }], next_connection_sequence: '1' }, 'empty connection versions'],
    ['a counterparty without prefix', { connections: [{ ...openConnection('connection-0'), counterparty: { client_id: '07-tendermint-3', connection_id: '' } }], next_connection_sequence: '1' }, 'counterparty prefix cannot be empty'],
    ['a malformed client in the paths', { client_connection_paths: [{ client_id: 'x', paths: ['connection-0'] }] }, 'invalid client connection path 0'],
    ['a zero max expected time per block', { params: { max_expected_time_per_block: '0' } }, 'MaxExpectedTimePerBlock cannot be zero'],
  ])('refuses %s with one line', (_name, section, text) => {
    expect(validateIbcGenesis(withConnections(section))).toEqual([expect.stringContaining(text)]);
  });

  const openChannel = (channelId: string) => ({
    state: 'STATE_OPEN',
    ordering: 'ORDER_UNORDERED',
    counterparty: { port_id: 'transfer', channel_id: 'channel-9' },
    connection_hops: ['connection-0'],
    version: 'ics20-1',
    port_id: 'transfer',
    channel_id: channelId,
  });
  const packet = (sequence: string, data = 'AQ==') => ({ port_id: 'transfer', channel_id: 'channel-0', sequence, data });
  const seq = (sequence: string) => ({ port_id: 'transfer', channel_id: 'channel-0', sequence });
  const channelSection = {
    channels: [openChannel('channel-0')],
    acknowledgements: [packet('1')],
    commitments: [packet('2')],
    receipts: [packet('1')],
    send_sequences: [seq('3')],
    recv_sequences: [seq('2')],
    ack_sequences: [seq('2')],
    next_channel_sequence: '1',
  };
  function withChannels(section: Record<string, unknown>): JsonObject {
    const base = defaultIbcGenesis() as Record<string, any>;
    return { ...base, channel_genesis: { ...base['channel_genesis'], ...section } } as JsonObject;
  }

  test('channels with packet state and sequences are valid, and a chain started from them exports them unchanged', async () => {
    const genesis = withChannels(channelSection);
    expect(validateIbcGenesis(genesis)).toEqual([]);
    const relayer = testKey('relayer');
    const chain = await startChain({ ...buildAppState({ accounts: [[relayer, 1000n * TOKEN]], validator: relayer, selfDelegation: 100n * TOKEN }), ibc: genesis });
    try {
      await chain.block([]);
      const exported = (await exportAppState(chain.store)) as Record<string, any>;
      expect(exported['ibc'].channel_genesis).toEqual((genesis as Record<string, any>)['channel_genesis']);
    } finally {
      await chain.close();
    }
  });

  test.each([
    ['a channel id not of the form channel-N', { channels: [openChannel('chan-0')], next_channel_sequence: '1' }, 'is not in the format: `channel-{N}`'],
    ['a next sequence not above the ids used', { channels: [openChannel('channel-2')], next_channel_sequence: '2' }, 'next channel sequence 2 must be greater than maximum sequence used in channel identifier 2'],
    ['a channel with two connection hops', { channels: [{ ...openChannel('channel-0'), connection_hops: ['connection-0', 'connection-1'] }], next_channel_sequence: '1' }, 'only supports one connection hop'],
    ['a channel without ordering', { channels: [{ ...openChannel('channel-0'), ordering: 'ORDER_NONE_UNSPECIFIED' }], next_channel_sequence: '1' }, 'ORDER_NONE_UNSPECIFIED: invalid channel ordering'],
    ['an empty commitment', { commitments: [packet('1', '')] }, 'channel_genesis.commitments[0]: data bytes cannot be nil'],
    ['a zero sequence', { send_sequences: [seq('0')] }, 'channel_genesis.send_sequences[0]: sequence cannot be 0'],
    ['a malformed port', { receipts: [{ ...packet('1'), port_id: 'x' }] }, 'invalid port Id'],
  ])('refuses %s with one line', (_name, section, text) => {
    expect(validateIbcGenesis(withChannels(section))).toEqual([expect.stringContaining(text)]);
  });
});
