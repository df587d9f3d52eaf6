/**
 * The REST gateway over the app (InitChain → FinalizeBlock → Commit driven here) on 127.0.0.1:
 * response shapes, pagination through query parameters, the height header, errors and their
 * HTTP statuses, POST bodies, route precedence, the OpenAPI document — with the HTTP side on the
 * main thread and on a thread of its own ([api] http-thread).
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import type { Worker } from 'node:worker_threads';
import { ApiServer } from '../../../src/node/api/index.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp } from '../../../src/node/app/index.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { createQueryRouter } from '../../../src/node/services/index.js';
import { CHAIN_ID, DENOM, GENESIS_TIME, TOKEN, chainDriver, consensusKey, makeGentx, msgSend, signTx, startChain, testKey, type Chain } from '../app/helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const carol = testKey('carol');
const validator = testKey('validator');
const stranger = testKey('stranger');

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, text, body };
}

describe.each([false, true])('REST gateway over the app (HTTP on its own thread: %s)', (thread) => {
  let chain: Chain;
  let api: ApiServer;
  let url: string;

  beforeAll(async () => {
    let appState = defaultAppState({ denom: DENOM });
    appState = addGenesisAccounts(appState, [
      { address: alice.address, coins: [{ denom: DENOM, amount: 1000n * TOKEN }] },
      { address: validator.address, coins: [{ denom: DENOM, amount: 200n * TOKEN }] },
      {
        address: carol.address,
        coins: [
          { denom: 'aaa', amount: 1n },
          { denom: DENOM, amount: 3n },
          { denom: 'bbb', amount: 2n },
          { denom: 'ccc', amount: 4n },
        ],
      },
    ]);
    appState = collectGentxs(appState, [makeGentx(validator, consensusKey(validator.bech32), 100n * TOKEN)], CHAIN_ID);
    chain = await startChain(appState);
    await chain.block([]); // height 1
    // height 2: alice → bob
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 5n * TOKEN)], sequence: 0n, accountNumber: 0n, fee: 2000n, gas: 200_000n });
    const result = await chain.block([tx]);
    expect(result.txResults[0]!.code).toBe(0);
    api = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: 'tcp://127.0.0.1:0', maxBodyBytes: 64 * 1024, thread } });
    ({ url } = await api.start());
  });

  afterAll(async () => {
    await api.stop();
    await chain.close();
  });

  test('an account that never received tokens: balances [] with next_key null and total "0"', async () => {
    const res = await request(`${url}/sdk/bank/v1beta1/balances/${stranger.bech32}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"balances":[],"pagination":{"next_key":null,"total":"0"}}');
    const upstream = await request(`${url}/cosmos/bank/v1beta1/balances/${stranger.bech32}`);
    expect(upstream.text).toBe(res.text);
  });

  test('balances of a funded account, and by_denom (the more specific template wins)', async () => {
    const res = await request(`${url}/sdk/bank/v1beta1/balances/${bob.bech32}`);
    expect(res.body).toEqual({ balances: [{ denom: DENOM, amount: (5n * TOKEN).toString() }], pagination: { next_key: null, total: '1' } });
    const byDenom = await request(`${url}/cosmos/bank/v1beta1/balances/${bob.bech32}/by_denom?denom=${DENOM}`);
    expect(byDenom.status).toBe(200);
    expect(byDenom.body).toEqual({ balance: { denom: DENOM, amount: (5n * TOKEN).toString() } });
  });

  describe('pagination through query parameters', () => {
    const base = (): string => `${url}/sdk/bank/v1beta1/balances/${carol.bech32}`;

    test('no limit: the default page with count_total forced (total set)', async () => {
      const res = await request(base());
      expect(res.body.balances.map((c: { denom: string }) => c.denom)).toEqual(['aaa', DENOM, 'bbb', 'ccc']);
      expect(res.body.pagination).toEqual({ next_key: null, total: '4' });
    });

    test('limit, then next_key as pagination.key walks every balance exactly once', async () => {
      const seen: string[] = [];
      let key: string | null = null;
      for (let page = 0; page < 10; page++) {
        const query: string = key === null ? 'pagination.limit=1' : `pagination.limit=1&pagination.key=${encodeURIComponent(key)}`;
        const res = await request(`${base()}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body.balances).toHaveLength(1);
        expect(res.body.pagination.total).toBe('0');
        seen.push(res.body.balances[0].denom);
        key = res.body.pagination.next_key;
        if (key === null) break;
      }
      expect(seen).toEqual(['aaa', DENOM, 'bbb', 'ccc']);
    });

    test('offset + limit + count_total (proto or lowerCamel names), reverse', async () => {
      const res = await request(`${base()}?pagination.offset=1&pagination.limit=2&pagination.count_total=true`);
      expect(res.body.balances.map((c: { denom: string }) => c.denom)).toEqual([DENOM, 'bbb']);
      expect(res.body.pagination.total).toBe('4');
      expect(res.body.pagination.next_key).not.toBeNull();
      const camel = await request(`${base()}?pagination.offset=1&pagination.limit=2&pagination.countTotal=true`);
      expect(camel.text).toBe(res.text);
      const reverse = await request(`${base()}?pagination.reverse=true&pagination.limit=2`);
      expect(reverse.body.balances.map((c: { denom: string }) => c.denom)).toEqual(['ccc', 'bbb']);
    });

    test('key and offset together: 400 with the SDK text', async () => {
      const res = await request(`${base()}?pagination.key=YWFh&pagination.offset=1`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(3);
      expect(res.body.message).toContain('invalid request, either offset or key is expected, got both');
      expect(res.body.details).toEqual([]);
      expect(res.body.error).toBe(res.body.message);
    });

    test('unparsable values are 400 naming the field; a field given twice is 400; unknown parameters are ignored', async () => {
      const badBool = await request(`${base()}?pagination.count_total=maybe`);
      expect(badBool.status).toBe(400);
      expect(badBool.body.message).toBe('invalid value "maybe" for pagination.count_total: expected true or false');
      const badLimit = await request(`${base()}?pagination.limit=-1`);
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.message).toBe('invalid value "-1" for pagination.limit: expected an unsigned 64-bit integer');
      const badKey = await request(`${base()}?pagination.key=*`);
      expect(badKey.status).toBe(400);
      const twice = await request(`${base()}?pagination.limit=1&pagination.limit=2`);
      expect(twice.status).toBe(400);
      expect(twice.body.message).toBe('too many values for field "pagination.limit"');
      const unknown = await request(`${base()}?foo=bar&pagination.nope=1`);
      expect(unknown.status).toBe(200);
    });

    test('a limit above the maximum (1000) is clamped, not refused', async () => {
      const res = await request(`${base()}?pagination.limit=100000`);
      expect(res.status).toBe(200);
      expect(res.body.balances).toHaveLength(4);
    });
  });

  test('x-cosmos-block-height picks the height; every answer carries the height it reflects', async () => {
    const latest = await request(`${url}/sdk/bank/v1beta1/balances/${alice.bech32}`);
    expect(latest.headers.get('x-cosmos-block-height')).toBe('2');
    expect(latest.headers.get('grpc-metadata-x-cosmos-block-height')).toBe('2');
    expect(latest.body.balances[0].amount).toBe((1000n * TOKEN - 5n * TOKEN - 2000n).toString());

    const atOne = await request(`${url}/sdk/bank/v1beta1/balances/${alice.bech32}`, { headers: { 'x-cosmos-block-height': '1' } });
    expect(atOne.status).toBe(200);
    expect(atOne.headers.get('x-cosmos-block-height')).toBe('1');
    expect(atOne.body.balances[0].amount).toBe((1000n * TOKEN).toString());
    const bobAtOne = await request(`${url}/sdk/bank/v1beta1/balances/${bob.bech32}`, { headers: { 'x-cosmos-block-height': '1' } });
    expect(bobAtOne.body.balances).toEqual([]);

    const future = await request(`${url}/sdk/bank/v1beta1/balances/${alice.bech32}`, { headers: { 'x-cosmos-block-height': '99' } });
    expect(future.status).toBe(400);
    expect(future.body.message).toContain('cannot query with height in the future');
    expect(future.headers.get('x-cosmos-block-height')).toBe('99');

    const garbage = await request(`${url}/sdk/bank/v1beta1/balances/${alice.bech32}`, { headers: { 'x-cosmos-block-height': 'abc' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toBe('invalid x-cosmos-block-height header "abc": expected a non-negative integer height');
    expect(garbage.headers.get('x-cosmos-block-height')).toBe('2');
  });

  test('errors: invalid address 400, missing account 404 with the SDK message, unknown route 501, wrong verb 405', async () => {
    const invalid = await request(`${url}/cosmos/bank/v1beta1/balances/not-an-address`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe(3);

    const missing = await request(`${url}/cosmos/auth/v1beta1/accounts/${stranger.bech32}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 5,
      message: `rpc error: code = NotFound desc = account ${stranger.bech32} not found: key not found`,
      details: [],
      error: `rpc error: code = NotFound desc = account ${stranger.bech32} not found: key not found`,
    });

    const unknown = await request(`${url}/cosmos/nothing/here`);
    expect(unknown.status).toBe(501);
    expect(unknown.text).toBe('{"code":12,"message":"Not Implemented","details":[],"error":"Not Implemented"}');
    expect(unknown.headers.get('x-cosmos-block-height')).toBe('2');

    const wrongVerb = await request(`${url}/cosmos/bank/v1beta1/balances/${alice.bech32}`, { method: 'POST', body: '{}' });
    expect(wrongVerb.status).toBe(405);
    expect(wrongVerb.body.code).toBe(12);

    // A route of a method this node does not serve (amino JSON encoding) is 501 too.
    const amino = await request(`${url}/cosmos/tx/v1beta1/encode/amino`, { method: 'POST', body: '{"amino_json":"{}"}' });
    expect(amino.status).toBe(501);
    expect(amino.body.code).toBe(12);
  });

  test('the account of a funded address: EthAccount JSON with @type first', async () => {
    const res = await request(`${url}/sdk/auth/v1beta1/accounts/${alice.bech32}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.account)[0]).toBe('@type');
    expect(res.body.account['@type']).toBe('/ethermint.types.v1.EthAccount');
    expect(res.body.account.base_account.sequence).toBe('1');
    expect(res.body.account.base_account.pub_key['@type']).toBe('/ethermint.crypto.v1.ethsecp256k1.PubKey');
  });

  test('identical templates (/bech32/{address_bytes} and /bech32/{address_string}): a bech32 value → AddressStringToBytes, base64 → AddressBytesToString', async () => {
    const toBytes = await request(`${url}/sdk/auth/v1beta1/bech32/${alice.bech32}`);
    expect(toBytes.status).toBe(200);
    expect(Buffer.from(toBytes.body.address_bytes, 'base64')).toEqual(Buffer.from(alice.address));
    const toString = await request(`${url}/cosmos/auth/v1beta1/bech32/${encodeURIComponent(Buffer.from(alice.address).toString('base64'))}`);
    expect(toString.status).toBe(200);
    expect(toString.body).toEqual({ address_string: alice.bech32 });
  });

  test('string filters in query parameters (staking validators by status)', async () => {
    const bonded = await request(`${url}/sdk/staking/v1beta1/validators?status=BOND_STATUS_BONDED`);
    expect(bonded.status).toBe(200);
    expect(bonded.body.validators).toHaveLength(1);
    const unbonded = await request(`${url}/sdk/staking/v1beta1/validators?status=BOND_STATUS_UNBONDED`);
    expect(unbonded.body.validators).toHaveLength(0);
  });

  test('POST bodies in gateway JSON: simulate a tx; malformed JSON, unknown fields and oversize bodies are refused', async () => {
    const tx = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 1n, accountNumber: 0n, fee: 2000n, gas: 200_000n });
    const sim = await request(`${url}/sdk/tx/v1beta1/simulate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString('base64') }) });
    expect(sim.status).toBe(200);
    expect(BigInt(sim.body.gas_info.gas_used)).toBeGreaterThan(0n);
    expect(sim.body.result.msg_responses[0]['@type']).toBe('/cosmos.bank.v1beta1.MsgSendResponse');

    const malformed = await request(`${url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: '{"tx_bytes":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^invalid JSON body/);
    const unknownField = await request(`${url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: '{"txBytes":"AA==","nope":1}' });
    expect(unknownField.status).toBe(400);
    const big = await request(`${url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: JSON.stringify({ tx_bytes: 'A'.repeat(100_000) }) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe(8);
  });

  test('the OpenAPI document lists the served routes with parameters and schemas; /swagger/ is an HTML index', async () => {
    const res = await request(`${url}/swagger/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    const balances = res.body.paths['/sdk/bank/v1beta1/balances/{address}'].get;
    expect(balances.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:address', 'query:pagination.key', 'query:pagination.offset', 'query:pagination.limit', 'query:pagination.count_total', 'query:pagination.reverse', 'header:x-cosmos-block-height']),
    );
    expect(balances.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/cosmos.bank.v1beta1.QueryAllBalancesResponse');
    expect(balances.parameters.find((p: { name: string }) => p.name === 'pagination.key').schema).toEqual({ type: 'string', format: 'byte' });
    expect(balances.parameters.find((p: { name: string }) => p.name === 'pagination.count_total').schema).toEqual({ type: 'boolean' });
    expect(res.body.components.schemas['cosmos.base.query.v1beta1.PageResponse'].properties.total).toEqual({ type: 'string', format: 'uint64' });
    expect(res.body.paths['/cosmos/tx/v1beta1/simulate'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/cosmos.tx.v1beta1.SimulateRequest');
    // Methods this node does not serve are left out.
    expect(res.body.paths['/cosmos/tx/v1beta1/encode/amino']).toBeUndefined();
    const ids = Object.values(res.body.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);

    const html = await request(`${url}/swagger/`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toContain('/sdk/bank/v1beta1/balances/{address}');
  });
});

describe('REST gateway before the first block', () => {
  test('answers that the node is not ready (the SDK\'s error) instead of empty state, before and after InitChain, then the genesis balance at block 1', async () => {
    const funded = testKey('early');
    const appState = addGenesisAccounts(defaultAppStateWithValidator(), [{ address: funded.address, coins: [{ denom: DENOM, amount: 7n * TOKEN }] }]);
    const db = memoryDatabase();
    const opened = await openApp(db, { chainId: CHAIN_ID, sigVerifyWorkers: 0 }, { syncCommits: false });
    const api = new ApiServer({ router: createQueryRouter({ app: opened.app }), options: { address: 'tcp://127.0.0.1:0' } });
    const { url } = await api.start();
    try {
      const early = await request(`${url}/cosmos/bank/v1beta1/balances/${funded.bech32}`);
      expect(early.status).toBe(400);
      expect(early.body).toMatchObject({ code: 3, message: expect.stringContaining('tokend is not ready; please wait for first block') });
      const init = await opened.app.initChain({ time: GENESIS_TIME, chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
      // The genesis is applied but not committed until block 1: still not ready, never empty.
      const genesis = await request(`${url}/cosmos/bank/v1beta1/balances/${funded.bech32}`);
      expect(genesis.status).toBe(400);
      expect(genesis.body.message).toContain('tokend is not ready; please wait for first block');
      const chain = chainDriver(opened.app, opened.store, db, init, opened.close);
      await chain.block([]);
      const later = await request(`${url}/cosmos/bank/v1beta1/balances/${funded.bech32}`);
      expect(later.headers.get('x-cosmos-block-height')).toBe('1');
      expect(later.body.balances).toEqual([{ denom: DENOM, amount: String(7n * TOKEN) }]);
    } finally {
      await api.stop();
      await opened.close();
    }
  });
});

describe.each([false, true])('REST answers of the latest state, cached until the next block (HTTP on its own thread: %s)', (thread) => {
  test('the same URL is answered once per height; a block, an explicit height, an error or a full cache are not served from it', async () => {
    const payer = testKey('cache-payer');
    const payee = testKey('cache-payee');
    const chain = await startChain(addGenesisAccounts(defaultAppStateWithValidator(), [{ address: payer.address, coins: [{ denom: DENOM, amount: 50n * TOKEN }] }]));
    await chain.block([]);
    const router = createQueryRouter({ app: chain.app });
    const calls = new Map<string, number>();
    const counted = {
      ...router,
      lookup: (path: string) => {
        const entry = router.lookup(path);
        if (entry === undefined) return undefined;
        return { ...entry, handle: (request: never, ctx: never) => (calls.set(path, (calls.get(path) ?? 0) + 1), entry.handle(request, ctx)) };
      },
      entries: () => router.entries(),
    };
    const api = new ApiServer({ router: counted as typeof router, options: { address: 'tcp://127.0.0.1:0', answerCacheEntries: 2, thread } });
    const off = new ApiServer({ router: counted as typeof router, options: { address: 'tcp://127.0.0.1:0', answerCacheEntries: 0, thread } });
    const { url } = await api.start();
    const offUrl = (await off.start()).url;
    const ALL = '/cosmos.bank.v1beta1.Query/AllBalances';
    const balances = (who: { bech32: string }, base = url, init?: RequestInit) => request(`${base}/cosmos/bank/v1beta1/balances/${who.bech32}`, init);
    try {
      const first = await balances(payer);
      const again = await balances(payer);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('x-cosmos-block-height')).toBe(first.headers.get('x-cosmos-block-height'));
      expect(calls.get(ALL)).toBe(1);
      expect(api.cachedAnswers).toBe(1);

      // An explicit height is answered by the query every time.
      const height = first.headers.get('x-cosmos-block-height')!;
      await balances(payer, url, { headers: { 'x-cosmos-block-height': height } });
      await balances(payer, url, { headers: { 'x-cosmos-block-height': height } });
      expect(calls.get(ALL)).toBe(3);

      // Errors are not kept.
      await request(`${url}/cosmos/bank/v1beta1/balances/token1bad`);
      const bad = await request(`${url}/cosmos/bank/v1beta1/balances/token1bad`);
      expect(bad.status).toBe(400);
      expect(calls.get(ALL)).toBe(5);

      // At most answerCacheEntries answers, the oldest dropped first.
      await balances(payee);
      await balances(testKey('cache-third'));
      expect(api.cachedAnswers).toBe(2);
      expect(calls.get(ALL)).toBe(7);

      // A committed block: the next answer shows the new state.
      const account = (await request(`${offUrl}/cosmos/auth/v1beta1/accounts/${payer.bech32}`)).body.account;
      const accountNumber = BigInt(account.base_account?.account_number ?? account.account_number);
      const sent = await chain.block([signTx({ signer: payer, msgs: [msgSend(payer.bech32, payee.bech32, 3n * TOKEN)], sequence: 0n, accountNumber, fee: 2000n, gas: 200_000n })]);
      expect(sent.txResults[0]!.code).toBe(0);
      const after = await balances(payee);
      expect(after.body.balances).toEqual([{ denom: DENOM, amount: String(3n * TOKEN) }]);
      expect(Number(after.headers.get('x-cosmos-block-height'))).toBe(Number(height) + 1);
      expect(api.cachedAnswers).toBe(1);

      // answerCacheEntries 0: every request runs the query.
      const before = calls.get(ALL)!;
      await balances(payer, offUrl);
      await balances(payer, offUrl);
      expect(calls.get(ALL)).toBe(before + 2);
      expect(off.cachedAnswers).toBe(0);
    } finally {
      await api.stop();
      await off.stop();
      await chain.close();
    }
  });
});

describe('REST gateway with its HTTP side on a thread of its own', () => {
  test('a kept answer is given while the main thread is blocked; connection figures come from the thread; stop frees the port', async () => {
    const payer = testKey('thread-payer');
    const chain = await startChain(addGenesisAccounts(defaultAppStateWithValidator(), [{ address: payer.address, coins: [{ denom: DENOM, amount: 9n * TOKEN }] }]));
    await chain.block([]);
    const api = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: 'tcp://127.0.0.1:0', thread: true } });
    const { url, port } = await api.start();
    let stopped = false;
    try {
      const target = `${url}/cosmos/bank/v1beta1/balances/${payer.bech32}`;
      const first = await request(target);
      expect(first.status).toBe(200);
      expect(api.cachedAnswers).toBe(1);
      expect(api.connectionStats()).toMatchObject({ max: 1000, evicted: 0, refused: 0, waiting: 0 });
      // spawnSync blocks this (the main) thread until the child exits: only the gateway's own
      // thread can answer the child meanwhile.
      const script = 'fetch(process.argv[1], { signal: AbortSignal.timeout(10000) }).then(async (r) => console.log(r.status, r.headers.get("x-cosmos-block-height"), await r.text()), (e) => console.log("failed", e.message))';
      const child = spawnSync(process.execPath, ['-e', script, target], { encoding: 'utf8' });
      expect(child.stdout.trim()).toBe(`200 ${first.headers.get('x-cosmos-block-height')} ${first.text}`);

      await api.stop();
      stopped = true;
      // The port is free again.
      const again = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: `tcp://127.0.0.1:${port}`, thread: true } });
      await again.start();
      await again.stop();
    } finally {
      if (!stopped) await api.stop();
      await chain.close();
    }
  });

  test('a thread that ends by itself is started again on its port, still bound to the state height; stop works while it is down', async () => {
    const payer = testKey('thread-restart-payer');
    const payee = testKey('thread-restart-payee');
    const chain = await startChain(addGenesisAccounts(defaultAppStateWithValidator(), [{ address: payer.address, coins: [{ denom: DENOM, amount: 9n * TOKEN }] }]));
    await chain.block([]);
    const api = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: 'tcp://127.0.0.1:0', thread: true } });
    const { url } = await api.start();
    const threadOf = (): Worker => (api as unknown as { front: { slot: { host: { worker: Worker } } } }).front.slot.host.worker;
    try {
      const target = `${url}/cosmos/bank/v1beta1/balances/${payee.bech32}`;
      const before = await request(target);
      expect(before.body.balances).toEqual([]);
      await threadOf().terminate();
      // Back on the same port: wait until it answers again.
      const deadline = Date.now() + 15_000;
      let again: Answer | undefined;
      while (again?.status !== 200) {
        if (Date.now() > deadline) throw new Error('the REST gateway thread did not come back');
        again = await request(target).catch(() => undefined);
        if (again?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(again.text).toBe(before.text);
      // The new thread reads the same state height: a block's answer is not the kept one.
      const sent = await chain.block([signTx({ signer: payer, msgs: [msgSend(payer.bech32, payee.bech32, 2n * TOKEN)], sequence: 0n, accountNumber: 1n, fee: 2000n, gas: 200_000n })]);
      expect(sent.txResults[0]!.code).toBe(0);
      expect((await request(target)).body.balances).toEqual([{ denom: DENOM, amount: String(2n * TOKEN) }]);
      // Ended again and stopped before it is back: the stop does not wait for it.
      await threadOf().terminate();
    } finally {
      await api.stop();
      await chain.close();
    }
  });

  test('a port in use fails the start with the listen error, on either side', async () => {
    const chain = await startChain(defaultAppStateWithValidator());
    await chain.block([]);
    const router = createQueryRouter({ app: chain.app });
    const holder = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:0' } });
    const { port } = await holder.start();
    try {
      for (const thread of [false, true]) {
        const second = new ApiServer({ router, options: { address: `tcp://127.0.0.1:${port}`, thread } });
        await expect(second.start()).rejects.toMatchObject({
          code: 'CONFIG_INVALID',
          message: `cannot listen for the REST gateway on tcp://127.0.0.1:${port}: address already in use`,
          cause: { code: 'EADDRINUSE' },
        });
        expect(second.connectionStats()).toBeUndefined();
      }
    } finally {
      await holder.stop();
      await chain.close();
    }
  });

  test.each([false, true])('a chunked body past rpc-max-body-bytes is refused with 413 and the connection closed (own thread: %s)', async (thread) => {
    const chain = await startChain(defaultAppStateWithValidator());
    await chain.block([]);
    const api = new ApiServer({ router: createQueryRouter({ app: chain.app }), options: { address: 'tcp://127.0.0.1:0', maxBodyBytes: 1024, thread } });
    const { port } = await api.start();
    try {
      const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/cosmos/tx/v1beta1/simulate', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        });
        req.on('error', reject);
        req.write('{"tx_bytes":"');
        req.write('A'.repeat(4096));
        req.end('"}');
      });
      expect(answer.status).toBe(413);
      expect(answer.connection).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ code: 8, message: 'request body too large: the limit is 1024 bytes' });
    } finally {
      await api.stop();
      await chain.close();
    }
  });
});

describe('REST gateway options', () => {
  test('CORS is off by default and answers preflights when enabled', async () => {
    const chain = await startChain(defaultAppStateWithValidator());
    await chain.block([]);
    const router = createQueryRouter({ app: chain.app });
    const closed = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:0' } });
    const open = new ApiServer({ router, options: { address: 'tcp://127.0.0.1:0', enableUnsafeCors: true } });
    const a = await closed.start();
    const b = await open.start();
    try {
      const plain = await fetch(`${a.url}/cosmos/bank/v1beta1/params`);
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${b.url}/cosmos/bank/v1beta1/params`, { method: 'OPTIONS', headers: { origin: 'http://x', 'access-control-request-method': 'GET' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const get = await fetch(`${b.url}/cosmos/bank/v1beta1/params`);
      expect(get.headers.get('access-control-allow-origin')).toBe('*');
      expect(get.status).toBe(200);
    } finally {
      await closed.stop();
      await open.stop();
      await chain.close();
    }
  });
});

function defaultAppStateWithValidator(): ReturnType<typeof defaultAppState> {
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, [{ address: validator.address, coins: [{ denom: DENOM, amount: 200n * TOKEN }] }]);
  return collectGentxs(appState, [makeGentx(validator, consensusKey(validator.bech32), 100n * TOKEN)], CHAIN_ID);
}
