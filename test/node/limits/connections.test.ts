/**
 * The servers' connection cap (limits/connections.ts) on a real node:http server: a burst larger
 * than the cap waits for slots instead of failing (as a burst waits in CometBFT's accept
 * backlog), silent sockets are evicted for a client that sends, and only a full wait queue or a
 * wait past its timeout refuses a socket.
 */
import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConnectionGuard, waitQueueFor, type ConnectionLimits, type TrackedConnection } from '../../../src/node/limits/connections.js';
import { planDescriptors } from '../../../src/node/limits/descriptors.js';

interface Harness {
  server: Server;
  guard: ConnectionGuard;
  port: number;
  /** Most connections open at once, seen by the request handler. */
  peak: () => number;
  /** Requests held until `release()`. */
  release: () => void;
  close: () => Promise<void>;
}

async function harness(limits: ConnectionLimits, hold = false): Promise<Harness> {
  const tracked = new Map<Socket, TrackedConnection>();
  let peak = 0;
  let held: (() => void)[] = [];
  let holding = hold;
  const guard = new ConnectionGuard('test', limits);
  const server = createServer((req, res) => {
    const t = tracked.get(req.socket);
    t?.busy();
    res.once('close', () => t?.idle());
    peak = Math.max(peak, guard.size);
    const answer = (): void => void setTimeout(() => res.end(req.url), 5);
    if (holding) held.push(answer);
    else answer();
  });
  guard.attach(server, (socket, t) => tracked.set(socket, t));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    guard,
    port: (server.address() as AddressInfo).port,
    peak: () => peak,
    release: () => {
      holding = false;
      for (const answer of held) answer();
      held = [];
    },
    close: async () => {
      guard.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One GET on a fresh connection (no keep-alive agent); the body, or the error's code. */
function get(port: number, path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
      res.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code}`));
    req.end();
  });
}

/** A socket that connects and never sends a byte; resolves once connected (or closed). */
function silent(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
  });
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('ConnectionGuard', () => {
  it('a burst of 200 requests on fresh connections against a cap of 10: every one is answered, never more than 10 open', async () => {
    const h = await harness({ maxConnections: 10, idleTimeoutMs: 60_000, maxWaiting: 200 });
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => get(h.port, `/r${i}`)));
      expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => `/r${i}`));
      expect(h.peak()).toBeLessThanOrEqual(10);
      expect(h.guard.stats()).toMatchObject({ refused: 0, waiting: 0 });
    } finally {
      await h.close();
    }
  });

  it('sockets that connect and stay silent are evicted after the grace for a client that sends a request', async () => {
    const h = await harness({ maxConnections: 5, idleTimeoutMs: 60_000, graceMs: 50 });
    const idle = await Promise.all(Array.from({ length: 5 }, () => silent(h.port)));
    try {
      await until(() => h.guard.size === 5);
      expect(await get(h.port, '/fresh')).toBe('/fresh');
      expect(h.guard.stats().evicted).toBeGreaterThanOrEqual(1);
      expect(h.guard.stats().refused).toBe(0);
    } finally {
      for (const socket of idle) socket.destroy();
      await h.close();
    }
  });

  it('a waiting socket is admitted when a busy connection finishes', async () => {
    const h = await harness({ maxConnections: 1, idleTimeoutMs: 60_000 }, true);
    try {
      const first = get(h.port, '/first');
      await until(() => h.guard.size === 1);
      const second = get(h.port, '/second');
      await until(() => h.guard.stats().waiting === 1);
      h.release();
      expect(await Promise.all([first, second])).toEqual(['/first', '/second']);
      expect(h.guard.stats()).toMatchObject({ refused: 0, waiting: 0 });
    } finally {
      await h.close();
    }
  });

  it('closes the longest-waiting socket when the wait queue is full, and one that waited past its timeout', async () => {
    const h = await harness({ maxConnections: 1, idleTimeoutMs: 60_000, maxWaiting: 1, waitTimeoutMs: 300 }, true);
    try {
      const first = get(h.port, '/busy');
      await until(() => h.guard.size === 1);
      const early = get(h.port, '/early');
      await until(() => h.guard.stats().waiting === 1);
      // The queue holds one: the socket waiting longest gives way to the newcomer.
      const late = get(h.port, '/late');
      expect(await early).toMatch(/^error (ECONNRESET|EPIPE)$/);
      expect(h.guard.stats()).toMatchObject({ refused: 1, waiting: 1 });
      // The newcomer gives up after 300 ms (the busy connection never finishes in time).
      expect(await late).toMatch(/^error (ECONNRESET|EPIPE)$/);
      expect(h.guard.stats()).toMatchObject({ refused: 2, waiting: 0 });
      h.release();
      expect(await first).toBe('/busy');
    } finally {
      await h.close();
    }
  });

  it('the default wait queue is an eighth of the cap (1–128), and the descriptor plan reserves it', () => {
    expect([waitQueueFor(0), waitQueueFor(5), waitQueueFor(80), waitQueueFor(900), waitQueueFor(5000)]).toEqual([0, 1, 10, 112, 128]);
    // 4,096 descriptors: 512 for LevelDB, 128 headroom, 50 peers → 3,406 for clients. Two caps of
    // 1,000 and their queues (125 each) fit; two of 1,600 (+128 each) do not and are scaled down.
    expect(planDescriptors(4096, { rpc: 1000, api: 1000 }, 50).caps).toEqual({ rpc: 1000, api: 1000 });
    const plan = planDescriptors(4096, { rpc: 1600, api: 1600 }, 50);
    const used = Object.values(plan.caps).reduce((sum, cap) => sum + cap + waitQueueFor(cap), 0);
    expect(used).toBeLessThanOrEqual(3406);
    expect(plan.caps.rpc).toBeLessThan(1600);
    expect(plan.warnings).toHaveLength(1);
  });
});
