/**
 * The gRPC server as a standard client sees it: @grpc/grpc-js with stubs that @grpc/proto-loader
 * builds from the upstream-shaped .proto files in proto/ — bank, auth, tendermint and tx
 * services on a full node (app + consensus + indexer), the height metadata, status codes, and
 * server reflection (v1alpha and v1) as grpcurl uses it.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { GrpcServer } from '../../../src/node/grpc/index.js';
import { grpcMode } from './mode.js';
import { CHAIN_ID, TOKEN, alice, aliceSends, bob, startFullNode, testKey, waitFor, type FullNode } from '../services/helpers.js';
import { addGenesisAccounts, collectGentxs, defaultAppState } from '../../../src/node/app/index.js';
import { createQueryRouter } from '../../../src/node/services/index.js';
import { CHAIN_ID as APP_CHAIN_ID, DENOM, consensusKey, makeGentx, msgSend, signTx, startChain } from '../app/helpers.js';

const PROTO_FILES = [
  'cosmos/bank/v1beta1/query.proto',
  'cosmos/auth/v1beta1/query.proto',
  'cosmos/base/tendermint/v1beta1/query.proto',
  'cosmos/tx/v1beta1/service.proto',
  'cosmos/staking/v1beta1/query.proto',
  'cosmos/base/node/v1beta1/query.proto',
  'grpc/reflection/v1alpha/reflection.proto',
  'grpc/reflection/v1/reflection.proto',
];

const definition = protoLoader.loadSync(PROTO_FILES, { includeDirs: ['proto'], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const pkg = grpc.loadPackageDefinition(definition) as any;

type Callback = (err: grpc.ServiceError | null, res: any) => void;

function unary(client: any, method: string, request: object, metadata = new grpc.Metadata()): Promise<{ res: any; headers: grpc.Metadata }> {
  return new Promise((resolve, reject) => {
    let headers = new grpc.Metadata();
    const call = client[method](request, metadata, ((err, res) => (err ? reject(err) : resolve({ res, headers }))) as Callback);
    call.on('metadata', (md: grpc.Metadata) => {
      headers = md;
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    return err as grpc.ServiceError;
  }
  throw new Error('expected the call to fail');
}

/** Writes reflection requests on one stream and collects one response per request. */
async function reflect(client: any, requests: object[]): Promise<any[]> {
  const stream = client.ServerReflectionInfo();
  const responses: any[] = [];
  const done = new Promise<void>((resolve, reject) => {
    stream.on('data', (data: any) => responses.push(data));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  for (const request of requests) stream.write(request);
  stream.end();
  await done;
  return responses;
}

describe('gRPC server', () => {
  let node: FullNode;
  let server: GrpcServer;
  let target: string;
  const clients: grpc.Client[] = [];
  let bank: any;
  let auth: any;
  let tendermint: any;
  let tx: any;

  function client<T extends grpc.Client>(make: (credentials: grpc.ChannelCredentials) => T): T {
    const c = make(grpc.credentials.createInsecure());
    clients.push(c);
    return c;
  }

  beforeAll(async () => {
    node = await startFullNode();
    server = new GrpcServer({ router: node.router, options: { address: '127.0.0.1:0' }, thread: grpcMode.thread });
    ({ target } = await server.start());
    bank = client((c) => new pkg.cosmos.bank.v1beta1.Query(target, c));
    auth = client((c) => new pkg.cosmos.auth.v1beta1.Query(target, c));
    tendermint = client((c) => new pkg.cosmos.base.tendermint.v1beta1.Service(target, c));
    tx = client((c) => new pkg.cosmos.tx.v1beta1.Service(target, c));
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await server.stop();
    await node.stop();
  });

  test('bank AllBalances answers with the balances and the height it reflects in x-cosmos-block-height', async () => {
    const { res, headers } = await unary(bank, 'AllBalances', { address: alice.bech32 });
    expect(res.balances).toEqual([{ denom: 'attotoken', amount: (1000n * TOKEN).toString() }]);
    expect(res.pagination.total).toBe('1');
    expect(Number(headers.get('x-cosmos-block-height')[0])).toBeGreaterThanOrEqual(1);

    const empty = await unary(bank, 'AllBalances', { address: testKey('nobody').bech32 });
    expect(empty.res.balances).toEqual([]);
    expect(empty.res.pagination.total).toBe('0');
  });

  test('x-cosmos-block-height metadata picks the height of the state', async () => {
    const before = node.consensus.blockStore.height();
    const sent = await unary(tx, 'BroadcastTx', { tx_bytes: Buffer.from(aliceSends(bob, 3n * TOKEN, 0n)), mode: 'BROADCAST_MODE_BLOCK' });
    expect(sent.res.tx_response.code).toBe(0);
    await waitFor(() => node.app.store.latestVersion() >= Number(sent.res.tx_response.height));
    const atBefore = new grpc.Metadata();
    atBefore.set('x-cosmos-block-height', String(before));
    const old = await unary(bank, 'AllBalances', { address: bob.bech32 }, atBefore);
    expect(old.res.balances).toEqual([]);
    expect(old.headers.get('x-cosmos-block-height')).toEqual([String(before)]);
    const now = await unary(bank, 'AllBalances', { address: bob.bech32 });
    expect(now.res.balances).toEqual([{ denom: 'attotoken', amount: (3n * TOKEN).toString() }]);

    const bad = new grpc.Metadata();
    bad.set('x-cosmos-block-height', 'abc');
    const err = await failure(unary(bank, 'AllBalances', { address: bob.bech32 }, bad));
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  test('auth Account answers an Any; a missing account is NOT_FOUND with the SDK message; a bad address INVALID_ARGUMENT', async () => {
    const { res } = await unary(auth, 'Account', { address: alice.bech32 });
    expect(res.account.type_url).toBe('/ethermint.types.v1.EthAccount');
    expect(res.account.value.length).toBeGreaterThan(0);
    const stranger = testKey('stranger');
    const missing = await failure(unary(auth, 'Account', { address: stranger.bech32 }));
    expect(missing.code).toBe(grpc.status.NOT_FOUND);
    expect(missing.details).toBe(`rpc error: code = NotFound desc = account ${stranger.bech32} not found: key not found`);
    const invalid = await failure(unary(auth, 'Account', { address: 'token1nope' }));
    expect(invalid.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  test('tendermint GetNodeInfo, GetLatestBlock and GetValidatorSetByHeight', async () => {
    const { res } = await unary(tendermint, 'GetNodeInfo', {});
    expect(res.default_node_info.network).toBe(CHAIN_ID);
    expect(res.default_node_info.default_node_id).toBe(node.env.nodeInfo().id);
    expect(res.default_node_info.other).toEqual({ tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' });
    expect(res.application_version.name).toBe('tokend');
    const latest = await unary(tendermint, 'GetLatestBlock', {});
    expect(latest.res.sdk_block.header.proposer_address).toMatch(/^tokenvalcons1/);
    expect(latest.res.block.header.chain_id).toBe(CHAIN_ID);
    const vals = await unary(tendermint, 'GetValidatorSetByHeight', { height: '1' });
    expect(vals.res.validators).toHaveLength(1);
    expect(vals.res.validators[0].pub_key.type_url).toBe('/cosmos.crypto.ed25519.PubKey');
    const zero = await failure(unary(tendermint, 'GetBlockByHeight', { height: '0' }));
    expect(zero.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(zero.details).toBe('height must be greater than 0, but got 0');
  });

  test('tx service: GetTx of an unknown hash is NOT_FOUND; app Simulate answers through the same server', async () => {
    const missing = await failure(unary(tx, 'GetTx', { hash: 'AB'.repeat(32) }));
    expect(missing.code).toBe(grpc.status.NOT_FOUND);
    const sim = await unary(tx, 'Simulate', { tx_bytes: Buffer.from(aliceSends(bob, 1n, 1n)) });
    expect(BigInt(sim.res.gas_info.gas_used)).toBeGreaterThan(0n);
  });

  test('an unknown service or method is UNIMPLEMENTED', async () => {
    const generic = client((c) => new grpc.Client(target, c));
    const call = (path: string): Promise<unknown> =>
      new Promise((resolve, reject) =>
        generic.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (err, res) => (err ? reject(err) : resolve(res))),
      );
    expect((await failure(call('/cosmos.nothing.v1.Query/Foo'))).code).toBe(grpc.status.UNIMPLEMENTED);
    expect((await failure(call('/cosmos.bank.v1beta1.Query/Nope'))).code).toBe(grpc.status.UNIMPLEMENTED);
  });

  test('compressed calls (gzip) are served too (through connect-node)', async () => {
    const gz = client((c) => new pkg.cosmos.bank.v1beta1.Query(target, c, { 'grpc.default_compression_algorithm': 2 }));
    const { res } = await unary(gz, 'AllBalances', { address: alice.bech32 });
    expect(res.balances[0].denom).toBe('attotoken');
    const missing = await failure(unary(gz, 'AllBalances', { address: 'bad' }));
    expect(missing.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(missing.details).toMatch(/^rpc error: code = InvalidArgument desc = invalid address: /);
  });

  test('a request over max-recv-msg-size is RESOURCE_EXHAUSTED, and the server keeps serving', async () => {
    const small = new GrpcServer({ router: node.router, options: { address: '127.0.0.1:0', maxRecvMsgBytes: 64 }, thread: grpcMode.thread });
    const { target: smallTarget } = await small.start();
    try {
      const smallBank = client((c) => new pkg.cosmos.bank.v1beta1.Query(smallTarget, c));
      const err = await unary(smallBank, 'AllBalances', { address: 'token1'.padEnd(200, 'q') }).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      expect(err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(err?.details).toMatch(/^grpc: received message larger than max \(\d+ vs\. 64\)$/);
      const ok = await unary(smallBank, 'AllBalances', { address: alice.bech32 });
      expect(ok.res.balances).toHaveLength(1);
    } finally {
      await small.stop();
    }
  });

  test('a busy port fails the start with one line saying so', async () => {
    const second = new GrpcServer({ router: node.router, options: { address: target }, thread: grpcMode.thread });
    await expect(second.start()).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: `cannot listen for gRPC on ${target}: address already in use`, cause: { code: 'EADDRINUSE' } });
    await second.stop();
  });

  test('reflection v1alpha: list_services, file_containing_symbol with dependencies, file_by_filename, errors', async () => {
    const reflection = client((c) => new pkg.grpc.reflection.v1alpha.ServerReflection(target, c));
    const [list, bySymbol, byMethod, byName, unknown] = await reflect(reflection, [
      { list_services: '' },
      { file_containing_symbol: 'cosmos.bank.v1beta1.Query' },
      { file_containing_symbol: 'cosmos.bank.v1beta1.Query.AllBalances' },
      { file_by_filename: 'cosmos/base/tendermint/v1beta1/query.proto' },
      { file_by_filename: 'nope.proto' },
    ]);
    const services = list.list_services_response.service.map((s: { name: string }) => s.name);
    expect(services).toEqual(
      expect.arrayContaining([
        'cosmos.bank.v1beta1.Query',
        'cosmos.auth.v1beta1.Query',
        'cosmos.staking.v1beta1.Query',
        'cosmos.tx.v1beta1.Service',
        'cosmos.base.tendermint.v1beta1.Service',
        'cosmos.base.node.v1beta1.Service',
        'grpc.reflection.v1alpha.ServerReflection',
        'grpc.reflection.v1.ServerReflection',
      ]),
    );
    const names = (response: any): string[] => response.file_descriptor_response.file_descriptor_proto.map((b: Buffer) => fromBinary(FileDescriptorProtoSchema, b).name);
    const first = names(bySymbol);
    expect(first[0]).toBe('cosmos/bank/v1beta1/query.proto');
    expect(first).toEqual(expect.arrayContaining(['cosmos/base/query/v1beta1/pagination.proto', 'google/api/annotations.proto', 'cosmos/base/v1beta1/coin.proto']));
    const bank = fromBinary(FileDescriptorProtoSchema, bySymbol.file_descriptor_response.file_descriptor_proto[0]);
    expect(bank.service[0]!.method.map((m) => m.name)).toContain('AllBalances');
    // Already sent on this stream: not sent again.
    expect(byMethod.file_descriptor_response.file_descriptor_proto).toHaveLength(0);
    expect(names(byName)[0]).toBe('cosmos/base/tendermint/v1beta1/query.proto');
    expect(names(byName)).not.toContain('cosmos/base/query/v1beta1/pagination.proto');
    expect(unknown.error_response.error_code).toBe(grpc.status.NOT_FOUND);
  });

  test('reflection v1: list_services and a message symbol on a fresh stream (with all its dependencies)', async () => {
    const reflection = client((c) => new pkg.grpc.reflection.v1.ServerReflection(target, c));
    const [list, message] = await reflect(reflection, [{ list_services: '' }, { file_containing_symbol: 'cosmos.base.tendermint.v1beta1.GetLatestBlockResponse' }]);
    expect(list.list_services_response.service.map((s: { name: string }) => s.name)).toContain('cosmos.base.tendermint.v1beta1.Service');
    const files = message.file_descriptor_response.file_descriptor_proto.map((b: Buffer) => fromBinary(FileDescriptorProtoSchema, b).name);
    expect(files[0]).toBe('cosmos/base/tendermint/v1beta1/query.proto');
    expect(files).toEqual(expect.arrayContaining(['tendermint/types/block.proto', 'google/protobuf/timestamp.proto', 'google/protobuf/any.proto']));
  });
});

describe('gRPC answers of the latest state, kept until the next block', () => {
  test('the same call is answered once per height; a block, height metadata, an error, a request over 64 KiB or a full cache are not served from it', async () => {
    const payer = testKey('grpc-keep-payer');
    const payee = testKey('grpc-keep-payee');
    const validator = testKey('validator');
    let appState = defaultAppState({ denom: DENOM });
    appState = addGenesisAccounts(appState, [
      { address: validator.address, coins: [{ denom: DENOM, amount: 200n * TOKEN }] },
      { address: payer.address, coins: [{ denom: DENOM, amount: 50n * TOKEN }] },
    ]);
    appState = collectGentxs(appState, [makeGentx(validator, consensusKey(validator.bech32), 100n * TOKEN)], APP_CHAIN_ID);
    const chain = await startChain(appState);
    await chain.block([]);
    const router = createQueryRouter({ app: chain.app });
    const calls = new Map<string, number>();
    const counted = {
      ...router,
      lookup: (path: string) => router.lookup(path),
      entries: () =>
        [...router.entries()].map((entry) => ({ ...entry, handle: (request: never, ctx: never) => (calls.set(entry.path, (calls.get(entry.path) ?? 0) + 1), entry.handle(request, ctx)) })),
    };
    const server = new GrpcServer({ router: counted as typeof router, options: { address: '127.0.0.1:0', answerCacheEntries: 2 }, thread: grpcMode.thread });
    const { target } = await server.start();
    const bank = new pkg.cosmos.bank.v1beta1.Query(target, grpc.credentials.createInsecure());
    const ALL = '/cosmos.bank.v1beta1.Query/AllBalances';
    try {
      const first = await unary(bank, 'AllBalances', { address: payer.bech32 });
      const again = await unary(bank, 'AllBalances', { address: payer.bech32 });
      expect(again.res).toEqual(first.res);
      expect(again.headers.get('x-cosmos-block-height')).toEqual(first.headers.get('x-cosmos-block-height'));
      expect(calls.get(ALL)).toBe(1);
      expect(server.cachedAnswers).toBe(1);

      // Height metadata: the query runs every time.
      const at = new grpc.Metadata();
      at.set('x-cosmos-block-height', String(first.headers.get('x-cosmos-block-height')[0]));
      await unary(bank, 'AllBalances', { address: payer.bech32 }, at);
      await unary(bank, 'AllBalances', { address: payer.bech32 }, at);
      expect(calls.get(ALL)).toBe(3);

      // Errors are not kept.
      for (let i = 0; i < 2; i++) expect((await failure(unary(bank, 'AllBalances', { address: 'token1bad' }))).code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(calls.get(ALL)).toBe(5);

      // A request longer than 64 KiB (its bytes would be the key) runs every time.
      const longKey = { address: payer.bech32, pagination: { key: Buffer.alloc(70 * 1024, 7) } };
      await unary(bank, 'AllBalances', longKey);
      await unary(bank, 'AllBalances', longKey);
      expect(calls.get(ALL)).toBe(7);

      // At most answerCacheEntries answers, the oldest dropped first.
      await unary(bank, 'AllBalances', { address: payee.bech32 });
      await unary(bank, 'AllBalances', { address: testKey('grpc-keep-third').bech32 });
      expect(server.cachedAnswers).toBe(2);
      expect(calls.get(ALL)).toBe(9);

      // A committed block: the next answer shows the new state.
      const height = Number(first.headers.get('x-cosmos-block-height')[0]);
      const sent = await chain.block([signTx({ signer: payer, msgs: [msgSend(payer.bech32, payee.bech32, 3n * TOKEN)], sequence: 0n, accountNumber: 1n, fee: 2000n, gas: 200_000n })]);
      expect(sent.txResults[0]!.code).toBe(0);
      const after = await unary(bank, 'AllBalances', { address: payee.bech32 });
      expect(after.res.balances).toEqual([{ denom: DENOM, amount: String(3n * TOKEN) }]);
      expect(Number(after.headers.get('x-cosmos-block-height')[0])).toBe(height + 1);
      expect(server.cachedAnswers).toBe(1);
    } finally {
      bank.close();
      await server.stop();
      await chain.close();
    }
  });
});
