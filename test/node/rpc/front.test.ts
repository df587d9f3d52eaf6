/**
 * The RPC's websocket connections as the front holds them: a client that does not read its events
 * loses them past experimental_subscription_buffer_size (the backend is told once), or — with
 * experimental_close_on_slow_client — its subscriptions, with CometBFT's -32000 text; a server
 * stopping tells each subscriber its subscription ended before it closes the connection (on the
 * main thread and on the RPC's own thread).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { RpcFront, type RpcFrontOptions, type RpcNote } from '../../../src/node/rpc/front.js';
import { rpcMode, startFakeServer, utf8, waitFor } from './helpers.js';

const options: RpcFrontOptions = {
  host: '127.0.0.1',
  port: 0,
  maxOpenConnections: 10,
  maxHeaderBytes: 1 << 20,
  maxBodyBytes: 1_000_000,
  readTimeoutMs: 10_000,
  keepAliveTimeoutMs: 60_000,
  corsAllowedOrigins: [],
  corsAllowedMethods: [],
  corsAllowedHeaders: [],
  wsPingPeriodMs: 27_000,
  wsReadWaitMs: 30_000,
  subscriptionBufferSize: 5,
  closeOnSlowClient: false,
  answerCacheEntries: 0,
};

async function connect(url: string): Promise<{ ws: WebSocket; frames: any[] }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/websocket`);
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  rpcMode.thread = false;
});

describe('the front', () => {
  it('drops event frames past the buffer, tells the backend once until the client catches up; replies always go', async () => {
    const notes: RpcNote[] = [];
    const front = new RpcFront(options, async () => ({ status: 500, body: '', headers: {} }), () => -1, (note) => notes.push(note));
    const { url } = await front.start();
    cleanups.push(() => front.stop());
    const { ws, frames } = await connect(url);
    cleanups.push(async () => ws.close());
    await waitFor(() => notes.some((n) => n.ws === 'open'), 5000, 'open note');
    const id = (notes[0] as { id: number }).id;
    // Written in one turn: none of the frames has left before the next is queued.
    for (let i = 0; i < 8; i++) front.push({ ws: 'send', id, text: JSON.stringify({ event: i }), event: true });
    front.push({ ws: 'send', id, text: JSON.stringify({ reply: 1 }) });
    await waitFor(() => frames.length === 6, 5000, 'six frames');
    expect(frames).toEqual([{ event: 0 }, { event: 1 }, { event: 2 }, { event: 3 }, { event: 4 }, { reply: 1 }]);
    expect(notes.filter((n) => n.ws === 'slow')).toEqual([{ ws: 'slow', id }]);
    // Caught up: the next overflow is told again.
    for (let i = 0; i < 6; i++) front.push({ ws: 'send', id, text: JSON.stringify({ event: 10 + i }), event: true });
    await waitFor(() => frames.length === 11, 5000, 'eleven frames');
    expect(notes.filter((n) => n.ws === 'slow')).toHaveLength(2);
    // A message from the client and its going away reach the backend.
    ws.send('{"jsonrpc":"2.0","id":1,"method":"health"}');
    await waitFor(() => notes.some((n) => n.ws === 'message'), 5000, 'message note');
    expect(notes.find((n) => n.ws === 'message')).toEqual({ ws: 'message', id, text: '{"jsonrpc":"2.0","id":1,"method":"health"}' });
    ws.close();
    await waitFor(() => notes.some((n) => n.ws === 'closed'), 5000, 'closed note');
  });
});

describe('the server', () => {
  it('with close_on_slow_client, a client too slow for its events loses its subscriptions with -32000', async () => {
    const { server, url, bus } = await startFakeServer({}, { subscriptionBufferSize: 2, closeOnSlowClient: true });
    cleanups.push(() => server.stop());
    const { ws, frames } = await connect(url);
    cleanups.push(async () => ws.close());
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'sub', method: 'subscribe', params: { query: "tm.event='Tx'" } }));
    await waitFor(() => frames.length === 1, 5000, 'subscribe ack');
    expect(frames[0]).toEqual({ jsonrpc: '2.0', id: 'sub', result: {} });
    const result = { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' };
    for (let i = 0; i < 5; i++) bus.publishTx({ height: 3, index: i, tx: utf8(`k${i}=v`), result });
    await waitFor(() => frames.some((f) => f.error !== undefined), 5000, 'the cancel');
    expect(frames.slice(1, 3).map((f) => f.result.data.type)).toEqual(['tendermint/event/Tx', 'tendermint/event/Tx']);
    expect(frames[3]).toEqual({ jsonrpc: '2.0', id: 'sub', error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: slow client)' } });
    // No more events for it; it can still call methods (and subscribe again).
    bus.publishTx({ height: 4, index: 0, tx: utf8('late=v'), result });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'health' }));
    await waitFor(() => frames.some((f) => f.id === 2), 5000, 'health');
    expect(frames).toHaveLength(5);
  });

  it.each([
    ['on the main thread', false],
    ['on its own thread', true],
  ])('a stopping server tells each subscriber its subscription ended, then closes (HTTP %s)', async (_name, onThread) => {
    rpcMode.thread = onThread;
    const { server, url } = await startFakeServer();
    let stopped = false;
    cleanups.push(async () => {
      if (!stopped) await server.stop();
    });
    const { ws, frames } = await connect(url);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscribe', params: { query: "tm.event='NewBlock'" } }));
    await waitFor(() => frames.length === 1, 5000, 'subscribe ack');
    await server.stop();
    stopped = true;
    expect(await closed).toBe(1001);
    expect(frames[1]).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: CometBFT exited)' } });
  });
});

describe('the RPC thread', () => {
  it('a thread that ends by itself takes its websocket sessions with it, and serves again on its port', async () => {
    rpcMode.thread = true;
    const { server, url } = await startFakeServer();
    cleanups.push(() => server.stop());
    const { ws, frames } = await connect(url);
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: "tm.event='Tx'" } }));
    await waitFor(() => frames.length === 1, 5000, 'subscribe ack');
    expect(server.subscriptions.numClients()).toBe(1);
    await (server as unknown as { front: { slot: { host: { worker: Worker } } } }).front.slot.host.worker.terminate();
    await closed;
    // The session and its subscription are gone on the main thread too.
    await waitFor(() => server.subscriptions.numClients() === 0, 5000, 'subscriptions dropped');
    // Back on the same port.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const health = await fetch(`${url}/health`).then((r) => r.status, () => 0);
      if (health === 200) break;
      if (Date.now() > deadline) throw new Error('the RPC thread did not come back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await connect(url);
    cleanups.push(async () => again.ws.close());
    again.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscribe', params: { query: "tm.event='Tx'" } }));
    await waitFor(() => again.frames.length === 1, 5000, 'subscribe ack again');
    expect(again.frames[0]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});
