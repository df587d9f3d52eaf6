/**
 * The node-level services (tendermint Service, tx Service lookups and broadcast) and the app
 * adapter, through the QueryRouter, on the real stack: App under the consensus engine with the
 * indexer. What a user checks: blocks and validator sets read back with the right shapes, a
 * broadcast tx is found by hash and by event with a COMPAT §5 TxResponse, paging never truncates
 * silently, and errors carry the gRPC codes the gateway maps to HTTP statuses.
 */
import { create, fromBinary, type DescMessage, type Message, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { QueryAccountRequestSchema } from '../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { QueryAllBalancesRequestSchema, QueryAllBalancesResponseSchema, Query as BankQuery } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { TxMsgDataSchema } from '../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import {
  ABCIQueryRequestSchema,
  GetBlockByHeightRequestSchema,
  GetLatestBlockRequestSchema,
  GetLatestValidatorSetRequestSchema,
  GetNodeInfoRequestSchema,
  GetNodeInfoResponseSchema,
  GetSyncingRequestSchema,
  GetValidatorSetByHeightRequestSchema,
  type ABCIQueryResponse,
  type GetLatestBlockResponse,
  type GetLatestValidatorSetResponse,
  type GetNodeInfoResponse,
  type GetSyncingResponse,
  type GetValidatorSetByHeightResponse,
} from '../../../src/gen/cosmos/base/tendermint/v1beta1/query_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import {
  BroadcastMode,
  BroadcastTxRequestSchema,
  GetBlockWithTxsRequestSchema,
  GetTxRequestSchema,
  GetTxResponseSchema,
  GetTxsEventRequestSchema,
  OrderBy,
  type BroadcastTxResponse,
  type GetBlockWithTxsResponse,
  type GetTxResponse,
  type GetTxsEventResponse,
} from '../../../src/gen/cosmos/tx/v1beta1/service_pb.js';
import { decodeBech32Address } from '../../../src/keyring/address.js';
import { CONSENSUS_PREFIX } from '../../../src/keyring/prefixes.js';
import { toGatewayJson } from '../../../src/node/codec/index.js';
import {
  GrpcStatus,
  QueryError,
  composeQueryRouter,
  eventCondition,
  nodeServiceEntries,
  offsetPage,
  txsEventPage,
  createQueryRouter,
  DEFAULT_PAGE_LIMITS,
  type NodeServicesEnv,
  type QueryRouter,
} from '../../../src/node/services/index.js';
import type { ResponseCheckTx } from '../../../src/node/abci/types.js';
import { ConsensusError } from '../../../src/node/consensus/errors.js';
import { EventBus } from '../../../src/node/consensus/events.js';
import { NullTxIndexer } from '../../../src/node/indexer/txIndex.js';
import { TOKEN, alice, aliceSends, bob, carol, startFullNode, testKey, validatorKey, type FullNode } from './helpers.js';

async function call<D extends DescMessage>(router: QueryRouter, path: string, schema: D, init: MessageInitShape<D>, height = 0): Promise<{ response: Message; height: number }> {
  const entry = router.lookup(path);
  if (entry === undefined) throw new Error(`no entry for ${path}`);
  return entry.handle(create(schema, init) as unknown as Message, { height });
}

async function response<T>(router: QueryRouter, path: string, schema: DescMessage, init: Record<string, unknown> = {}): Promise<T> {
  return (await call(router, path, schema, init as MessageInitShape<DescMessage>)).response as unknown as T;
}

async function failure(promise: Promise<unknown>): Promise<QueryError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(QueryError);
    return err as QueryError;
  }
  throw new Error('expected a QueryError');
}

const TM = '/cosmos.base.tendermint.v1beta1.Service';
const TX = '/cosmos.tx.v1beta1.Service';

describe('node-level services on the full stack', () => {
  let node: FullNode;
  let sendHash: string;
  let sentTx: Uint8Array;
  let sendHeight: number;
  let sequence = 0n;

  beforeAll(async () => {
    node = await startFullNode({ broadcastTimeoutMs: 15_000 });
  });

  afterAll(async () => {
    await node.stop();
  });

  async function broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastTxResponse> {
    return response<BroadcastTxResponse>(node.router, `${TX}/BroadcastTx`, BroadcastTxRequestSchema, { txBytes: tx, mode });
  }

  async function waitForTx(hash: string): Promise<GetTxResponse> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        return await response<GetTxResponse>(node.router, `${TX}/GetTx`, GetTxRequestSchema, { hash });
      } catch (err) {
        if (!(err instanceof QueryError) || err.grpcCode !== GrpcStatus.NotFound || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  test('the router serves app and node services under their upstream names', () => {
    const paths = [...node.router.entries()].map((entry) => entry.path);
    for (const path of [
      '/cosmos.bank.v1beta1.Query/AllBalances',
      '/cosmos.auth.v1beta1.Query/Account',
      '/cosmos.staking.v1beta1.Query/Validators',
      '/cosmos.base.node.v1beta1.Service/Config',
      `${TX}/Simulate`,
      `${TX}/GetTx`,
      `${TX}/GetTxsEvent`,
      `${TX}/BroadcastTx`,
      `${TX}/GetBlockWithTxs`,
      `${TM}/GetNodeInfo`,
      `${TM}/GetSyncing`,
      `${TM}/GetLatestBlock`,
      `${TM}/GetBlockByHeight`,
      `${TM}/GetLatestValidatorSet`,
      `${TM}/GetValidatorSetByHeight`,
      `${TM}/ABCIQuery`,
    ]) {
      expect(paths).toContain(path);
    }
    expect(node.router.lookup(`${TX}/GetTx`)!.source).toBe('node');
    expect(node.router.lookup(`${TX}/Simulate`)!.source).toBe('app');
  });

  test('GetNodeInfo: DefaultNodeInfo of this node and the application VersionInfo', async () => {
    const info = await response<GetNodeInfoResponse>(node.router, `${TM}/GetNodeInfo`, GetNodeInfoRequestSchema);
    const json = toGatewayJson(GetNodeInfoResponseSchema, info) as Record<string, any>;
    expect(json.default_node_info).toMatchObject({
      protocol_version: { p2p: '8', block: '11', app: '0' },
      default_node_id: node.env.nodeInfo().id,
      network: 'testnet_9000-1',
      moniker: 'services-test-node',
      other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' },
    });
    expect(json.default_node_info.version).toMatch(/^0\.38\./);
    expect(Buffer.from(json.default_node_info.channels, 'base64').toString('hex')).toBe('40202122233038606100');
    expect(json.application_version).toMatchObject({ name: 'tokend', app_name: 'tokend', cosmos_sdk_version: 'v0.50' });
    expect(Array.isArray(json.application_version.build_deps)).toBe(true);
  });

  test('GetSyncing is false on a node that is not catching up', async () => {
    const res = await response<GetSyncingResponse>(node.router, `${TM}/GetSyncing`, GetSyncingRequestSchema);
    expect(res.syncing).toBe(false);
  });

  test('GetLatestBlock: block_id of the stored block, sdk_block proposer as bech32 tokenvalcons', async () => {
    const res = await response<GetLatestBlockResponse>(node.router, `${TM}/GetLatestBlock`, GetLatestBlockRequestSchema);
    const height = Number(res.block!.header!.height);
    expect(height).toBeGreaterThanOrEqual(1);
    const meta = node.consensus.blockStore.loadBlockMeta(height)!;
    expect(Buffer.from(res.blockId!.hash)).toEqual(Buffer.from(meta.blockId.hash));
    expect(res.blockId!.partSetHeader!.total).toBe(meta.blockId.partSetHeader.total);
    expect(res.block!.header!.chainId).toBe('testnet_9000-1');
    const proposer = res.sdkBlock!.header!.proposerAddress;
    expect(proposer.startsWith(`${CONSENSUS_PREFIX}1`)).toBe(true);
    expect(Buffer.from(decodeBech32Address(proposer, CONSENSUS_PREFIX))).toEqual(Buffer.from(res.block!.header!.proposerAddress));
    expect(res.sdkBlock!.header!.appHash).toEqual(res.block!.header!.appHash);
  });

  test('GetBlockByHeight: a stored height answers; 0 and heights above the chain are InvalidArgument', async () => {
    const res = await response<GetLatestBlockResponse>(node.router, `${TM}/GetBlockByHeight`, GetBlockByHeightRequestSchema, { height: 1n });
    expect(res.block!.header!.height).toBe(1n);
    const zero = await failure(call(node.router, `${TM}/GetBlockByHeight`, GetBlockByHeightRequestSchema, { height: 0n }));
    expect(zero.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(zero.message).toBe('height must be greater than 0, but got 0');
    const future = await failure(call(node.router, `${TM}/GetBlockByHeight`, GetBlockByHeightRequestSchema, { height: 1_000_000n }));
    expect(future.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(future.message).toMatch(/^requested block height 1000000 is bigger then the chain length \d+$/);
  });

  test('validator sets: SDK Validator with bech32 consensus address, Any ed25519 key, paginated', async () => {
    const latest = await response<GetLatestValidatorSetResponse>(node.router, `${TM}/GetLatestValidatorSet`, GetLatestValidatorSetRequestSchema);
    expect(latest.validators).toHaveLength(1);
    const v = latest.validators[0]!;
    expect(v.address.startsWith(`${CONSENSUS_PREFIX}1`)).toBe(true);
    expect(v.pubKey!.typeUrl).toBe('/cosmos.crypto.ed25519.PubKey');
    expect(Buffer.from(fromBinary(Ed25519PubKeySchema, v.pubKey!.value).key)).toEqual(Buffer.from(node.validatorConsKey));
    expect(v.votingPower).toBe(100n);
    expect(latest.pagination!.total).toBe(1n);
    expect(latest.blockHeight).toBeGreaterThanOrEqual(1n);

    const atOne = await response<GetValidatorSetByHeightResponse>(node.router, `${TM}/GetValidatorSetByHeight`, GetValidatorSetByHeightRequestSchema, { height: 1n });
    expect(atOne.blockHeight).toBe(1n);
    expect(atOne.validators.map((x) => x.address)).toEqual([v.address]);

    const past = await response<GetValidatorSetByHeightResponse>(node.router, `${TM}/GetValidatorSetByHeight`, GetValidatorSetByHeightRequestSchema, {
      height: 1n,
      pagination: { offset: 1n },
    });
    expect(past.validators).toHaveLength(0);
    expect(past.pagination!.total).toBe(1n);
    const keyed = await failure(
      call(node.router, `${TM}/GetValidatorSetByHeight`, GetValidatorSetByHeightRequestSchema, { height: 1n, pagination: { key: new Uint8Array([1]) } }),
    );
    expect(keyed.grpcCode).toBe(GrpcStatus.InvalidArgument);
    const both = await failure(
      call(node.router, `${TM}/GetLatestValidatorSet`, GetLatestValidatorSetRequestSchema, { pagination: { key: new Uint8Array([1]), offset: 1n } }),
    );
    expect(both.message).toBe('invalid request, either offset or key is expected, got both');
  });

  test('ABCIQuery passes app/store/p2p/custom paths to the app and refuses gRPC method paths', async () => {
    const res = await response<ABCIQueryResponse>(node.router, `${TM}/ABCIQuery`, ABCIQueryRequestSchema, { path: '/app/version' });
    expect(res.code).toBe(0);
    expect(Buffer.from(res.value).toString()).toBe(node.app.options.version);
    expect(res.height).toBeGreaterThanOrEqual(1n);
    const refused = await failure(call(node.router, `${TM}/ABCIQuery`, ABCIQueryRequestSchema, { path: '/cosmos.bank.v1beta1.Query/AllBalances' }));
    expect(refused.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(refused.message).toBe('unsupported ABCI query path: /cosmos.bank.v1beta1.Query/AllBalances');
  });

  test('BroadcastTx SYNC then GetTx: the TxResponse of COMPAT §5', async () => {
    const tx = aliceSends(bob, 5n * TOKEN, sequence++);
    sentTx = tx;
    const sent = await broadcast(tx, BroadcastMode.SYNC);
    expect(sent.txResponse!.code).toBe(0);
    expect(sent.txResponse!.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(sent.txResponse!.height).toBe(0n);
    sendHash = sent.txResponse!.txhash;

    const found = await waitForTx(sendHash.toLowerCase());
    const r = found.txResponse!;
    sendHeight = Number(r.height);
    expect(sendHeight).toBeGreaterThan(0);
    expect(r.txhash).toBe(sendHash);
    expect(r.code).toBe(0);
    expect(r.codespace).toBe('');
    expect(r.rawLog).toBe('');
    expect(r.logs).toEqual([]);
    expect(r.gasWanted).toBe(200_000n);
    expect(r.gasUsed).toBeGreaterThan(0n);
    expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // data: upper hex of TxMsgData{msg_responses: [MsgSendResponse]}
    expect(r.data).toMatch(/^[0-9A-F]+$/);
    const msgData = fromBinary(TxMsgDataSchema, Buffer.from(r.data, 'hex'));
    expect(msgData.msgResponses[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSendResponse');
    expect(r.tx!.typeUrl).toBe('/cosmos.tx.v1beta1.Tx');
    const transfer = r.events.filter((e) => e.type === 'transfer').map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
    expect(transfer).toContainEqual(expect.objectContaining({ recipient: bob.bech32, sender: alice.bech32, amount: `${5n * TOKEN}attotoken` }));
    expect(found.tx!.body!.messages[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');

    const json = toGatewayJson(GetTxResponseSchema, found) as Record<string, any>;
    expect(Object.keys(json.tx_response)).toEqual(['height', 'txhash', 'codespace', 'code', 'data', 'raw_log', 'logs', 'info', 'gas_wanted', 'gas_used', 'tx', 'timestamp', 'events']);
    expect(json.tx_response.height).toBe(String(sendHeight));
    expect(json.tx_response.tx['@type']).toBe('/cosmos.tx.v1beta1.Tx');
    expect(json.tx_response.tx.body.messages[0]['@type']).toBe('/cosmos.bank.v1beta1.MsgSend');
  });

  test('GetTx: malformed hash InvalidArgument, unknown hash NotFound "tx not found: <hash>"', async () => {
    const bad = await failure(call(node.router, `${TX}/GetTx`, GetTxRequestSchema, { hash: 'xyz' }));
    expect(bad.grpcCode).toBe(GrpcStatus.InvalidArgument);
    const missing = 'AB'.repeat(32);
    const notFound = await failure(call(node.router, `${TX}/GetTx`, GetTxRequestSchema, { hash: missing }));
    expect(notFound.grpcCode).toBe(GrpcStatus.NotFound);
    expect(notFound.message).toBe(`tx not found: ${missing}`);
  });

  test('a duplicate broadcast is answered with code 19 (tx already in mempool), as the SDK does', async () => {
    // the same bytes again: committed, and still in the mempool's cache of seen txs
    const dup = await broadcast(sentTx, BroadcastMode.SYNC);
    expect(dup.txResponse!.code).toBe(19);
    expect(dup.txResponse!.codespace).toBe('sdk');
    expect(dup.txResponse!.txhash).toBe(sendHash);
  });

  test('a tx that fails CheckTx is answered with its code and log; UNSPECIFIED mode is InvalidArgument', async () => {
    const garbage = await broadcast(new Uint8Array([1, 2, 3]), BroadcastMode.SYNC);
    expect(garbage.txResponse!.code).toBe(2);
    expect(garbage.txResponse!.codespace).toBe('sdk');
    const unspecified = await failure(call(node.router, `${TX}/BroadcastTx`, BroadcastTxRequestSchema, { txBytes: new Uint8Array([1]), mode: BroadcastMode.UNSPECIFIED }));
    expect(unspecified.grpcCode).toBe(GrpcStatus.InvalidArgument);
    const empty = await failure(call(node.router, `${TX}/BroadcastTx`, BroadcastTxRequestSchema, { mode: BroadcastMode.SYNC }));
    expect(empty.message).toBe('invalid empty tx');
  });

  test('BroadcastTx BLOCK waits for the commit and answers the executed result', async () => {
    const res = await broadcast(aliceSends(carol, 1n * TOKEN, sequence++), BroadcastMode.BLOCK);
    expect(res.txResponse!.code).toBe(0);
    expect(res.txResponse!.height).toBeGreaterThan(0n);
    expect(res.txResponse!.gasUsed).toBeGreaterThan(0n);
    expect(res.txResponse!.events.some((e) => e.type === 'transfer')).toBe(true);
    // the indexer already has it when BLOCK returns (events are relayed after indexing)
    const found = await response<GetTxResponse>(node.router, `${TX}/GetTx`, GetTxRequestSchema, { hash: res.txResponse!.txhash });
    expect(found.txResponse!.height).toBe(res.txResponse!.height);
  });

  test('BroadcastTx ASYNC answers the hash at once; the tx is committed later', async () => {
    const res = await broadcast(aliceSends(carol, 2n * TOKEN, sequence++), BroadcastMode.ASYNC);
    expect(res.txResponse!.code).toBe(0);
    expect(res.txResponse!.height).toBe(0n);
    const found = await waitForTx(res.txResponse!.txhash);
    expect(found.txResponse!.code).toBe(0);
  });

  test('GetTxsEvent: 0.50 query and 0.47 events, page/limit with total, order_by, never silently truncated', async () => {
    await broadcast(aliceSends(carol, 3n * TOKEN, sequence++), BroadcastMode.BLOCK);
    const byQuery = await response<GetTxsEventResponse>(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { query: `transfer.recipient='${bob.bech32}'` });
    expect(byQuery.total).toBe(1n);
    expect(byQuery.txResponses.map((r) => r.txhash)).toEqual([sendHash]);
    expect(byQuery.txs).toHaveLength(1);

    const byEvents = await response<GetTxsEventResponse>(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { events: [`transfer.recipient=${carol.bech32}`] });
    expect(byEvents.total).toBe(3n);
    const asc = byEvents.txResponses.map((r) => Number(r.height));
    expect([...asc].sort((a, b) => a - b)).toEqual(asc);

    const page1 = await response<GetTxsEventResponse>(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, {
      query: `transfer.recipient='${carol.bech32}'`,
      limit: 2n,
      page: 1n,
      orderBy: OrderBy.DESC,
    });
    const page2 = await response<GetTxsEventResponse>(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, {
      query: `transfer.recipient='${carol.bech32}'`,
      limit: 2n,
      page: 2n,
      orderBy: OrderBy.DESC,
    });
    expect(page1.total).toBe(3n);
    expect(page1.pagination!.total).toBe(3n);
    expect(page1.txResponses).toHaveLength(2);
    expect(page2.txResponses).toHaveLength(1);
    const hashes = [...page1.txResponses, ...page2.txResponses].map((r) => r.txhash);
    expect(new Set(hashes).size).toBe(3);
    expect(hashes.reverse()).toEqual(byEvents.txResponses.map((r) => r.txhash));

    const tooLarge = await failure(call(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { query: "tm.event='Tx'", limit: 5000n }));
    expect(tooLarge.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(tooLarge.message).toMatch(/maximum page size 1000/);
    const outOfRange = await failure(call(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { query: `transfer.recipient='${carol.bech32}'`, limit: 2n, page: 3n }));
    expect(outOfRange.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(outOfRange.message).toBe('page should be within [1, 2] range, given 3');
    const empty = await failure(call(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, {}));
    expect(empty.message).toBe('query cannot be empty');
    const syntax = await failure(call(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { query: 'transfer.recipient' }));
    expect(syntax.grpcCode).toBe(GrpcStatus.InvalidArgument);
  });

  test('GetBlockWithTxs: the block and its decoded txs, offset-paged', async () => {
    const res = await response<GetBlockWithTxsResponse>(node.router, `${TX}/GetBlockWithTxs`, GetBlockWithTxsRequestSchema, { height: BigInt(sendHeight) });
    expect(res.block!.header!.height).toBe(BigInt(sendHeight));
    expect(res.txs.length).toBe(res.block!.data!.txs.length);
    expect(res.txs[0]!.body!.messages[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    expect(res.pagination!.total).toBe(BigInt(res.block!.data!.txs.length));
    const beyond = await failure(call(node.router, `${TX}/GetBlockWithTxs`, GetBlockWithTxsRequestSchema, { height: BigInt(sendHeight), pagination: { offset: 99n } }));
    expect(beyond.grpcCode).toBe(GrpcStatus.InvalidArgument);
    const zero = await failure(call(node.router, `${TX}/GetBlockWithTxs`, GetBlockWithTxsRequestSchema, { height: 0n }));
    expect(zero.grpcCode).toBe(GrpcStatus.InvalidArgument);
  });

  test('app entries answer at the latest height and map app errors to gRPC codes with the SDK texts', async () => {
    const stranger = testKey('stranger');
    const balances = await call(node.router, '/cosmos.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequestSchema, { address: stranger.bech32 });
    expect(toGatewayJson(QueryAllBalancesResponseSchema, balances.response as MessageShape<typeof QueryAllBalancesResponseSchema>)).toEqual({
      balances: [],
      pagination: { next_key: null, total: '0' },
    });
    expect(balances.height).toBe(node.app.store.latestVersion());
    const missing = await failure(call(node.router, '/cosmos.auth.v1beta1.Query/Account', QueryAccountRequestSchema, { address: stranger.bech32 }));
    expect(missing.grpcCode).toBe(GrpcStatus.NotFound);
    expect(missing.message).toBe(`rpc error: code = NotFound desc = account ${stranger.bech32} not found: key not found`);
    const future = await failure(call(node.router, '/cosmos.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequestSchema, { address: alice.bech32 }, 1_000_000));
    expect(future.grpcCode).toBe(GrpcStatus.InvalidArgument);
    const invalid = await failure(call(node.router, '/cosmos.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequestSchema, { address: 'token1xyz' }));
    expect(invalid.grpcCode).toBe(GrpcStatus.InvalidArgument);
    expect(validatorKey.bech32).toMatch(/^token1/);
  });
});

describe('node services with tx indexing disabled', () => {
  let node: FullNode;

  beforeAll(async () => {
    node = await startFullNode({ indexer: 'null' });
  });

  afterAll(async () => {
    await node.stop();
  });

  test('GetTx and GetTxsEvent are Unimplemented "transaction indexing is disabled"', async () => {
    const getTx = await failure(call(node.router, `${TX}/GetTx`, GetTxRequestSchema, { hash: 'AB'.repeat(32) }));
    expect(getTx.grpcCode).toBe(GrpcStatus.Unimplemented);
    expect(getTx.message).toBe('transaction indexing is disabled');
    const search = await failure(call(node.router, `${TX}/GetTxsEvent`, GetTxsEventRequestSchema, { query: "tm.event='Tx'" }));
    expect(search.grpcCode).toBe(GrpcStatus.Unimplemented);
  });
});

describe('router limits and helpers', () => {
  test('pagination.limit above the maximum is clamped before the handler runs (next_key continues the walk)', async () => {
    const seen: bigint[] = [];
    const entries = nodeServiceEntries(
      BankQuery,
      {
        allBalances: async (request) => {
          seen.push(request.pagination?.limit ?? 0n);
          return create(QueryAllBalancesResponseSchema, {});
        },
      },
      () => 7,
    );
    const router = composeQueryRouter([entries], () => 7);
    const entry = router.lookup('/cosmos.bank.v1beta1.Query/AllBalances')!;
    const result = await entry.handle(create(QueryAllBalancesRequestSchema, { address: 'x', pagination: { limit: 5000n } }) as unknown as Message, { height: 0 });
    await entry.handle(create(QueryAllBalancesRequestSchema, { address: 'x', pagination: { limit: 10n } }) as unknown as Message, { height: 0 });
    expect(seen).toEqual([1000n, 10n]);
    expect(result.height).toBe(7);
  });

  test('offsetPage: default 100, max 1000, reverse, total always reported', () => {
    expect(offsetPage(undefined, 250, DEFAULT_PAGE_LIMITS, 'x').indexes).toHaveLength(100);
    const reversed = offsetPage(create(QueryAllBalancesRequestSchema, { pagination: { offset: 1n, limit: 2n, reverse: true } }).pagination, 5, DEFAULT_PAGE_LIMITS, 'x');
    expect(reversed.indexes).toEqual([3, 2]);
    expect(reversed.pagination.total).toBe(5n);
    expect(reversed.pagination.nextKey).toHaveLength(0);
    expect(offsetPage(create(QueryAllBalancesRequestSchema, { pagination: { limit: 5000n } }).pagination, 3000, DEFAULT_PAGE_LIMITS, 'x').indexes).toHaveLength(1000);
  });

  test('0.47 events: values are quoted unless already quoted or numeric; malformed ones are refused', () => {
    expect(eventCondition('transfer.recipient=token1abc')).toBe("transfer.recipient='token1abc'");
    expect(eventCondition("transfer.recipient='token1abc'")).toBe("transfer.recipient='token1abc'");
    expect(eventCondition('tx.height>=5')).toBe('tx.height>=5');
    expect(() => eventCondition('transfer')).toThrow('invalid event; event transfer should be of the format: {eventType}.{eventAttribute}={value}');
  });

  test('GetTxsEvent paging: page/limit defaults, 0.45-style pagination offset/limit', () => {
    expect(txsEventPage({ page: 0n, limit: 0n, pagination: undefined }, DEFAULT_PAGE_LIMITS)).toEqual({ page: 1, limit: 100 });
    expect(txsEventPage({ page: 0n, limit: 0n, pagination: create(QueryAllBalancesRequestSchema, { pagination: { offset: 20n, limit: 10n } }).pagination }, DEFAULT_PAGE_LIMITS)).toEqual({
      page: 3,
      limit: 10,
    });
    expect(() => txsEventPage({ page: 1n, limit: 1001n, pagination: undefined }, DEFAULT_PAGE_LIMITS)).toThrow(/maximum page size 1000/);
  });
});

describe('broadcast against a fake mempool and event bus', () => {
  function fakeEnv(checkTx: (tx: Uint8Array) => Promise<ResponseCheckTx>): NodeServicesEnv {
    return {
      blockStore: {
        base: () => 0,
        height: () => 0,
        loadBlock: () => undefined,
        loadBlockByHash: () => undefined,
        loadBlockMeta: () => undefined,
        loadBlockMetaByHash: () => undefined,
        loadBlockBytes: () => undefined,
        loadBlockCommit: () => undefined,
        loadSeenCommit: () => undefined,
      },
      stateStore: { load: () => undefined, loadValidators: () => undefined, loadConsensusParams: () => undefined, loadFinalizeBlockResponse: () => undefined, loadFinalizeBlockEvents: () => undefined },
      mempool: { size: () => 0, sizeBytes: () => 0, reapMaxTxs: () => [], has: () => false, checkTx },
      eventBus: new EventBus(),
      txIndexer: new NullTxIndexer(),
      status: () => {
        throw new Error('unused');
      },
      nodeInfo: () => ({ id: 'ab'.repeat(20), listenAddr: 'tcp://0.0.0.0:26656', network: 'fake', moniker: 'fake' }),
      app: { query: async () => ({ code: 0, log: '', info: '', index: 0n, key: new Uint8Array(0), value: new Uint8Array(0), height: 0, codespace: '' }) },
    };
  }

  const ok = async (): Promise<ResponseCheckTx> => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' });

  async function broadcast(env: NodeServicesEnv, mode: BroadcastMode, broadcastTimeoutMs = 50): Promise<BroadcastTxResponse> {
    const router = createQueryRouter({ node: env, options: { broadcastTimeoutMs } });
    const result = await router.lookup(`${TX}/BroadcastTx`)!.handle(create(BroadcastTxRequestSchema, { txBytes: new Uint8Array([1, 2, 3]), mode }) as unknown as Message, { height: 0 });
    return result.response as unknown as BroadcastTxResponse;
  }

  test('BLOCK: a tx that is never committed ends in DeadlineExceeded naming the hash', async () => {
    const err = await failure(broadcast(fakeEnv(ok), BroadcastMode.BLOCK));
    expect(err.grpcCode).toBe(GrpcStatus.DeadlineExceeded);
    expect(err.message).toMatch(/^timed out waiting for tx to be included in a block \(tx hash [0-9A-F]{64}\)/);
  });

  test('mempool refusals: full → 20, too large → 21 (SYNC, ASYNC and BLOCK alike); a closed mempool is Unavailable', async () => {
    const full = fakeEnv(async () => {
      throw new ConsensusError('MEMPOOL_FULL', 'mempool is full: number of txs 1 (max: 1), total txs bytes 1 (max: 1)');
    });
    for (const mode of [BroadcastMode.SYNC, BroadcastMode.ASYNC, BroadcastMode.BLOCK]) {
      const res = await broadcast(full, mode);
      expect(res.txResponse!.code).toBe(20);
      expect(res.txResponse!.codespace).toBe('sdk');
      expect(res.txResponse!.rawLog).toMatch(/^mempool is full/);
    }
    const large = fakeEnv(async () => {
      throw new ConsensusError('MEMPOOL_TX_TOO_LARGE', 'Tx too large. Max size is 1, but got 3');
    });
    expect((await broadcast(large, BroadcastMode.SYNC)).txResponse!.code).toBe(21);
    const closed = fakeEnv(async () => {
      throw new ConsensusError('MEMPOOL_CLOSED', 'mempool is closed');
    });
    expect((await failure(broadcast(closed, BroadcastMode.SYNC))).grpcCode).toBe(GrpcStatus.Unavailable);
  });

  test('ASYNC does not wait for CheckTx', async () => {
    let release: () => void = () => undefined;
    const slow = fakeEnv(() => new Promise<ResponseCheckTx>((resolve) => (release = () => void ok().then(resolve))));
    const res = await broadcast(slow, BroadcastMode.ASYNC);
    expect(res.txResponse!.txhash).toMatch(/^[0-9A-F]{64}$/);
    release();
  });
});
