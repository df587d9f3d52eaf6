/** /websocket: subscriptions with query matching, event shapes, and every other method. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { txHash } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { b64, call, startNode, utf8, waitFor, type TestNode } from './helpers.js';

class WsClient {
  readonly messages: any[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
  }

  static async connect(url: string): Promise<WsClient> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/websocket`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new WsClient(ws);
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  async next(pred: (m: any) => boolean, timeoutMs = 10000): Promise<any> {
    let found: any;
    await waitFor(
      () => {
        found = this.messages.find(pred);
        return found !== undefined;
      },
      timeoutMs,
      'websocket message',
    );
    this.messages.splice(this.messages.indexOf(found), 1);
    return found;
  }

  async request(id: number | string, method: string, params: Record<string, unknown> = {}): Promise<any> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.next((m) => m.id === id && (m.result === undefined || m.result.query === undefined));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

let node: TestNode;
let url: string;

beforeAll(async () => {
  node = await startNode();
  url = node.address.url;
});

afterAll(async () => {
  await node?.stop();
});

/**
 * Events reach one connection in the order they were published: once the event of a tx
 * committed now arrives, every event of earlier txs that was going to arrive has arrived.
 */
async function barrier(client: WsClient, recipient: string): Promise<void> {
  expect((await client.request(recipient, 'subscribe', { query: `transfer.recipient='${recipient}'` })).result).toEqual({});
  await call(url, 'broadcast_tx_commit', { tx: b64(`send:alice:${recipient}:1token`) });
  await client.next((m) => m.id === recipient && m.result?.query);
}

describe('websocket', () => {
  it("delivers only matching Tx events (tm.event='Tx' AND transfer.recipient='x'), already indexed, and NewBlock events", async () => {
    const client = await WsClient.connect(url);
    const query = "tm.event='Tx' AND transfer.recipient='xavier'";
    expect(await client.request('tx-sub', 'subscribe', { query })).toEqual({ jsonrpc: '2.0', id: 'tx-sub', result: {} });
    expect(await client.request(7, 'subscribe', { query: "tm.event='NewBlock'" })).toEqual({ jsonrpc: '2.0', id: 7, result: {} });

    const toY = 'send:alice:yvonne:2token';
    const toX = 'send:alice:xavier:3token';
    await call(url, 'broadcast_tx_commit', { tx: b64(toY) });
    const committed = await call(url, 'broadcast_tx_commit', { tx: b64(toX) });

    const event = await client.next((m) => m.id === 'tx-sub' && m.result?.query);
    const hash = toHexUpper(txHash(utf8(toX)));
    expect(event.jsonrpc).toBe('2.0');
    expect(event.result.query).toBe(query);
    expect(event.result.data.type).toBe('tendermint/event/Tx');
    expect(event.result.data.value.TxResult).toMatchObject({ height: committed.height, tx: b64(toX), result: { code: 0, gas_used: '60', data: b64('sent') } });
    expect(event.result.events['tm.event']).toEqual(['Tx']);
    expect(event.result.events['tx.hash']).toEqual([hash]);
    expect(event.result.events['tx.height']).toEqual([committed.height]);
    expect(event.result.events['transfer.recipient']).toEqual(['xavier']);
    expect((await call(url, 'tx', { hash: Buffer.from(hash, 'hex').toString('base64') })).height).toBe(committed.height);

    const block = await client.next((m) => m.id === 7 && m.result?.data?.value?.block?.header?.height === committed.height);
    expect(block.result.data.type).toBe('tendermint/event/NewBlock');
    expect(block.result.data.value.block_id.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(block.result.data.value.result_finalize_block.tx_results).toHaveLength(1);
    expect(block.result.events['tm.event']).toEqual(['NewBlock']);
    expect(block.result.events['mint.amount']).toEqual([String(Number(committed.height) * 10)]);

    // Nothing for the other recipient: a barrier tx committed later arrives after any stray event.
    await barrier(client, 'barrier-1');
    expect(client.messages.filter((m) => m.id === 'tx-sub')).toEqual([]);
    await client.close();
  });

  it('conditions on one event type must hold within one event (as tx_search)', async () => {
    const client = await WsClient.connect(url);
    const sameEvent = "transfer.recipient='yuri' AND transfer.amount='1token'";
    const crossEvent = "transfer.recipient='yuri' AND transfer.amount='8token'";
    expect((await client.request('same', 'subscribe', { query: sameEvent })).result).toEqual({});
    expect((await client.request('cross', 'subscribe', { query: crossEvent })).result).toEqual({});
    // transfer{fee_collector, 1token} and transfer{yuri, 8token}: flattened, both queries would match.
    await call(url, 'broadcast_tx_commit', { tx: b64('fee:zoe:yuri:8token') });
    const hit = await client.next((m) => m.id === 'cross' && m.result?.query);
    expect(hit.result.events['transfer.amount']).toEqual(['1token', '8token']);
    await barrier(client, 'barrier-2');
    expect(client.messages.filter((m) => m.id === 'same')).toEqual([]);
    expect((await call(url, 'tx_search', { query: sameEvent })).total_count).toBe('0');
    expect((await call(url, 'tx_search', { query: crossEvent })).total_count).toBe('1');
    await client.close();
  });

  it('every other method works over the websocket; errors keep the connection open', async () => {
    const client = await WsClient.connect(url);
    const status = await client.request(1, 'status');
    expect(status.result.node_info.network).toBe('rpc-test');
    client.send('{not json');
    const parse = await client.next((m) => m.error?.code === -32700);
    expect(parse).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: 'Parse error. Invalid JSON' } });
    expect((await client.request(2, 'nope')).error).toEqual({ code: -32601, message: 'Method not found' });
    expect((await client.request(3, 'block', { height: 'abc' })).error).toMatchObject({ code: -32603, data: expect.stringContaining('height: invalid integer') });
    expect((await client.request(4, 'health')).result).toEqual({});
    client.send({ jsonrpc: '2.0', method: 'health' }); // notification: no reply
    expect((await client.request(5, 'health')).id).toBe(5);
    await client.close();
  });

  it('subscribe errors, unsubscribe, unsubscribe_all, limits, cleanup on close', async () => {
    const client = await WsClient.connect(url);
    expect((await client.request(1, 'subscribe', { query: "tm.event = 'Tx' AND" })).error).toMatchObject({
      code: -32603,
      data: expect.stringMatching(/^failed to parse query: offset \d+: unexpected end of query/),
    });
    expect((await client.request(2, 'subscribe', { query: "tm.event='Tx'" })).result).toEqual({});
    expect((await client.request(3, 'subscribe', { query: "tm.event = 'Tx'" })).error).toMatchObject({ data: 'already subscribed' });
    expect((await client.request(4, 'unsubscribe', { query: "tm.event='NewBlock'" })).error).toMatchObject({ data: 'subscription not found' });
    expect((await client.request(5, 'unsubscribe', { query: "tm.event='Tx'" })).result).toEqual({});
    for (let i = 0; i < 5; i++) expect((await client.request(10 + i, 'subscribe', { query: `a.b=${i}` })).result).toEqual({});
    expect((await client.request(20, 'subscribe', { query: 'a.b=99' })).error).toMatchObject({ data: 'max_subscriptions_per_client 5 reached' });
    expect(node.server.subscriptions.numClients()).toBe(1);
    expect((await client.request(21, 'unsubscribe_all')).result).toEqual({});
    expect((await client.request(22, 'unsubscribe_all')).error).toMatchObject({ data: 'subscription not found' });
    expect((await client.request(23, 'subscribe', { query: 'a.b=1' })).result).toEqual({});
    expect(node.server.subscriptions.numClients()).toBe(1);
    await client.close();
    await waitFor(() => node.server.subscriptions.numClients() === 0, 5000, 'subscriptions cleaned up');
  });
});
