/**
 * Ethereum JSON-RPC results of the latest block kept until the next one ([cache]
 * json-rpc-responses): a repeated read is answered without querying the app; a new block, the
 * "pending" tag, an explicit past block of another key, an error, params over 64 KiB or a full
 * cache are not served from it. Over a stand-in environment whose app counts its queries, with the
 * HTTP side on the main thread and on its own thread ([json-rpc] http-thread), where the kept
 * results are checked against the state height the store's commit shares.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { create, toBinary } from '@bufbuild/protobuf';
import { EthRpcServer } from '../../../src/node/ethrpc/server.js';
import { QueryBalanceResponseSchema, QueryParamsResponseSchema } from '../../../src/gen/ethermint/evm/v1/query_pb.js';
import { MsgEthereumTxResponseSchema } from '../../../src/gen/ethermint/evm/v1/tx_pb.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';

const ADDRESS = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

let server: EthRpcServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

let thread = false;

async function setUp(answerCacheEntries?: number) {
  const chain = { height: 5, balance: 100n, queries: 0 };
  const listeners = new Set<(height: number) => void>();
  // A new block: the store's commit tells the state height's watchers, then the stores move.
  const setHeight = (height: number): void => {
    for (const listener of listeners) listener(height);
    chain.height = height;
  };
  const env = {
    genesis: { chainId: 'tokend_9000-1' },
    blockStore: { height: () => chain.height, base: () => 1 },
    stateStore: { lastBlockHeight: () => chain.height },
    app: {
      query: async (request: { path: string; height: number }) => {
        if (!request.path.endsWith('/Params')) chain.queries++;
        if (request.path === '/ethermint.evm.v1.Query/Params') return { code: 0, log: '', value: toBinary(QueryParamsResponseSchema, create(QueryParamsResponseSchema, {})) };
        if (request.path === '/ethermint.evm.v1.Query/EthCall') {
          return { code: 0, log: '', value: toBinary(MsgEthereumTxResponseSchema, create(MsgEthereumTxResponseSchema, { ret: Uint8Array.of(1, 2), vmError: '' })) };
        }
        if (request.path !== '/ethermint.evm.v1.Query/Balance') return { code: 1, log: `unexpected ${request.path}`, value: new Uint8Array(0) };
        return { code: 0, log: '', value: toBinary(QueryBalanceResponseSchema, create(QueryBalanceResponseSchema, { balance: String(chain.balance + BigInt(request.height)) })) };
      },
    },
  } as unknown as RpcEnvironment;
  server = new EthRpcServer({
    env,
    address: '127.0.0.1:0',
    ...(answerCacheEntries === undefined ? {} : { answerCacheEntries }),
    thread,
    stateHeight: () => chain.height,
    watchStateHeight: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const { url } = await server.start();
  let id = 0;
  const call = async (method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string }; id: number }> =>
    (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })).json()) as never;
  return { chain, call, server, setHeight, url };
}

describe.each([
  ['on the main thread', false],
  ['on its own thread', true],
])('Ethereum JSON-RPC results kept until the next block, HTTP %s', (_name, onThread) => {
  beforeAll(() => {
    thread = onThread;
  });

  it('answers a repeated read from what it kept, with the request id; a new block reads again', async () => {
    const { chain, call, server, setHeight } = await setUp(2);
    const first = await call('eth_getBalance', [ADDRESS, 'latest']);
    expect(first.result).toBe('0x69'); // 100 + height 5
    const again = await call('eth_getBalance', [ADDRESS, 'latest']);
    expect(again).toEqual({ jsonrpc: '2.0', id: first.id + 1, result: '0x69' });
    expect(chain.queries).toBe(1);
    expect(server.cachedAnswers).toBe(1);

    // "pending" reads every time; another key is its own entry; errors are not kept.
    await call('eth_getBalance', [ADDRESS, 'pending']);
    await call('eth_getBalance', [ADDRESS, 'pending']);
    expect(chain.queries).toBe(3);
    for (let i = 0; i < 2; i++) expect((await call('eth_getBalance', ['0x12', 'latest'])).error?.code).toBe(-32602);
    await call('eth_getBalance', [OTHER, 'latest']);
    await call('eth_getBalance', [ADDRESS, '0x4']);
    expect(chain.queries).toBe(5);
    // At most answerCacheEntries: the oldest went first.
    expect(server.cachedAnswers).toBe(2);
    await call('eth_getBalance', [ADDRESS, 'latest']);
    expect(chain.queries).toBe(6);

    // The next block: what was kept is dropped.
    setHeight(6);
    expect((await call('eth_getBalance', [ADDRESS, 'latest'])).result).toBe('0x6a');
    expect((await call('eth_blockNumber', [])).result).toBe('0x6');
    expect(chain.queries).toBe(7);
    expect(server.cachedAnswers).toBe(2);
  });

  it('an eth_call is kept, unless its params are longer than 64 KiB', async () => {
    const { chain, call } = await setUp();
    const small = { to: OTHER, data: '0x1234' };
    expect((await call('eth_call', [small, 'latest'])).result).toBe('0x0102');
    expect((await call('eth_call', [small, 'latest'])).result).toBe('0x0102');
    expect(chain.queries).toBe(1);
    const big = { to: OTHER, data: `0x${'ab'.repeat(40 * 1024)}` };
    expect((await call('eth_call', [big, 'latest'])).result).toBe('0x0102');
    expect((await call('eth_call', [big, 'latest'])).result).toBe('0x0102');
    expect(chain.queries).toBe(3);
  });

  it('keeps nothing with json-rpc-responses = 0', async () => {
    const { chain, call, server } = await setUp(0);
    await call('eth_getBalance', [ADDRESS, 'latest']);
    await call('eth_getBalance', [ADDRESS, 'latest']);
    expect(chain.queries).toBe(2);
    expect(server.cachedAnswers).toBe(0);
  });
});

describe('Ethereum JSON-RPC HTTP on its own thread', () => {
  beforeAll(() => {
    thread = true;
  });

  it('answers a kept read while the main thread is blocked', async () => {
    const { chain, call, url, server } = await setUp();
    const first = await call('eth_getBalance', [ADDRESS, 'latest']);
    expect(first.result).toBe('0x69');
    // spawnSync blocks this (the main) thread until the child exits: only the JSON-RPC's own
    // thread can answer the child meanwhile.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'child', method: 'eth_getBalance', params: [ADDRESS, 'latest'] });
    const script =
      'fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json" }, body: process.argv[2], signal: AbortSignal.timeout(10000) }).then(async (r) => console.log(r.status, await r.text()), (e) => console.log("failed", e.message))';
    const child = spawnSync(process.execPath, ['-e', script, url, body], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe('200 {"jsonrpc":"2.0","id":"child","result":"0x69"}');
    expect(chain.queries).toBe(1);
    // The thread's figures reach the main thread (metrics): the connection cap and the kept result.
    expect(server.connectionStats()).toMatchObject({ max: 0, evicted: 0, refused: 0 });
    expect(server.cachedAnswers).toBe(1);
  });

  it('a busy port fails the start with one line saying so, on its own thread and on the main thread', async () => {
    const { url } = await setUp();
    const port = Number(new URL(url).port);
    const env = { genesis: { chainId: 'tokend_9000-1' }, blockStore: { height: () => 1, base: () => 1 }, stateStore: { lastBlockHeight: () => 1 } } as unknown as RpcEnvironment;
    for (const onThread of [true, false]) {
      const second = new EthRpcServer({ env, address: `127.0.0.1:${port}`, thread: onThread, stateHeight: () => 1, watchStateHeight: () => () => undefined });
      await expect(second.start()).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: `cannot listen for the Ethereum JSON-RPC on 127.0.0.1:${port}: address already in use`,
        cause: { code: 'EADDRINUSE' },
      });
      await second.stop();
    }
  });

  it('a busy websocket port fails the start and takes the HTTP side and its thread down with it', async () => {
    const { url } = await setUp();
    const busy = `127.0.0.1:${new URL(url).port}`;
    const env = { genesis: { chainId: 'tokend_9000-1' }, blockStore: { height: () => 1, base: () => 1 }, stateStore: { lastBlockHeight: () => 1 }, eventBus: { on: () => () => undefined } } as unknown as RpcEnvironment;
    const second = new EthRpcServer({ env, address: '127.0.0.1:0', wsAddress: busy, thread: true, stateHeight: () => 1, watchStateHeight: () => () => undefined });
    await expect(second.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(second.connectionStats()).toBeUndefined();
    expect((second as unknown as { front: unknown }).front).toBeUndefined();
  });

  it('refuses what the main thread refused: other methods, bodies over 5 MB, bad JSON, empty batches', async () => {
    const { url, call } = await setUp();
    const post = async (body: string | Uint8Array, method = 'POST') => {
      const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { body }) });
      return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string } } };
    };
    expect(await post('', 'GET')).toEqual({ status: 405, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'method not allowed' } } });
    const huge = await post(new Uint8Array(5 * 1024 * 1024 + 1).fill(0x20));
    expect(huge).toEqual({ status: 413, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: `content length too large (>${5 * 1024 * 1024})` } } });
    expect(await post('{"jsonrpc":')).toEqual({ status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } } });
    expect(await post('[]')).toEqual({ status: 200, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } } });
    const preflight = await fetch(url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    // A batch is answered whole by the main thread; the server still serves afterwards.
    const batch = (await (await fetch(url, { method: 'POST', body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'nope' }]) })).json()) as { id: number; error?: { code: number } }[];
    expect(batch.map((r) => [r.id, r.error?.code])).toEqual([
      [1, undefined],
      [2, -32601],
    ]);
    expect((await call('eth_blockNumber', [])).result).toBe('0x5');
  });
});
