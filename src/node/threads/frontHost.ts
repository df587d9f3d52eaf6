/**
 * The worker threads the servers' fronts run in (threads/hostWorker.ts), and the slots a
 * FrontThread gets in them. A host runs several fronts, so Node's HTTP machinery and the fronts'
 * code are loaded once rather than once a server; the process keeps at most `frontHostCount()`
 * hosts (one on a machine of one or two cores, where one thread serves every front as fast as
 * several: they would share the one core the main thread leaves) and puts a front in a host of its
 * own while it has fewer.
 *
 * `tokend start` starts the first host before it loads the node (prewarmFrontHost), so the host's
 * loading overlaps the main thread's. A host whose last slot closes ends. A host that ends by
 * itself (a bug in a front) takes its fronts with it: each slot reports the end, and each
 * FrontThread starts its front again in a new host.
 *
 * This file imports nothing of the node, so the prewarm costs the start command nothing to load.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/** The fronts a host can run. */
export type FrontKind = 'rest' | 'eth' | 'rpc' | 'grpc';

/** What a host is sent (main → host): a front to run over `port`. */
export interface HostMessage {
  t: 'open';
  kind: FrontKind;
  data: FrontWorkerData<unknown>;
  port: MessagePort;
}

/** What a front in a host is given. */
export interface FrontWorkerData<Options> {
  options: Options;
  /** 8 bytes of state height (BigInt64), then the stats slots (Int32). */
  shared: SharedArrayBuffer;
}

/** Hosts a process keeps at most: the cores beside the main thread's, from one to four (one per server). */
export function frontHostCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * One front's place in a host: its message port, seen the way FrontThread saw a worker of its own.
 * Events: 'message' (what the front posts), 'error' (the host failed), 'exit' (the slot ended:
 * closed here, or its host ended).
 */
export class FrontSlot extends EventEmitter {
  private ended = false;

  constructor(
    readonly host: FrontHost,
    private readonly port: MessagePort,
  ) {
    super();
    port.on('message', (message: unknown) => this.emit('message', message));
  }

  postMessage(message: unknown): void {
    if (!this.ended) this.port.postMessage(message);
  }

  /** Ends the slot: the port closes, and the front, if still running, is stopped in its host. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.port.close();
    this.host.closed(this);
    this.emit('exit', 0);
  }

  /** The host ended (code) with the slot still open. */
  hostEnded(code: number, err: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.port.close();
    if (err !== undefined && this.listenerCount('error') > 0) this.emit('error', err);
    this.emit('exit', code);
  }
}

/** A worker thread running fronts. */
export class FrontHost {
  readonly worker: Worker;
  private readonly slots = new Set<FrontSlot>();
  /** Kept while nothing runs in it yet (a prewarmed host). */
  private held = false;
  private ended = false;
  private failure: Error | undefined;

  constructor(private readonly onEnd: (host: FrontHost) => void) {
    this.worker = spawnHost();
    // The fronts' ports keep the process alive while they are open; an idle host never does.
    this.worker.unref();
    this.worker.on('error', (err) => (this.failure = err));
    this.worker.once('exit', (code) => {
      this.ended = true;
      this.onEnd(this);
      for (const slot of [...this.slots]) slot.hostEnded(code, this.failure);
      this.slots.clear();
    });
  }

  /** Fronts running here. */
  get load(): number {
    return this.slots.size;
  }

  open(kind: FrontKind, data: FrontWorkerData<unknown>): FrontSlot {
    const { port1, port2 } = new MessageChannel();
    const slot = new FrontSlot(this, port1);
    this.slots.add(slot);
    this.held = false;
    this.worker.postMessage({ t: 'open', kind, data, port: port2 } satisfies HostMessage, [port2]);
    return slot;
  }

  hold(): void {
    this.held = true;
  }

  /** Ends the host if it holds no front (and is not held for one). */
  release(): void {
    this.held = false;
    if (this.slots.size === 0) this.end();
  }

  /** Called by a slot that closed. */
  closed(slot: FrontSlot): void {
    this.slots.delete(slot);
    if (this.slots.size === 0 && !this.held) this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    void this.worker.terminate();
  }
}

/** The process's hosts. */
export class FrontHosts {
  private readonly hosts: FrontHost[] = [];

  constructor(readonly size: number) {}

  /** A slot for a front: in an empty host if there is one or another may be started, else in the least loaded. */
  open(kind: FrontKind, data: FrontWorkerData<unknown>): FrontSlot {
    let host = this.hosts.reduce<FrontHost | undefined>((best, h) => (best === undefined || h.load < best.load ? h : best), undefined);
    if (host === undefined || (host.load > 0 && this.hosts.length < this.size)) host = this.spawn();
    return host.open(kind, data);
  }

  /** Starts a host now, kept until a front opens in it or `settle()`. */
  prewarm(): void {
    (this.hosts[0] ?? this.spawn()).hold();
  }

  /** Ends the hosts no front came to (every server is started, or the start failed). */
  settle(): void {
    for (const host of [...this.hosts]) host.release();
  }

  /** Live hosts (for tests and figures). */
  get count(): number {
    return this.hosts.length;
  }

  private spawn(): FrontHost {
    const host = new FrontHost((ended) => {
      const at = this.hosts.indexOf(ended);
      if (at >= 0) this.hosts.splice(at, 1);
    });
    this.hosts.push(host);
    return host;
  }
}

/** The hosts every FrontThread of this process uses. */
export const frontHosts = new FrontHosts(frontHostCount());

/** `tokend start`: the first host starts loading while the main thread loads the node. */
export function prewarmFrontHost(): void {
  frontHosts.prewarm();
}

/** The host module bundled from the TypeScript sources (once per process). */
let bundledFromSources: string | undefined;

/**
 * The worker running threads/hostWorker: from the built tree (dist/bundle or dist/node, one copy
 * of the file under dist/node either way); from the TypeScript sources (the tests, under tsx) as
 * one CommonJS script esbuild (a dev dependency) bundles from them: starting a worker through
 * tsx's loader costs ~0.3 s a start, the bundle a few milliseconds once it is built.
 */
function spawnHost(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    if (bundledFromSources === undefined) {
      const esbuild = createRequire(here)('esbuild') as typeof import('esbuild');
      const entry = fileURLToPath(new URL('./hostWorker.ts', here));
      const built = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent', packages: 'external' });
      bundledFromSources = built.outputFiles[0]!.text;
    }
    return new Worker(bundledFromSources, { eval: true });
  }
  const at = here.lastIndexOf('/dist/');
  const file = at >= 0 ? new URL(`${here.slice(0, at)}/dist/node/threads/hostWorker.js`) : new URL('./hostWorker.js', here);
  return new Worker(file);
}
