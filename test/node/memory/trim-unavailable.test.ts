/**
 * Where koffi cannot reach glibc's malloc_trim (not glibc, or koffi not installed or failing to load
 * libc), the releaser still collects, reports the trim as unavailable, and nothing throws.
 */
import { jest } from '@jest/globals';

jest.unstable_mockModule('koffi', () => ({
  load: () => {
    throw new Error('libc.so.6: cannot open shared object file');
  },
}));

const { MemoryReleaser, processReleaseOps } = await import('../../../src/node/memory/release.js');

const MiB = 1024 * 1024;

describe('malloc_trim unavailable', () => {
  test('the real operations answer undefined for the trim instead of throwing', async () => {
    await expect(processReleaseOps().trim()).resolves.toBeUndefined();
  });

  test('a release after a load still collects, and its report and log say the trim was unavailable', async () => {
    const real = processReleaseOps();
    const state = { rss: 200 * MiB, heap: 100 * MiB, now: 0, gcs: 0 };
    const logged: Record<string, unknown>[] = [];
    const logger = { info: (_msg: string, fields: Record<string, unknown>) => logged.push(fields) } as never;
    const load = { txs: 0, pending: 0 };
    const releaser = new MemoryReleaser({ idleSeconds: 10 }, { txs: () => load.txs, pending: () => load.pending }, logger, {
      rss: () => state.rss,
      heapTotal: () => state.heap,
      gc: () => {
        state.gcs++;
        const heap = Math.max(60 * MiB, state.heap / 2);
        state.rss -= state.heap - heap;
        state.heap = heap;
      },
      trim: real.trim,
      now: () => state.now,
      pause: async (ms) => {
        state.now += ms;
      },
    });
    load.txs = 1;
    await releaser.tick();
    Object.assign(state, { rss: 600 * MiB, heap: 400 * MiB, now: 15_000 });
    const report = await releaser.tick();
    expect(report?.trimmed).toBeUndefined();
    expect(state.gcs).toBeGreaterThan(0);
    expect(report!.rssAfter).toBeLessThan(report!.rssBefore);
    expect(logged.at(-1)?.['malloc_trim']).toBe('unavailable');
  });
});
