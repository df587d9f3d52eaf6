import { describe, expect, it } from '@jest/globals';
import type { RequestCheckTx, ResponseCheckTx } from '../../../src/node/abci/types.js';
import { Mempool } from '../../../src/node/consensus/mempool/mempool.js';
import { txHash } from '../../../src/node/consensus/types/block.js';
import { isConsensusError } from '../../../src/node/consensus/errors.js';
import { MempoolStore } from '../../../src/node/consensus/mempool/store.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { FaultyDatabase } from '../../helpers/faultyDb.js';

const enc = new TextEncoder();
const tx = (s: string): Uint8Array => enc.encode(s);

/** An app whose CheckTx accepts txs not in `invalid`, with gas = tx length. */
function app(invalid = new Set<string>()): { checkTx(req: RequestCheckTx): Promise<ResponseCheckTx>; log: string[] } {
  const log: string[] = [];
  return {
    log,
    async checkTx(req) {
      const text = new TextDecoder().decode(req.tx);
      log.push(`${req.type}:${text}`);
      const ok = !invalid.has(text);
      return { code: ok ? 0 : 5, data: new Uint8Array(0), log: ok ? '' : 'bad', info: '', gasWanted: BigInt(req.tx.length), gasUsed: 0n, events: [], codespace: '' };
    },
  };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(isConsensusError(err)).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('mempool', () => {
  it('starts the app\'s precheck of every new tx before queueing it for CheckTx, all of them at once; duplicates are not prechecked', async () => {
    const base = app();
    const events: string[] = [];
    let releasePrechecks: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (releasePrechecks = resolve));
    const pool = new Mempool({
      checkTx: async (req) => {
        events.push(`check:${new TextDecoder().decode(req.tx)}`);
        return base.checkTx(req);
      },
      precheckTx: async (bytes) => {
        events.push(`precheck:${new TextDecoder().decode(bytes)}`);
        await gate;
      },
    });
    const both = Promise.all([pool.checkTx(tx('a=1')), pool.checkTx(tx('b=2'))]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['precheck:a=1', 'precheck:b=2']);
    releasePrechecks();
    await both;
    expect(events).toEqual(['precheck:a=1', 'precheck:b=2', 'check:a=1', 'check:b=2']);
    expect(await refusal(pool.checkTx(tx('a=1')))).toBe('tx already exists in cache');
    expect(events).toHaveLength(4);
  });

  it('a burst of txs ready at once is checked in slices: the event loop gets a turn before the burst ends, and the order is kept', async () => {
    const checked: string[] = [];
    const pool = new Mempool({
      checkTx: async (req) => {
        // About 1 ms of synchronous CheckTx each; the promise is already resolved when returned.
        const until = performance.now() + 1;
        while (performance.now() < until);
        checked.push(new TextDecoder().decode(req.tx));
        return app().checkTx(req);
      },
    });
    const names = Array.from({ length: 30 }, (_, i) => `burst-${i}`);
    let checkedAtTurn = -1;
    setImmediate(() => (checkedAtTurn = checked.length));
    await Promise.all(names.map((name) => pool.checkTx(tx(name))));
    // Unsliced, all 30 ran as one chain of microtasks before the immediate (about 30 ms).
    expect(checkedAtTurn).toBeGreaterThan(0);
    expect(checkedAtTurn).toBeLessThan(names.length);
    expect(checked).toEqual(names);
    expect(pool.reapMaxTxs(-1).map((t) => new TextDecoder().decode(t))).toEqual(names);
  });

  it('refuses with CometBFT wording: duplicate, too large, full', async () => {
    const pool = new Mempool(app(), { size: 2, maxTxBytes: 10, maxTxsBytes: 1000 });
    await pool.checkTx(tx('a=1'));
    expect(await refusal(pool.checkTx(tx('a=1')))).toBe('tx already exists in cache');
    expect(await refusal(pool.checkTx(tx('0123456789x')))).toBe('Tx too large. Max size is 10, but got 11');
    await pool.checkTx(tx('b=2'));
    expect(await refusal(pool.checkTx(tx('c=3')))).toBe('mempool is full: number of txs 2 (max: 2), total txs bytes 6 (max: 1000)');
    const bytesFull = new Mempool(app(), { maxTxsBytes: 5 });
    await bytesFull.checkTx(tx('abc'));
    expect(await refusal(bytesFull.checkTx(tx('def')))).toBe('mempool is full: number of txs 1 (max: 5000), total txs bytes 3 (max: 5)');
  });

  it('keeps FIFO order and reaps within max bytes and max gas', async () => {
    const pool = new Mempool(app());
    for (const t of ['s1-a', 's2-a', 's1-b', 's1-c', 's2-b']) await pool.checkTx(tx(t));
    expect(pool.reapMaxTxs(-1).map((t) => new TextDecoder().decode(t))).toEqual(['s1-a', 's2-a', 's1-b', 's1-c', 's2-b']);
    // Each 4-byte tx costs 6 bytes of Data encoding (tag + length + bytes).
    expect(pool.reapMaxBytesMaxGas(13, -1n)).toHaveLength(2);
    expect(pool.reapMaxBytesMaxGas(-1, 12n)).toHaveLength(3);
    expect(pool.reapMaxBytesMaxGas(-1, -1n)).toHaveLength(5);
    expect(pool.reapMaxTxs(2)).toHaveLength(2);
    expect(pool.sizeBytes()).toBe(20);
  });

  it('a tx failing CheckTx is not added and not cached', async () => {
    const a = app(new Set(['bad']));
    const pool = new Mempool(a);
    expect((await pool.checkTx(tx('bad'))).code).toBe(5);
    expect(pool.size()).toBe(0);
    expect((await pool.checkTx(tx('bad'))).code).toBe(5); // checked again, not "already exists"
  });

  it('update removes committed txs and rechecks the rest against the new state', async () => {
    const invalid = new Set<string>();
    const a = app(invalid);
    const pool = new Mempool(a);
    let notified = 0;
    pool.onTxsAvailable(() => notified++);
    for (const t of ['x', 'y', 'z']) await pool.checkTx(tx(t));
    expect(notified).toBe(1); // once per height
    invalid.add('z'); // the committed block made z invalid
    const release = await pool.acquire();
    await pool.update(1, [tx('x')], [{ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' }]);
    release();
    expect(pool.reapMaxTxs(-1).map((t) => new TextDecoder().decode(t))).toEqual(['y']);
    expect(a.log).toEqual(['new:x', 'new:y', 'new:z', 'recheck:y', 'recheck:z']);
    expect(notified).toBe(2); // txs still available at the new height
    expect(pool.has(txHash(tx('y')))).toBe(true);
    // Committed txs stay in the cache: resubmitting is refused.
    expect(await refusal(pool.checkTx(tx('x')))).toBe('tx already exists in cache');
  });

  it('CheckTx waits while the engine holds the lock for Commit', async () => {
    const pool = new Mempool(app());
    const release = await pool.acquire();
    let done = false;
    const pending = pool.checkTx(tx('later')).then(() => (done = true));
    // Run every queued task: CheckTx still cannot finish while the lock is held.
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    release();
    await pending;
    expect(done).toBe(true);
  });

  it('the cache forgets the oldest entries beyond cache_size', async () => {
    const pool = new Mempool(app(), { cacheSize: 2 });
    for (const t of ['1', '2', '3']) await pool.checkTx(tx(t));
    const release = await pool.acquire();
    await pool.update(1, [tx('1'), tx('2'), tx('3')], [0, 0, 0].map(() => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' })));
    release();
    expect((await pool.checkTx(tx('1'))).code).toBe(0); // evicted from the 2-entry cache
    expect(await refusal(pool.checkTx(tx('3')))).toBe('tx already exists in cache');
  });
});

describe('durable mempool', () => {
  it('keeps accepted txs across a restart: re-checked in order, evicted with the reason, forgotten once committed', async () => {
    const db = memoryDatabase();
    const invalid = new Set<string>();
    const first = new Mempool(app(invalid), {}, undefined, new MempoolStore(db));
    for (const t of ['a=1', 'b=2', 'c=3', 'd=4']) expect((await first.checkTx(tx(t))).code).toBe(0);
    // b=2 is committed in a block: it is forgotten.
    const release = await first.acquire();
    await first.update(1, [tx('b=2')], [{ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' }]);
    release();
    await new Promise((r) => setImmediate(r));
    // The process dies (nothing closed); c=3 is no longer valid when the node starts again.
    invalid.add('c=3');
    const checks = app(invalid);
    const second = new Mempool(checks, {}, undefined, new MempoolStore(db));
    second.setHeight(1);
    expect(await second.restore()).toEqual({ restored: 2, evicted: 1 });
    expect(checks.log).toEqual(['new:a=1', 'new:c=3', 'new:d=4']);
    expect(second.reapMaxTxs(-1).map((t) => new TextDecoder().decode(t))).toEqual(['a=1', 'd=4']);
    expect(second.evictionOf(txHash(tx('c=3')))).toMatchObject({ height: 1, reason: 're-check at start failed: code 5: bad' });
    expect(second.evictionOf(txHash(tx('a=1')))).toBeUndefined();
    // Restored txs are in the cache again: a resend is a duplicate, not a second entry.
    expect(await refusal(second.checkTx(tx('a=1')))).toBe('tx already exists in cache');
    // A tx evicted by the re-check after a block is reported too.
    invalid.add('d=4');
    const r2 = await second.acquire();
    await second.update(2, [tx('a=1')], [{ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' }]);
    r2();
    await new Promise((r) => setImmediate(r));
    expect(second.evictionOf(txHash(tx('d=4')))?.reason).toBe('re-check after block 2 failed: code 5: bad');
    const third = new Mempool(app(), {}, undefined, new MempoolStore(db));
    expect(await third.restore()).toEqual({ restored: 0, evicted: 0 });
  });

  it('answers code 0 only once the tx is stored: a failed write refuses the tx', async () => {
    const db = new FaultyDatabase(memoryDatabase());
    const pool = new Mempool(app(), {}, undefined, new MempoolStore(db));
    db.fail('ENOSPC');
    await expect(pool.checkTx(tx('a=1'))).rejects.toThrow(/ENOSPC/);
    expect(pool.size()).toBe(0);
    db.heal();
    expect((await pool.checkTx(tx('a=1'))).code).toBe(0);
  });
});
