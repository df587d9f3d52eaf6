/**
 * A server's HTTP side on a thread beside the main one: the REST gateway's ([api] http-thread), the
 * Ethereum JSON-RPC's ([json-rpc] http-thread), the CometBFT RPC's ([rpc] http_thread) and gRPC's
 * ([grpc] http-thread). The front — connections, HTTP parsing, timeouts, the answers kept until the
 * next block — runs in a front host (threads/frontHost.ts, hostWorker.ts; one thread for all four
 * on a two-core machine) and sends each request it cannot answer itself here, where the backend
 * runs it against the app. A read answered from the kept answers then costs the main thread
 * nothing and never waits behind a block being executed or a burst of CheckTx.
 *
 * The app's state height is shared memory: the store's commit writes it (router.watchStateHeight)
 * before anything else can observe the new block, and the front reads it for every request, so a
 * kept answer is never served once the state it describes has been replaced — the same guarantee
 * as a front on the main thread, which reads the height itself.
 *
 * Messages over the front's port, front → here: {t:'ask', id, request}, {t:'note', note},
 * {t:'log', level, msg, ctx}, {t:'listening', address}, {t:'failed', message, code}, {t:'stopped'};
 * here → front: {t:'answer', id, answer}, {t:'push', push}, {t:'stop'}.
 * Notes and pushes are one-way messages a front and its backend exchange besides requests (the
 * CometBFT RPC's websocket frames); each direction keeps its order.
 */
import type { ConnectionStats } from '../limits/connections.js';
import type { Logger, LogContext } from '../logger.js';
import { frontHosts, type FrontKind, type FrontSlot, type FrontWorkerData } from './frontHost.js';

/** Slots of the shared stats array (the front writes, `connectionStats()` reads). */
export const STATS = { open: 0, max: 1, evicted: 2, refused: 3, waiting: 4, kept: 5 } as const;
export const STATS_SLOTS = 6;

/** Where a front listens. */
export interface FrontAddress {
  host: string;
  port: number;
  /** http://host:port */
  url: string;
}

/** What a front offers, on either thread. */
export interface Front {
  start(): Promise<FrontAddress>;
  stop(): Promise<void>;
  connectionStats(): ConnectionStats | undefined;
  readonly keptAnswers: number;
}

export type FrontMessage<Req> =
  | { t: 'ask'; id: number; request: Req }
  | { t: 'note'; note: unknown }
  | { t: 'log'; level: keyof Logger; msg: string; ctx?: LogContext }
  | { t: 'listening'; address: FrontAddress }
  | { t: 'failed'; message: string; code?: string }
  | { t: 'stopped' };

export type BackMessage<Ans> = { t: 'answer'; id: number; answer: Ans } | { t: 'push'; push: unknown } | { t: 'stop' };

/** The server a thread fronts: its name in logs, its kind of front, and how it answers. */
export interface FrontThreadSpec<Req, Ans> {
  /** In log lines: "REST gateway", "Ethereum JSON-RPC". */
  label: string;
  /** Which front runs in the host (threads/hostWorker.ts). */
  kind: FrontKind;
  backend: (request: Req) => Promise<Ans>;
  /** The answer to a request whose backend rejected (a bug: backends turn errors into answers). */
  internalError: (err: unknown) => Ans;
  stateHeight: () => number;
  watchStateHeight: (listener: (height: number) => void) => () => void;
  /** Gets the front's notes (FrontContext.note in the host). */
  onNote?: (note: unknown) => void;
  /** A thread that ended by itself is gone with its connections (called before it is started again). */
  onThreadLost?: () => void;
}

export class FrontThread<Options extends { port: number }, Req, Ans> implements Front {
  /** The front's slot in a host thread (threads/frontHost.ts). */
  private slot: FrontSlot | undefined;
  private stats: Int32Array | undefined;
  private unwatch: (() => void) | undefined;
  private stopped: Promise<void> | undefined;
  private stopping = false;
  private shared: SharedArrayBuffer | undefined;
  /** The options a thread that ended by itself is started again with (the port it listened on). */
  private restartOptions: Options | undefined;

  constructor(
    readonly options: Options,
    private readonly spec: FrontThreadSpec<Req, Ans>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<FrontAddress> {
    if (this.slot !== undefined) throw new Error(`${this.spec.label} already started`);
    const shared = new SharedArrayBuffer(8 + 4 * STATS_SLOTS);
    const height = new BigInt64Array(shared, 0, 1);
    this.stats = new Int32Array(shared, 8, STATS_SLOTS);
    Atomics.store(height, 0, BigInt(this.spec.stateHeight()));
    this.unwatch = this.spec.watchStateHeight((h) => Atomics.store(height, 0, BigInt(h)));
    this.shared = shared;
    try {
      const address = await this.launch(this.options);
      // A thread that ends by itself later is started again on the port it had.
      this.restartOptions = { ...this.options, port: address.port };
      return address;
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Opens the front in a host with `options`; resolves once it listens. */
  private launch(options: Options): Promise<FrontAddress> {
    const label = this.spec.label;
    const data: FrontWorkerData<Options> = { options, shared: this.shared! };
    const slot = frontHosts.open(this.spec.kind, data as FrontWorkerData<unknown>);
    this.slot = slot;
    const launchedAt = Date.now();
    this.stopped = new Promise<void>((done) => slot.once('exit', () => done()));
    return new Promise<FrontAddress>((resolve, reject) => {
      let listening = false;
      slot.on('message', (message: FrontMessage<Req>) => {
        switch (message.t) {
          case 'ask':
            this.answer(slot, message.id, message.request);
            break;
          case 'note':
            if (this.slot === slot) this.spec.onNote?.(message.note);
            break;
          case 'log':
            this.logger[message.level](message.msg, message.ctx);
            break;
          case 'listening':
            listening = true;
            resolve(message.address);
            break;
          case 'failed':
            reject(Object.assign(new Error(message.message), message.code === undefined ? {} : { code: message.code }));
            break;
          case 'stopped':
            break;
        }
      });
      slot.once('error', (err: Error) => {
        reject(err);
        if (!this.stopping) this.logger.error(`${label} thread failed`, { err: err.message });
      });
      slot.once('exit', (code: number) => {
        reject(new Error(`the ${label} thread exited (code ${code}) before listening`));
        if (this.stopping || !listening || this.slot !== slot) return;
        // Not asked to stop: a bug in the thread. The server is down until it is back; a thread
        // that keeps dying at once is started again at most once a second.
        const delay = Math.max(0, 1_000 - (Date.now() - launchedAt));
        this.logger.error(`${label} thread stopped; starting it again`, { code, in_ms: delay });
        this.spec.onThreadLost?.();
        setTimeout(() => {
          if (this.stopping || this.restartOptions === undefined) return;
          this.launch(this.restartOptions).then(
            (address) => this.logger.info(`${label} listening again`, { address: address.url.slice('http://'.length) }),
            (err: Error) => this.logger.error(`${label} thread could not be started again; it is not serving`, { err: err.message }),
          );
        }, delay).unref();
      });
    });
  }

  private answer(slot: FrontSlot, id: number, request: Req): void {
    this.spec.backend(request).then(
      (answer) => slot.postMessage({ t: 'answer', id, answer } satisfies BackMessage<Ans>),
      (err: unknown) => slot.postMessage({ t: 'answer', id, answer: this.spec.internalError(err) } satisfies BackMessage<Ans>),
    );
  }

  /** Sends the front a push (FrontContext.onPush in the host); dropped while no thread runs. */
  push(push: unknown): void {
    this.slot?.postMessage({ t: 'push', push } satisfies BackMessage<Ans>);
  }

  /** Open connections against the cap, and how many were evicted or refused (as the thread last wrote them). */
  connectionStats(): ConnectionStats | undefined {
    const s = this.stats;
    if (s === undefined || this.slot === undefined) return undefined;
    return { open: s[STATS.open]!, max: s[STATS.max]!, evicted: s[STATS.evicted]!, refused: s[STATS.refused]!, waiting: s[STATS.waiting]! };
  }

  get keptAnswers(): number {
    return this.stats?.[STATS.kept] ?? 0;
  }

  async stop(): Promise<void> {
    const slot = this.slot;
    if (slot === undefined) return;
    this.stopping = true;
    this.unwatch?.();
    this.unwatch = undefined;
    // The front closes its server (requests in flight get their second, as on the main thread),
    // says so, and its slot is closed.
    const said = new Promise<void>((resolve) => {
      slot.on('message', (message: FrontMessage<Req>) => {
        if (message.t === 'stopped') resolve();
      });
    });
    slot.postMessage({ t: 'stop' } satisfies BackMessage<Ans>);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)));
    // A front whose host already ended (waiting to be started again) says nothing.
    await Promise.race([said, this.stopped, gaveUp]);
    clearTimeout(timer);
    slot.close();
    await this.stopped;
    this.slot = undefined;
  }
}
