/**
 * The ibc genesis section: the default is ibc-go v6's (allowed clients 06-solomachine and
 * 07-tendermint, next sequence 0, connection and channel defaults), and every invalid client
 * genesis gets one line naming what is wrong.
 */
import { create, type JsonObject } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ClientStateSchema, ConsensusStateSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import '../../../../src/node/app/modules.js';
import { anyPack, toGatewayJson } from '../../../../src/node/codec/index.js';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { defaultIbcGenesis, validateIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
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

  test('channels are refused until their submodule exists', () => {
    const genesis = { ...(defaultIbcGenesis() as Record<string, any>) };
    genesis['channel_genesis'] = { ...genesis['channel_genesis'], channels: [{ port_id: 'transfer' }] };
    expect(validateIbcGenesis(genesis)).toEqual([expect.stringContaining('ibc.channel_genesis.channels: the channel submodule is not part of this node yet')]);
  });
});
