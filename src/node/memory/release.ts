/**
 * Memory given back after a write load (issue 15, bounded memory).
 *
 * Under a sustained load V8 lets the old generation grow to about four times what is live, and
 * glibc's allocator keeps the pages V8's own structures and dead Buffers used. When the load stops
 * nothing makes either give them back: V8's memory reducer only starts after a full collection,
 * which an idle node may not need for minutes, and glibc returns the middle of its arenas only on
 * `malloc_trim`. So once the node has had no transactions for `idleSeconds` (none admitted to the
 * mempool, none pending, none in committed blocks) after having had some, the releaser runs full
 * collections until the heap stops shrinking and then `malloc_trim(0)` on the thread pool (through
 * koffi; skipped where glibc or koffi is missing). It runs once per quiet spell, and only when the
 * process has grown since the last release, so an idle node pays nothing.
 *
 * A full collection stops the main thread (tens of milliseconds for a ~100 MiB live heap); that
 * is why it waits for a quiet spell instead of running under load.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { Logger } from '../logger.js';

export interface MemoryReleaseOptions {
  /** Seconds without transactions before memory is released; 0 = never. */
  idleSeconds: number;
  /** Release only when RSS exceeds the RSS after the last release (or at start) by this factor. */
  minGrowth?: number;
  /** How often the load is sampled, ms (default: a fifth of idleSeconds, 1–5 s). */
  tickMs?: number;
  /** Time between two collections of one release, ms (default 1000). */
  gapMs?: number;
}

/** What the releaser watches: both counters only ever grow while the node runs. */
export interface LoadSignal {
  /** Transactions seen so far (admitted to the mempool, plus executed in committed blocks). */
  txs(): number;
  /** Transactions waiting in the mempool now. */
  pending(): number;
}

/** The process-level operations, injectable for tests. */
export interface ReleaseOps {
  rss(): number;
  heapTotal(): number;
  /** A full, forced garbage collection. */
  gc(): void;
  /** `malloc_trim(0)`, resolving to true when memory was returned; undefined when unavailable. */
  trim(): Promise<boolean | undefined>;
  now(): number;
  /** Waits `ms` (a timer that does not keep the process alive). */
  pause(ms: number): Promise<void>;
}

export interface ReleaseReport {
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
  collections: number;
  gcMs: number;
  trimmed: boolean | undefined;
}

const MiB = 1024 * 1024;

/** V8's `gc` function without `--expose-gc` on the command line (the flag only adds the extension). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let trimFn: Promise<((pad: number, cb: (err: unknown, res: number) => void) => void) | undefined> | undefined;

/** glibc's malloc_trim through koffi, called on the thread pool; undefined off glibc or without koffi. */
function mallocTrim(): Promise<((pad: number, cb: (err: unknown, res: number) => void) => void) | undefined> {
  trimFn ??= (async () => {
    if (process.platform !== 'linux') return undefined;
    try {
      const { load } = await import('koffi');
      const fn = load('libc.so.6').func('int malloc_trim(size_t pad)');
      return (pad: number, cb: (err: unknown, res: number) => void) => fn.async(pad, cb);
    } catch {
      return undefined;
    }
  })();
  return trimFn;
}

export function processReleaseOps(): ReleaseOps {
  let gc: (() => void) | undefined;
  return {
    rss: () => process.memoryUsage.rss(),
    heapTotal: () => process.memoryUsage().heapTotal,
    gc: () => (gc ??= exposeGc())(),
    trim: async () => {
      const fn = await mallocTrim();
      if (!fn) return undefined;
      return new Promise<boolean>((resolve) => fn(0, (err, res) => resolve(!err && res === 1)));
    },
    now: () => Date.now(),
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
  };
}

export class MemoryReleaser {
  private timer: NodeJS.Timeout | undefined;
  private lastTxs = 0;
  private lastActive = 0;
  private armed = false;
  private stopped = false;
  private wakeOnStop: (() => void) | undefined;
  private readonly stopSignal = new Promise<void>((resolve) => (this.wakeOnStop = resolve));
  private running: Promise<ReleaseReport | undefined> | undefined;
  private baseline: number;
  private readonly minGrowth: number;
  readonly tickMs: number;
  private readonly gapMs: number;

  constructor(
    private readonly options: MemoryReleaseOptions,
    private readonly load: LoadSignal,
    private readonly logger?: Logger,
    private readonly ops: ReleaseOps = processReleaseOps(),
  ) {
    this.minGrowth = options.minGrowth ?? 1.1;
    this.tickMs = options.tickMs ?? Math.min(5000, Math.max(1000, (options.idleSeconds * 1000) / 5));
    this.gapMs = options.gapMs ?? 1000;
    this.baseline = ops.rss();
    this.lastTxs = load.txs();
    this.lastActive = ops.now();
  }

  start(): void {
    if (this.options.idleSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  /** Stops sampling; a release in progress ends at once after its current collection (no trim). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeOnStop?.();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sample of the load; releases when a quiet spell has lasted idleSeconds. Returns the release's report. */
  tick(): Promise<ReleaseReport | undefined> {
    if (this.running) return this.running;
    const now = this.ops.now();
    const txs = this.load.txs();
    if (txs !== this.lastTxs || this.load.pending() > 0) {
      this.lastTxs = txs;
      this.lastActive = now;
      this.armed = true;
      return Promise.resolve(undefined);
    }
    if (!this.armed || now - this.lastActive < this.options.idleSeconds * 1000) return Promise.resolve(undefined);
    this.armed = false;
    if (this.ops.rss() <= this.baseline * this.minGrowth) return Promise.resolve(undefined);
    this.running = this.release().finally(() => (this.running = undefined));
    return this.running;
  }

  private async release(): Promise<ReleaseReport> {
    const rssBefore = this.ops.rss();
    const heapBefore = this.ops.heapTotal();
    let gcMs = 0;
    let collections = 0;
    // Each forced collection shrinks the heap's limits a step further; stop when it stops shrinking
    // or when transactions arrive again. The collections are a second apart, so a request that
    // arrives meanwhile meets one pause, not all of them.
    let heap = heapBefore;
    const txs = this.load.txs();
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      this.ops.gc();
      gcMs += performance.now() - t0;
      collections++;
      const after = this.ops.heapTotal();
      if (after > heap * 0.95) break;
      heap = after;
      await Promise.race([this.ops.pause(this.gapMs), this.stopSignal]);
      if (this.stopped || this.load.txs() !== txs || this.load.pending() > 0) break;
    }
    const trimmed = this.stopped ? undefined : await this.ops.trim();
    const report: ReleaseReport = { rssBefore, rssAfter: this.ops.rss(), heapBefore, heapAfter: this.ops.heapTotal(), collections, gcMs, trimmed };
    this.baseline = report.rssAfter;
    this.logger?.info('memory released after the load', {
      rss_mib: `${Math.round(rssBefore / MiB)} -> ${Math.round(report.rssAfter / MiB)}`,
      heap_mib: `${Math.round(heapBefore / MiB)} -> ${Math.round(report.heapAfter / MiB)}`,
      collections,
      gc_ms: Math.round(gcMs),
      malloc_trim: trimmed === undefined ? 'unavailable' : trimmed,
    });
    return report;
  }
}
