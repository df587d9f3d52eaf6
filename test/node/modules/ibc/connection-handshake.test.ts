/**
 * The 03-connection handshake between two real tokend chains run in-process (app + BFT engine,
 * one validator each): each chain keeps a 07-tendermint client of the other, updated with the
 * other's signed headers as a relayer reads them; each handshake step carries proofs of the other
 * chain's `ibc` store from `abci_query /store/ibc/key prove=true` at height H−1 of the header H
 * the client was just updated to. INIT on A → TRYOPEN on B → OPEN on A → OPEN on B, then the
 * queries show both ends; refused steps answer ibc-go's error and change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { AnySchema, TimestampSchema, type Any } from '@bufbuild/protobuf/wkt';
import { CommitmentProofSchema } from '../../../../src/gen/cosmos/ics23/v1/proofs_pb.js';
import { MsgCreateClientSchema, MsgUpdateClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MerklePrefixSchema, MerkleProofSchema, MerkleRootSchema } from '../../../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
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
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { CommitSchema, HeaderSchema as TmHeaderSchema, SignedHeaderSchema } from '../../../../src/gen/tendermint/types/types_pb.js';
import type { ExecTxResult } from '../../../../src/node/abci/types.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { validateIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { encodeCommit, encodeHeader, txHash } from '../../../../src/node/consensus/types/block.js';
import { TOKEN, abciQuery, buildAppState, signTx, startChain } from '../../app/helpers.js';
import { alice, startFullNode, waitFor, type FullNode } from '../../services/helpers.js';
import { height, protoValidatorSet, testClientState } from '../../../helpers/ibcHeaders.js';

const CHAIN_A = 'chaina-1';
const CHAIN_B = 'chainb-1';
const CLIENT = '07-tendermint-0';
const utf8 = new TextEncoder();

interface Side {
  id: string;
  node: FullNode;
  sequence: bigint;
  /** This chain's client of the other chain: its latest height. */
  clientHeight: number;
}

let A: Side;
let B: Side;

function headerOf(side: Side, h: number, trusted: number) {
  const block = side.node.consensus.blockStore.loadBlock(h)!;
  const commit = side.node.consensus.blockStore.loadBlockCommit(h)!;
  const validators = (at: number) => protoValidatorSet(side.node.consensus.stateStore.loadValidators(at)!);
  return create(HeaderSchema, {
    signedHeader: create(SignedHeaderSchema, { header: fromBinary(TmHeaderSchema, encodeHeader(block.header)), commit: fromBinary(CommitSchema, encodeCommit(commit)) }),
    validatorSet: validators(h),
    trustedHeight: height(1n, BigInt(trusted)),
    trustedValidators: validators(trusted + 1),
  });
}

function consensusStateOf(side: Side, h: number) {
  const header = side.node.consensus.blockStore.loadBlock(h)!.header;
  return create(ConsensusStateSchema, {
    timestamp: create(TimestampSchema, { seconds: BigInt(header.time.seconds), nanos: header.time.nanos }),
    root: create(MerkleRootSchema, { hash: header.appHash }),
    nextValidatorsHash: header.nextValidatorsHash,
  });
}

/** Signs, submits to the chain's mempool and waits for the block with the tx; its result. */
async function deliver(side: Side, msgs: Any[]): Promise<ExecTxResult & { height: number }> {
  const tx = signTx({ signer: alice, msgs, sequence: side.sequence, accountNumber: 0n, fee: 20_000n, gas: 2_000_000n, chainId: side.id });
  const from = side.node.consensus.blockStore.height();
  const checked = await side.node.consensus.mempool.checkTx(tx);
  if (checked.code !== 0) throw new Error(`checkTx: ${checked.log}`);
  side.sequence++;
  const hash = Buffer.from(txHash(tx)).toString('hex');
  let found: { height: number; index: number } | undefined;
  await waitFor(
    () => {
      const store = side.node.consensus.blockStore;
      for (let h = from + 1; h <= store.height() && found === undefined; h++) {
        const index = store.loadBlock(h)!.data.txs.findIndex((t) => Buffer.from(txHash(t)).toString('hex') === hash);
        if (index >= 0) found = { height: h, index };
      }
      return found !== undefined;
    },
    30_000,
    'the tx in a block',
  );
  await side.node.waitForHeight(found!.height);
  const result = side.node.consensus.stateStore.loadFinalizeBlockResponse(found!.height)!.txResults[found!.index]!;
  return { ...result, height: found!.height };
}

/** Updates `side`'s client of `other` to a header of `other` above `above`; the header's height. */
async function updateClient(side: Side, other: Side, above: number): Promise<number> {
  const target = above + 1;
  await other.node.waitForHeight(target + 1);
  const update = anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId: CLIENT, header: anyPack(HeaderSchema, headerOf(other, target, side.clientHeight)), signer: alice.bech32 }));
  const result = await deliver(side, [update]);
  expect([result.code, result.log]).toEqual([0, '']);
  side.clientHeight = target;
  return target;
}

/** A proof of `key` in the chain's ibc store at version `h` (a MerkleProof of the ics23:iavl and ics23:simple ops). */
async function prove(side: Side, key: string, h: number): Promise<{ value: Uint8Array; proof: Uint8Array }> {
  const response = await side.node.app.query({ path: '/store/ibc/key', data: utf8.encode(key), height: h, prove: true });
  expect(response.code).toBe(0);
  const ops = response.proofOps!.ops;
  expect(ops.map((op) => op.type)).toEqual(['ics23:iavl', 'ics23:simple']);
  return { value: response.value, proof: toBinary(MerkleProofSchema, create(MerkleProofSchema, { proofs: ops.map((op) => fromBinary(CommitmentProofSchema, op.data)) })) };
}

async function query<Res extends DescMessage>(side: Side, method: string, req: DescMessage, init: Record<string, unknown>, res: Res): Promise<MessageShape<Res>> {
  const { value, response } = await abciQuery(side.node.app, method, toBinary(req, create(req, init)), res);
  if (response.code !== 0) throw new Error(response.log);
  return value!;
}

const ibcPrefix = () => create(MerklePrefixSchema, { keyPrefix: utf8.encode('ibc') });

/** The client state `side` keeps of the other chain (as stored, an Any). */
function storedClientState(side: Side, h: number): Promise<{ value: Uint8Array; proof: Uint8Array }> {
  return prove(side, `clients/${CLIENT}/clientState`, h);
}

beforeAll(async () => {
  const [nodeA, nodeB] = await Promise.all([startFullNode({ chainId: CHAIN_A, indexer: 'null' }), startFullNode({ chainId: CHAIN_B, indexer: 'null' })]);
  A = { id: CHAIN_A, node: nodeA, sequence: 0n, clientHeight: 0 };
  B = { id: CHAIN_B, node: nodeB, sequence: 0n, clientHeight: 0 };
  await Promise.all([nodeA.waitForHeight(3), nodeB.waitForHeight(3)]);
  // Each chain's client of the other, from the other's header 2.
  for (const [side, other] of [[A, B], [B, A]] as const) {
    const msg = anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
      clientState: anyPack(ClientStateSchema, testClientState(other.id, height(1n, 2n))),
      consensusState: anyPack(ConsensusStateSchema, consensusStateOf(other, 2)),
      signer: alice.bech32,
    }));
    const result = await deliver(side, [msg]);
    expect([result.code, result.log]).toEqual([0, '']);
    side.clientHeight = 2;
  }
}, 60_000);

afterAll(async () => {
  await A?.node.stop();
  await B?.node.stop();
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

