/**
 * JSON-RPC bodies are handled a few milliseconds' worth per event-loop turn (issue 15): a burst of
 * broadcast bodies read in one poll must not hold the loop while other requests wait.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { RpcServer } from '../../../src/node/rpc/server.js';
import { fakeEnvironment } from './helpers.js';

const SPIN_MS = 3;
let server: RpcServer;
let url: string;
/** A counter the event loop moves once per turn (its check phase). */
let turn = 0;
let ticking = true;
const ranIn: number[] = [];

function tick(): void {
  turn++;
  if (ticking) setImmediate(tick);
}

beforeAll(async () => {
  const { env } = fakeEnvironment();
  server = new RpcServer({
    env,
    options: { laddr: 'tcp://127.0.0.1:0' },
    routes: [
      {
        name: 'spin',
        params: [],
        handler: () => {
          ranIn.push(turn);
          const until = performance.now() + SPIN_MS;
          while (performance.now() < until);
          return { turn };
        },
      },
    ],
  });
  url = (await server.start()).url;
  setImmediate(tick);
});

afterAll(async () => {
  ticking = false;
  await server.stop();
});

describe('JSON-RPC admission', () => {
  it('a burst of bodies written at once is answered in full, each to its own request', async () => {
    // Forty connections, then forty requests written in one synchronous loop: the server's next
    // poll reads them all at once, the burst a load generator's broadcasts make.
    const { port } = new URL(url);
    const sockets = await Promise.all(
      Array.from({ length: 40 }, () => new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      })),
    );
    const answers = sockets.map((socket) => new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        const at = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text)?.[1];
        if (at >= 0 && length !== undefined && text.length >= at + 4 + Number(length)) resolve(text.slice(at + 4, at + 4 + Number(length)));
      });
    }));
    sockets.forEach((socket, i) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'spin', params: {} });
      socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    const replies = (await Promise.all(answers)).map((text) => JSON.parse(text) as { id: number; result?: unknown });
    for (const socket of sockets) socket.destroy();
    expect(replies.map((r) => r.id)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(replies.every((r) => r.result !== undefined)).toBe(true);
    expect(ranIn).toHaveLength(40);
  });

  it('bodies admitted in one turn beyond its 4 ms run in later turns, in arrival order', async () => {
    // What the server does with each body it has read (as a burst read in one poll would give it).
    const admit = (server as unknown as { admit(work: () => void): void }).admit.bind(server);
    const order: number[] = [];
    const turns: number[] = [];
    const done = new Promise<void>((resolve) => {
      for (let i = 0; i < 30; i++) {
        admit(() => {
          order.push(i);
          turns.push(turn);
          const until = performance.now() + SPIN_MS;
          while (performance.now() < until);
          if (i === 29) resolve();
        });
      }
    });
    await done;
    expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const perTurn = new Map<number, number>();
    for (const t of turns) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    // 4 ms a turn: the first body starts the clock, the second still fits, the third waits.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(15);
  });
});
