/**
 * The 03-connection handshake between two real tokend chains run in-process (app + BFT engine,
 * one validator each): each chain keeps a 07-tendermint client of the other, updated with the
 * other's signed headers as a relayer reads them; each handshake step carries proofs of the other
 * chain's `ibc` store from `abci_query /store/ibc/key prove=true` at height H−1 of the header H
 * the client was just updated to. INIT on A → TRYOPEN on B → OPEN on A → OPEN on B, then the
 * queries show both ends; refused steps answer ibc-go's error and change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { ConnectionEndSchema, CounterpartySchema, State, VersionSchema } from '../../../../src/gen/ibc/core/connection/v1/connection_pb.js';
import {
  QueryClientConnectionsRequestSchema,
  QueryClientConnectionsResponseSchema,
  QueryConnectionRequestSchema,
  QueryConnectionResponseSchema,
  QueryConnectionsRequestSchema,
  QueryConnectionsResponseSchema,
} from '../../../../src/gen/ibc/core/connection/v1/query_pb.js';
import { MsgConnectionOpenAckSchema, MsgConnectionOpenConfirmSchema, MsgConnectionOpenInitSchema, MsgConnectionOpenTrySchema } from '../../../../src/gen/ibc/core/connection/v1/tx_pb.js';
import { ClientStateSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { validateIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { TOKEN, buildAppState, startChain } from '../../app/helpers.js';
import { alice } from '../../services/helpers.js';
import { height, testClientState } from '../../../helpers/ibcHeaders.js';
import { CLIENT, createClients, deliver as deliverTx, ibcPrefix, prove as proveKey, query, startChains, stopChains, updateClient as updateClientOf, type Side } from '../../../helpers/ibcChains.js';

const CHAIN_A = 'chaina-1';
const CHAIN_B = 'chainb-1';

/** The gas limit of this file's txs. */
const GAS = 2_000_000n;

let A: Side;
let B: Side;

/** Signs, submits to the chain's mempool and waits for the block with the tx; its result. */
const deliver = (side: Side, msgs: Any[]) => deliverTx(side, msgs, { gas: GAS });

/** Updates `side`'s client of `other` to a header of `other` above `above`; the header's height. */
const updateClient = (side: Side, other: Side, above: number) => updateClientOf(side, other, above, { gas: GAS });

/** A proof of `key` in the chain's ibc store at version `h` (a MerkleProof of the ics23:iavl and ics23:simple ops). */
async function prove(side: Side, key: string, h: number): Promise<{ value: Uint8Array; proof: Uint8Array }> {
  const proved = await proveKey(side, key, h);
  expect(proved.opTypes).toEqual(['ics23:iavl', 'ics23:simple']);
  return proved;
}

/** The client state `side` keeps of the other chain (as stored, an Any). */
function storedClientState(side: Side, h: number): Promise<{ value: Uint8Array; proof: Uint8Array }> {
  return prove(side, `clients/${CLIENT}/clientState`, h);
}

beforeAll(async () => {
  [A, B] = await startChains({ chainId: CHAIN_A }, { chainId: CHAIN_B });
  // Each chain's client of the other, from the other's header 2.
  await createClients(A, B, { gas: GAS });
}, 60_000);

afterAll(async () => {
  await stopChains(A, B);
});

describe('the connection handshake between two tokend chains', () => {
  let initHeight = 0;

  test('INIT on A: connection-0 with every supported version, events as ibc-go', async () => {
    const init = anyPack(MsgConnectionOpenInitSchema, create(MsgConnectionOpenInitSchema, {
      clientId: CLIENT,
      counterparty: create(CounterpartySchema, { clientId: CLIENT, connectionId: '', prefix: ibcPrefix() }),
      delayPeriod: 0n,
      signer: alice.bech32,
    }));
    const result = await deliver(A, [init]);
    expect([result.code, result.log]).toEqual([0, '']);
    initHeight = result.height;
    const event = result.events.find((e) => e.type === 'connection_open_init')!;
    expect(event.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value])).toEqual([
      ['connection_id', 'connection-0'],
      ['client_id', CLIENT],
      ['counterparty_client_id', CLIENT],
      ['counterparty_connection_id', ''],
    ]);
    expect(result.events.some((e) => e.type === 'message' && e.attributes.some((a) => a.key === 'module' && a.value === 'ibc_connection'))).toBe(true);
    const { connection } = await query(A, '/ibc.core.connection.v1.Query/Connection', QueryConnectionRequestSchema, { connectionId: 'connection-0' }, QueryConnectionResponseSchema);
    expect(connection!.state).toBe(State.INIT);
    expect(connection!.versions.map((v) => [v.identifier, v.features])).toEqual([['1', ['ORDER_ORDERED', 'ORDER_UNORDERED']]]);
  }, 60_000);

  test('TRY on B, ACK on A, CONFIRM on B: both ends OPEN', async () => {
    // TRY on B: B's client of A at a header whose app hash commits A's INIT.
    const proofHeightA = await updateClient(B, A, initHeight);
    const atA = proofHeightA - 1;
    const initProof = await prove(A, 'connections/connection-0', atA);
    const clientOfB = await storedClientState(A, atA);
    const consensusHeightB = A.clientHeight;
    const consensusProof = await prove(A, `clients/${CLIENT}/consensusStates/1-${consensusHeightB}`, atA);
    const endA = fromBinary(ConnectionEndSchema, initProof.value);
    const tryMsg = create(MsgConnectionOpenTrySchema, {
      clientId: CLIENT,
      clientState: fromBinary(AnySchema, clientOfB.value),
      counterparty: create(CounterpartySchema, { clientId: CLIENT, connectionId: 'connection-0', prefix: ibcPrefix() }),
      delayPeriod: 0n,
      counterpartyVersions: endA.versions,
      proofHeight: height(1n, BigInt(proofHeightA)),
      proofInit: initProof.proof,
      proofClient: clientOfB.proof,
      proofConsensus: consensusProof.proof,
      consensusHeight: height(1n, BigInt(consensusHeightB)),
      signer: alice.bech32,
    });

    // Refused first, each with ibc-go's error and nothing written: a proof that does not verify …
    const bad = await deliver(B, [anyPack(MsgConnectionOpenTrySchema, { ...tryMsg, proofInit: clientOfB.proof })]);
    expect([bad.codespace, bad.code]).toEqual(['commitment', 2]);
    expect(bad.log).toContain('connection handshake open try failed');
    expect(bad.log).toContain('failed connection state verification for client (07-tendermint-0)');
    // … and a client of B that is not a client of B (another chain id): ValidateSelfClient.
    const otherChain = anyPack(ClientStateSchema, testClientState('chainc-1', height(1n, 2n)));
    const notSelf = await deliver(B, [anyPack(MsgConnectionOpenTrySchema, { ...tryMsg, clientState: otherChain })]);
    expect([notSelf.codespace, notSelf.code]).toEqual(['client', 3]);
    expect(notSelf.log).toContain('invalid chain-id. expected: chainb-1, got: chainc-1');
    const none = await query(B, '/ibc.core.connection.v1.Query/Connections', QueryConnectionsRequestSchema, {}, QueryConnectionsResponseSchema);
    expect(none.connections).toEqual([]);

    const tried = await deliver(B, [anyPack(MsgConnectionOpenTrySchema, tryMsg)]);
    expect([tried.code, tried.log]).toEqual([0, '']);
    const tryEvent = tried.events.find((e) => e.type === 'connection_open_try')!;
    expect(tryEvent.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value])).toEqual([
      ['connection_id', 'connection-0'],
      ['client_id', CLIENT],
      ['counterparty_client_id', CLIENT],
      ['counterparty_connection_id', 'connection-0'],
    ]);

    // ACK on A: A's client of B at a header committing B's TRYOPEN.
    const proofHeightB = await updateClient(A, B, tried.height);
    const atB = proofHeightB - 1;
    const tryProof = await prove(B, 'connections/connection-0', atB);
    expect(fromBinary(ConnectionEndSchema, tryProof.value).state).toBe(State.TRYOPEN);
    const clientOfA = await storedClientState(B, atB);
    const consensusHeightA = B.clientHeight;
    const consensusProofA = await prove(B, `clients/${CLIENT}/consensusStates/1-${consensusHeightA}`, atB);
    const ackMsg = create(MsgConnectionOpenAckSchema, {
      connectionId: 'connection-0',
      counterpartyConnectionId: 'connection-0',
      version: fromBinary(ConnectionEndSchema, tryProof.value).versions[0]!,
      clientState: fromBinary(AnySchema, clientOfA.value),
      proofHeight: height(1n, BigInt(proofHeightB)),
      proofTry: tryProof.proof,
      proofClient: clientOfA.proof,
      proofConsensus: consensusProofA.proof,
      consensusHeight: height(1n, BigInt(consensusHeightA)),
      signer: alice.bech32,
    });
    const acked = await deliver(A, [anyPack(MsgConnectionOpenAckSchema, ackMsg)]);
    expect([acked.code, acked.log]).toEqual([0, '']);
    expect(acked.events.find((e) => e.type === 'connection_open_ack')!.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value])).toEqual([
      ['connection_id', 'connection-0'],
      ['client_id', CLIENT],
      ['counterparty_client_id', CLIENT],
      ['counterparty_connection_id', 'connection-0'],
    ]);
    // An ACK for a connection no longer in INIT.
    const again = await deliver(A, [anyPack(MsgConnectionOpenAckSchema, ackMsg)]);
    expect([again.codespace, again.code]).toEqual(['connection', 6]);
    expect(again.log).toContain('connection state is not INIT (got STATE_OPEN)');

    // CONFIRM on B: B's client of A at a header committing A's OPEN.
    const confirmHeightA = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, 'connections/connection-0', confirmHeightA - 1);
    expect(fromBinary(ConnectionEndSchema, ackProof.value).state).toBe(State.OPEN);
    const confirmed = await deliver(B, [
      anyPack(MsgConnectionOpenConfirmSchema, create(MsgConnectionOpenConfirmSchema, { connectionId: 'connection-0', proofAck: ackProof.proof, proofHeight: height(1n, BigInt(confirmHeightA)), signer: alice.bech32 })),
    ]);
    expect([confirmed.code, confirmed.log]).toEqual([0, '']);
    expect(confirmed.events.some((e) => e.type === 'connection_open_confirm')).toBe(true);

    for (const [side, counterpartyClient] of [[A, CLIENT], [B, CLIENT]] as const) {
      const { connections } = await query(side, '/ibc.core.connection.v1.Query/Connections', QueryConnectionsRequestSchema, {}, QueryConnectionsResponseSchema);
      expect(connections.map((c) => [c.id, c.clientId, c.state, c.counterparty?.clientId, c.counterparty?.connectionId])).toEqual([['connection-0', CLIENT, State.OPEN, counterpartyClient, 'connection-0']]);
      expect(connections[0]!.versions.map((v) => [v.identifier, v.features])).toEqual([['1', ['ORDER_ORDERED', 'ORDER_UNORDERED']]]);
      const paths = await query(side, '/ibc.core.connection.v1.Query/ClientConnections', QueryClientConnectionsRequestSchema, { clientId: CLIENT }, QueryClientConnectionsResponseSchema);
      expect(paths.connectionPaths).toEqual(['connection-0']);
      // The genesis export carries the open connection, its client path and the sequence; it validates.
      const exported = (await exportAppState(side.node.app.store)) as Record<string, any>;
      const section = exported['ibc'].connection_genesis;
      expect(section.connections.map((c: any) => [c.id, c.state, c.counterparty.connection_id])).toEqual([['connection-0', 'STATE_OPEN', 'connection-0']]);
      expect(section.client_connection_paths).toEqual([{ client_id: CLIENT, paths: ['connection-0'] }]);
      expect(section.next_connection_sequence).toBe('1');
      expect(validateIbcGenesis(exported['ibc'])).toEqual([]);
      // … and re-imports into a new chain as the same connections, paths, sequence and params.
      const second = await startChain({ ...buildAppState({ accounts: [[alice, 1000n * TOKEN]], validator: alice, selfDelegation: 100n * TOKEN, chainId: side.id }), ibc: exported['ibc'] }, { chainId: side.id });
      try {
        await second.block([]);
        const again = (await exportAppState(second.store)) as Record<string, any>;
        expect(again['ibc'].connection_genesis).toEqual(section);
      } finally {
        await second.close();
      }
    }
  }, 120_000);

  test('INIT with an unknown client or an unsupported version is refused and writes nothing', async () => {
    const init = (clientId: string, version?: ReturnType<typeof create<typeof VersionSchema>>) =>
      anyPack(MsgConnectionOpenInitSchema, create(MsgConnectionOpenInitSchema, {
        clientId,
        counterparty: create(CounterpartySchema, { clientId: CLIENT, connectionId: '', prefix: ibcPrefix() }),
        ...(version ? { version } : {}),
        signer: alice.bech32,
      }));
    const unknown = await deliver(A, [init('07-tendermint-9')]);
    expect([unknown.codespace, unknown.code]).toEqual(['client', 4]);
    expect(unknown.log).toContain('connection handshake open init failed: 07-tendermint-9: light client not found');
    const wrongVersion = await deliver(A, [init(CLIENT, create(VersionSchema, { identifier: '2', features: ['ORDER_ORDERED'] }))]);
    expect([wrongVersion.codespace, wrongVersion.code]).toEqual(['connection', 9]);
    expect(wrongVersion.log).toContain('version is not supported');
    const { connections } = await query(A, '/ibc.core.connection.v1.Query/Connections', QueryConnectionsRequestSchema, {}, QueryConnectionsResponseSchema);
    expect(connections.map((c) => c.id)).toEqual(['connection-0']);
  }, 60_000);
});

