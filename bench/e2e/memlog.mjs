/**
 * Memory log of a node under the end-to-end bench (issue 15, bounded memory): preloaded into the
 * node with `node --import <this file>` when E2E_MEMLOG is set (bench/e2e/e2e.bench.ts does it),
 * so nothing of it is in the node itself.
 *
 *   TOKEND_MEMLOG=<file.jsonl>   one JSON line per second: process.memoryUsage() (rss, heapTotal,
 *                                heapUsed, external, arrayBuffers), V8's heap spaces (used/size)
 *                                and /proc/self/smaps_rollup (Rss split into anonymous and
 *                                file-backed: LevelDB reads its table files through mmap), the
 *                                process's CPU time and the main thread's GC pauses so far
 *   SIGUSR2                      one line tagged "mark": the same figures (and a copy of
 *                                /proc/self/smaps as smaps-<n>.txt beside the log), then again after a
 *                                full GC when the node runs with --expose-gc (what is retained vs
 *                                garbage not yet collected); with TOKEND_MEMLOG_SNAPSHOTS=<dir>
 *                                also a heap snapshot there (bench/e2e/heapsummary.mjs reads it)
 *   TOKEND_MEMLOG_ALLOCPROF=1    V8's sampling heap profiler from the first mark to the second,
 *                                counting objects the GC has already collected too, so the profile
 *                                is what was allocated (by function), not what is still live:
 *                                alloc-<n>.heapprofile beside the log (bench/e2e/allocsummary.mjs);
 *                                =promoted: only objects that outlived the young generation (live
 *                                at the end or collected by a full GC, not by a scavenge)
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';
import v8 from 'node:v8';

const file = process.env.TOKEND_MEMLOG;
const snapshots = process.env.TOKEND_MEMLOG_SNAPSHOTS;

function smaps() {
  const out = {};
  try {
    for (const line of readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n')) {
      const match = /^(Rss|Anonymous|Pss_Anon|Pss_File|Private_Dirty|Shared_Clean|Private_Clean):\s+(\d+) kB/.exec(line);
      if (match) out[match[1]] = Math.round(Number(match[2]) / 1024);
    }
    out.threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  } catch {
    // not Linux
  }
  return out;
}

// GC pauses on the main thread (what the load pays for a smaller heap), summed since start.
let gcMs = 0;
let gcs = 0;

function figures() {
  const mib = (n) => Math.round(n / 1048576);
  const usage = process.memoryUsage();
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics()) spaces[space.space_name] = [mib(space.space_used_size), mib(space.space_size)];
  return {
    rss: mib(usage.rss),
    heapTotal: mib(usage.heapTotal),
    heapUsed: mib(usage.heapUsed),
    external: mib(usage.external),
    arrayBuffers: mib(usage.arrayBuffers),
    smaps: smaps(),
    spaces,
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    gcMs: Math.round(gcMs),
    gcs,
  };
}

// The sampling heap profiler, started at the first mark and written at the second.
let profiler;
function allocationProfile(path) {
  if (profiler === undefined) {
    profiler = new Session();
    profiler.connect();
    profiler.post('HeapProfiler.enable');
    profiler.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.TOKEND_MEMLOG_ALLOCPROF !== 'promoted' });
  } else if (profiler !== null) {
    profiler.post('HeapProfiler.stopSampling', (err, result) => {
      if (!err) writeFileSync(path, JSON.stringify(result.profile));
      profiler.disconnect();
      profiler = null;
    });
  }
}

if (file) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcs++;
    }
  }).observe({ entryTypes: ['gc'] });
  const started = Date.now();
  const write = (tag, extra = {}) => appendFileSync(file, `${JSON.stringify({ t: (Date.now() - started) / 1000, tag, ...figures(), ...extra })}\n`);
  setInterval(() => write('tick'), 1000).unref();
  let marks = 0;
  process.on('SIGUSR2', () => {
    marks++;
    write('mark', { mark: marks });
    try {
      writeFileSync(join(dirname(file), `smaps-${marks}.txt`), readFileSync('/proc/self/smaps'));
    } catch {
      // not Linux
    }
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      write('mark-after-gc', { mark: marks });
    }
    if (process.env.TOKEND_MEMLOG_ALLOCPROF) allocationProfile(join(dirname(file), `alloc-${marks}.heapprofile`));
    if (snapshots) write('snapshot', { mark: marks, path: v8.writeHeapSnapshot(join(snapshots, `node-${marks}.heapsnapshot`)) });
  });
}
