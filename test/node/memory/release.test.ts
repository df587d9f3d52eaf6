import { MemoryReleaser, processReleaseOps, type ReleaseOps } from '../../../src/node/memory/release.js';

const MiB = 1024 * 1024;

/** A process whose heap shrinks by half on each forced collection, down to `live`. */
function fakeProcess(start: { rss: number; heap: number; live: number }) {
  const state = { ...start, now: 0, gcs: 0, trims: 0, paused: [] as number[], onPause: undefined as (() => void) | undefined };
  const ops: ReleaseOps = {
    rss: () => state.rss,
    heapTotal: () => state.heap,
    gc: () => {
      state.gcs++;
      const heap = Math.max(state.live, state.heap / 2);
      state.rss -= state.heap - heap;
      state.heap = heap;
    },
    trim: async () => {
      state.trims++;
      state.rss -= 10 * MiB;
      return true;
    },
    now: () => state.now,
    pause: async (ms) => {
      state.now += ms;
      state.paused.push(ms);
      if (state.onPause) state.onPause();
    },
  };
  return { state, ops };
}

/**
 * A releaser that saw a tx, over a process that then grew to 600 MiB RSS and a 400 MiB heap, with
 * its quiet spell over: the next tick() releases.
 */
async function afterALoad(overrides: Partial<ReleaseOps> = {}) {
  const { state, ops } = fakeProcess({ rss: 200 * MiB, heap: 100 * MiB, live: 60 * MiB });
  const load = { txs: 0, pending: 0 };
  const releaser = new MemoryReleaser({ idleSeconds: 10 }, { txs: () => load.txs, pending: () => load.pending }, undefined, { ...ops, ...overrides });
  load.txs = 1;
  await releaser.tick();
  state.rss = 600 * MiB;
  state.heap = 400 * MiB;
  state.now = 15_000;
  return { state, load, releaser };
}

describe('MemoryReleaser', () => {
  test('releases once a quiet spell follows transactions, until the heap stops shrinking, then trims', async () => {
    const { state, ops } = fakeProcess({ rss: 200 * MiB, heap: 100 * MiB, live: 60 * MiB });
    const load = { txs: 0, pending: 0 };
    const logged: unknown[] = [];
    const logger = { info: (_msg: string, fields: unknown) => logged.push(fields) } as never;
    const releaser = new MemoryReleaser({ idleSeconds: 10 }, { txs: () => load.txs, pending: () => load.pending }, logger, ops);

    // Idle from the start: never armed, nothing done however long it waits.
    state.now = 60_000;
    expect(await releaser.tick()).toBeUndefined();

    // A load: txs arrive, the process grows.
    load.txs = 5_000;
    load.pending = 300;
    state.now = 61_000;
    expect(await releaser.tick()).toBeUndefined();
    state.rss = 600 * MiB;
    state.heap = 400 * MiB;
    load.pending = 0;
    state.now = 65_000;
    expect(await releaser.tick()).toBeUndefined(); // pool drained, but not quiet long enough
    state.now = 70_000;
    expect(await releaser.tick()).toBeUndefined(); // 9 s since the last tx count moved (at 61 s)
    expect(state.gcs).toBe(0);

    state.now = 71_000;
    const report = await releaser.tick();
    expect(report).toBeDefined();
    // 400 → 200 → 100 → 60 → 60: the fourth collection shrank nothing, so it stopped there.
    expect(report!.collections).toBe(4);
    expect(state.heap).toBe(60 * MiB);
    expect(state.trims).toBe(1);
    expect(report!.rssBefore).toBe(600 * MiB);
    expect(report!.rssAfter).toBe((600 - 340 - 10) * MiB);
    expect(report!.trimmed).toBe(true);
    expect(state.paused).toEqual([1000, 1000, 1000]); // a second between collections
    expect(logged).toHaveLength(1);

    // Once per quiet spell: no second release while it stays quiet.
    state.now = 200_000;
    expect(await releaser.tick()).toBeUndefined();
    expect(state.gcs).toBe(4);
  });

  test('transactions arriving during a release stop its collections', async () => {
    const { state, load, releaser } = await afterALoad();
    state.onPause = () => (load.txs = 2);
    const report = await releaser.tick();
    expect(report!.collections).toBe(1);
    expect(state.heap).toBe(200 * MiB);
    expect(state.trims).toBe(1);
  });

  test('stop() during a release ends it after the current collection, without a trim', async () => {
    const { state, releaser } = await afterALoad();
    let stopping: Promise<void> | undefined;
    state.onPause = () => {
      stopping ??= releaser.stop();
    };
    const report = await releaser.tick();
    await stopping;
    expect(report!.collections).toBe(1);
    expect(state.trims).toBe(0);
  });

  test('stop() does not wait out the pause between collections', async () => {
    const never = new Promise<void>(() => undefined);
    const { releaser } = await afterALoad({ pause: () => never });
    const releasing = releaser.tick();
    await releaser.stop();
    expect((await releasing)!.collections).toBe(1);
  });

  test('pending txs keep it from releasing', async () => {
    const { state, ops } = fakeProcess({ rss: 200 * MiB, heap: 100 * MiB, live: 60 * MiB });
    const load = { txs: 1, pending: 10 };
    const releaser = new MemoryReleaser({ idleSeconds: 10 }, { txs: () => load.txs, pending: () => load.pending }, undefined, ops);
    state.rss = 500 * MiB;
    for (let t = 0; t <= 60_000; t += 2000) {
      state.now = t;
      await releaser.tick();
    }
    expect(state.gcs).toBe(0);
  });

  test('a process that has not grown since the last release is left alone', async () => {
    const { state, ops } = fakeProcess({ rss: 200 * MiB, heap: 100 * MiB, live: 60 * MiB });
    const load = { txs: 0, pending: 0 };
    const releaser = new MemoryReleaser({ idleSeconds: 5 }, { txs: () => load.txs, pending: () => load.pending }, undefined, ops);
    load.txs = 3;
    state.now = 1000;
    await releaser.tick();
    state.rss = 210 * MiB; // grew 5 %: under the 10 % the releaser waits for
    state.now = 10_000;
    expect(await releaser.tick()).toBeUndefined();
    expect(state.gcs).toBe(0);
  });

  test('0 seconds turns it off: start() sets no timer', async () => {
    const { ops } = fakeProcess({ rss: 200 * MiB, heap: 100 * MiB, live: 60 * MiB });
    const releaser = new MemoryReleaser({ idleSeconds: 0 }, { txs: () => 0, pending: () => 0 }, undefined, ops);
    releaser.start();
    expect((releaser as unknown as { timer: unknown }).timer).toBeUndefined();
    await releaser.stop();
  });

  test('the real operations: a forced collection frees garbage, and malloc_trim runs on glibc', async () => {
    const ops = processReleaseOps();
    let garbage: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` }));
    expect(garbage.length).toBe(200_000);
    const before = process.memoryUsage().heapUsed;
    garbage = undefined;
    ops.gc();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before);
    const trimmed = await ops.trim();
    if (process.platform === 'linux') expect(typeof trimmed).toBe('boolean');
  });
});
