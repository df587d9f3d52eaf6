/** The front hosts (threads/frontHost.ts): the threads the servers' fronts share. */
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import { FrontHosts, frontHostCount, frontHosts, type FrontSlot } from '../../../src/node/threads/frontHost.js';
import { STATS_SLOTS, type FrontMessage } from '../../../src/node/threads/frontThread.js';
import type { RestAnswer, RestRequest } from '../../../src/node/api/front.js';
import { removeHomes, startFast } from '../faults/helpers.js';

const opened: FrontSlot[] = [];
afterEach(() => {
  for (const slot of opened.splice(0)) slot.close();
});

/** A REST front on a free loopback port whose backend (this test) answers every request with `says`. */
function openRest(pool: FrontHosts, says: string): { slot: FrontSlot; url: Promise<string> } {
  const shared = new SharedArrayBuffer(8 + 4 * STATS_SLOTS);
  new BigInt64Array(shared, 0, 1)[0] = 5n;
  const slot = pool.open('rest', { options: { host: '127.0.0.1', port: 0 }, shared });
  opened.push(slot);
  const url = new Promise<string>((resolve, reject) => {
    slot.on('message', (message: FrontMessage<RestRequest>) => {
      if (message.t === 'listening') resolve(message.address.url);
      if (message.t === 'failed') reject(new Error(message.message));
      if (message.t === 'ask') slot.postMessage({ t: 'answer', id: message.id, answer: { status: 200, body: JSON.stringify({ says, url: message.request.url }) } satisfies RestAnswer });
    });
  });
  return { slot, url };
}

const ended = (slot: FrontSlot): Promise<number> => new Promise((resolve) => slot.once('exit', resolve));

describe('front hosts', () => {
  test('up to the pool size a front gets a host of its own, then fronts share; a host ends with its last front', async () => {
    const one = new FrontHosts(1);
    const a = openRest(one, 'a');
    const b = openRest(one, 'b');
    expect(a.slot.host).toBe(b.slot.host);
    expect(one.count).toBe(1);
    // Both serve from the one thread, each with its own backend.
    expect(await (await fetch(`${await a.url}/x`)).json()).toEqual({ says: 'a', url: '/x' });
    expect(await (await fetch(`${await b.url}/y`)).json()).toEqual({ says: 'b', url: '/y' });
    a.slot.close();
    expect(one.count).toBe(1);
    expect(await (await fetch(`${await b.url}/z`)).json()).toEqual({ says: 'b', url: '/z' });
    const hostEnded = new Promise((resolve) => b.slot.host.worker.once('exit', resolve));
    b.slot.close();
    expect(one.count).toBe(0);
    await hostEnded;

    const two = new FrontHosts(2);
    const c = openRest(two, 'c');
    const d = openRest(two, 'd');
    const e = openRest(two, 'e');
    expect(c.slot.host).not.toBe(d.slot.host);
    expect([c.slot.host, d.slot.host]).toContain(e.slot.host);
    expect(two.count).toBe(2);
    await Promise.all([c.url, d.url, e.url]);
  });

  test('a prewarmed host takes the first front; settle ends one that no front came to', async () => {
    const pool = new FrontHosts(1);
    pool.prewarm();
    expect(pool.count).toBe(1);
    const a = openRest(pool, 'a');
    expect(pool.count).toBe(1);
    pool.settle();
    expect(pool.count).toBe(1);
    expect(await (await fetch(`${await a.url}/`)).json()).toEqual({ says: 'a', url: '/' });
    a.slot.close();
    expect(pool.count).toBe(0);

    const unused = new FrontHosts(1);
    unused.prewarm();
    expect(unused.count).toBe(1);
    unused.settle();
    expect(unused.count).toBe(0);
  });

  test('a host that ends by itself takes its fronts with it: each slot reports the end', async () => {
    const pool = new FrontHosts(1);
    const a = openRest(pool, 'a');
    const b = openRest(pool, 'b');
    const url = await a.url;
    await b.url;
    const ends = [ended(a.slot), ended(b.slot)];
    await a.slot.host.worker.terminate();
    expect(await Promise.all(ends)).toEqual([1, 1]);
    expect(pool.count).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
    // The next front gets a new host.
    const c = openRest(pool, 'c');
    expect(c.slot.host).not.toBe(a.slot.host);
    expect(await (await fetch(`${await c.url}/`)).json()).toEqual({ says: 'c', url: '/' });
  });

  test('the pool size follows the cores beside the main thread, one to four', () => {
    expect(frontHostCount()).toBeGreaterThanOrEqual(1);
    expect(frontHostCount()).toBeLessThanOrEqual(4);
  });
});

describe('a node and the front hosts', () => {
  const homes: string[] = [];
  afterAll(() => removeHomes(homes));

  test('with every server on a thread the fronts share the hosts of the process; with none, a prewarmed host ends once the servers are up', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tokend-fronthosts-'));
    homes.push(home);
    await ensureDevnet(home);
    frontHosts.prewarm();
    const threaded = await startFast(home);
    try {
      // REST, gRPC, the Ethereum JSON-RPC and the CometBFT RPC: as many hosts as the pool allows, at most one per front.
      expect(frontHosts.count).toBe(Math.min(frontHosts.size, 4));
      expect(await (await fetch(`${threaded.apiAddress!.url}/cosmos/base/tendermint/v1beta1/node_info`)).status).toBe(200);
    } finally {
      await threaded.stop();
    }
    expect(frontHosts.count).toBe(0);

    frontHosts.prewarm();
    expect(frontHosts.count).toBe(1);
    const plain = await startFast(home, {
      nodeConfig: (c) => void (c.rpc.httpThread = false),
      appConfig: (c) => {
        c.api.httpThread = false;
        c.grpc.httpThread = false;
        c.jsonRpc.httpThread = false;
      },
    });
    try {
      expect(frontHosts.count).toBe(0);
      expect(await (await fetch(`${plain.apiAddress!.url}/cosmos/base/tendermint/v1beta1/node_info`)).status).toBe(200);
    } finally {
      await plain.stop();
    }
  });
});
