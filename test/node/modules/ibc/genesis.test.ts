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

  test('connections or channels are refused until their submodules exist', () => {
    const genesis = { ...(defaultIbcGenesis() as Record<string, any>) };
    genesis['connection_genesis'] = { ...genesis['connection_genesis'], connections: [{ id: 'connection-0' }] };
    expect(validateIbcGenesis(genesis)).toEqual([expect.stringContaining('ibc.connection_genesis.connections: the connection submodule is not part of this node yet')]);
  });
});
