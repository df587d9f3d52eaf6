/**
 * CometBFT RPC abci_query answers of the latest state kept until the state height moves ([cache]
 * rpc-responses): a repeated query (POST, by method and params; GET, by URL) is answered without
 * querying the app, with the request's own id; a new state height, another key, a failed call, a
 * notification, a batch, params over 64 KiB or a full cache are not served from it. Over a
 * stand-in app that counts its queries, with the HTTP side on the main thread and on its own
 * thread ([rpc] http_thread), where the kept answers are checked against the state height the
 * store's commit shares.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { RpcServer } from '../../../src/node/rpc/server.js';
import type { ResponseQuery } from '../../../src/node/abci/types.js';
import { fakeEnvironment } from './helpers.js';

let server: RpcServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

let thread = false;

async function setUp(answerCacheEntries?: number) {
  const chain = { height: 5, queries: 0 };
  const listeners = new Set<(height: number) => void>();
  // A new block: the store's commit tells the state height's watchers, then the state moves.
  const setHeight = (height: number): void => {
    for (const listener of listeners) listener(height);
    chain.height = height;
  };
  const { env } = fakeEnvironment();
  (env as { app: unknown }).app = {
    query: async (request: { path: string; data: Uint8Array; height: number }): Promise<ResponseQuery> => {
      chain.queries++;
      const base = { log: '', info: '', index: 0n, key: new Uint8Array(0), value: new Uint8Array(0), codespace: '' };
      if (request.path === '/fail') return { ...base, code: 7, log: 'no such thing', codespace: 'sdk', height: chain.height };
      const at = request.height > 0 ? request.height : chain.height;
      return { ...base, code: 0, value: new TextEncoder().encode(`${request.path}@${at}:${Buffer.from(request.data).toString('hex')}`), height: at };
    },
  };
  server = new RpcServer({
    env,
    options: { laddr: 'tcp://127.0.0.1:0' },
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
  const postText = async (body: unknown): Promise<string> => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).text();
  const query = async (path: string, data = '', requestId: number | string = ++id): Promise<any> => JSON.parse(await postText({ jsonrpc: '2.0', id: requestId, method: 'abci_query', params: { path, data } }));
  const value = (reply: any): string => Buffer.from(reply.result.response.value, 'base64').toString('utf8');
  return { chain, query, value, postText, server, setHeight, url };
}

describe.each([
  ['on the main thread', false],
  ['on its own thread', true],
])('abci_query answers kept until the state height moves, HTTP %s', (_name, onThread) => {
  beforeAll(() => {
    thread = onThread;
  });

  it('answers a repeated query from what it kept, with the request id; a new state height reads again', async () => {
    const { chain, query, value, server, setHeight } = await setUp(2);
    const first = await query('/store/bank/key', 'ab');
    expect(value(first)).toBe('/store/bank/key@5:ab');
    const again = await query('/store/bank/key', 'ab', 'my-id');
    expect(again).toEqual({ ...first, id: 'my-id' });
    const fractional = await query('/store/bank/key', 'ab', 4.7);
    expect(fractional.id).toBe(4);
    expect(chain.queries).toBe(1);
    expect(server.cachedAnswers).toBe(1);

    // Another key is its own entry; a failed query is kept too (its answer is the state's); at
    // most answerCacheEntries, the oldest going first.
    await query('/store/bank/key', 'cd');
    expect(chain.queries).toBe(2);
    expect(server.cachedAnswers).toBe(2);
    await query('/fail');
    await query('/fail');
    expect(chain.queries).toBe(3);
    expect(server.cachedAnswers).toBe(2);
    await query('/store/bank/key', 'ab');
    expect(chain.queries).toBe(4);

    // The next block: what was kept is dropped.
    setHeight(6);
    expect(value(await query('/store/bank/key', 'ab'))).toBe('/store/bank/key@6:ab');
    expect(chain.queries).toBe(5);
  });

  it('a GET /abci_query is kept by its URL; bad params, notifications and batches are not answered from it', async () => {
    const { chain, query, postText, url } = await setUp();
    const get = async (q: string) => {
      const res = await fetch(`${url}/abci_query?${q}`);
      return { status: res.status, body: await res.text() };
    };
    const first = await get('path="/store/x"&data=0x0a');
    expect(first.status).toBe(200);
    expect(await get('path="/store/x"&data=0x0a')).toEqual(first);
    expect(chain.queries).toBe(1);
    // Errors are HTTP 500 and asked every time.
    for (let i = 0; i < 2; i++) expect((await get('path="/store/x"&height=abc')).status).toBe(500);
    expect(chain.queries).toBe(1);

    await query('/store/y', '01');
    expect(chain.queries).toBe(2);
    // A notification gets no answer (and is not run) even though its query is kept; a batch is
    // answered whole by the backend.
    expect(await postText({ jsonrpc: '2.0', method: 'abci_query', params: { path: '/store/y', data: '01' } })).toBe('');
    const batch = JSON.parse(await postText([{ jsonrpc: '2.0', id: 1, method: 'abci_query', params: { path: '/store/y', data: '01' } }]));
    expect(batch).toHaveLength(1);
    expect(chain.queries).toBe(3);
    // Wrong params are the backend's to refuse, every time.
    for (let i = 0; i < 2; i++) expect((await query('/store/y', 'zz')).error.code).toBe(-32602);
  });

  it('a query whose params are longer than 64 KiB is not kept', async () => {
    const { chain, query } = await setUp();
    const big = 'ab'.repeat(40 * 1024);
    await query('/app/simulate', big);
    await query('/app/simulate', big);
    expect(chain.queries).toBe(2);
  });

  it('keeps nothing with rpc-responses = 0', async () => {
    const { chain, query, server } = await setUp(0);
    await query('/store/z');
    await query('/store/z');
    expect(chain.queries).toBe(2);
    expect(server.cachedAnswers).toBe(0);
  });
});

describe('CometBFT RPC HTTP on its own thread', () => {
  beforeAll(() => {
    thread = true;
  });

  it('answers a kept query while the main thread is blocked', async () => {
    const { chain, query, url, server } = await setUp();
    const first = await query('/store/bank/key', 'ab');
    // spawnSync blocks this (the main) thread until the child exits: only the RPC's own thread
    // can answer the child meanwhile.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'child', method: 'abci_query', params: { path: '/store/bank/key', data: 'ab' } });
    const script =
      'fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json" }, body: process.argv[2], signal: AbortSignal.timeout(10000) }).then(async (r) => console.log(r.status, await r.text()), (e) => console.log("failed", e.message))';
    const child = spawnSync(process.execPath, ['-e', script, url, body], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(`200 ${JSON.stringify({ ...first, id: 'child' })}`);
    expect(chain.queries).toBe(1);
    // The thread's figures reach the main thread (metrics): the connection cap and the kept answer.
    expect(server.connectionStats()).toMatchObject({ max: 900, evicted: 0, refused: 0 });
    expect(server.cachedAnswers).toBe(1);
  });

  it('a busy port fails the start with one line saying so, on its own thread and on the main thread', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      for (const onThread of [true, false]) {
        const { env } = fakeEnvironment();
        const second = new RpcServer({ env, options: { laddr: `tcp://127.0.0.1:${port}` }, thread: onThread, stateHeight: () => 1, watchStateHeight: () => () => undefined });
        await expect(second.start()).rejects.toMatchObject({ message: `cannot listen for RPC on tcp://127.0.0.1:${port}: address already in use`, cause: { code: 'EADDRINUSE' } });
        expect(second.connectionStats()).toBeUndefined();
        await second.stop();
      }
    } finally {
      taken.close();
    }
  });
});
