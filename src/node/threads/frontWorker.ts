/**
 * The worker side of frontThread.ts: runs one server's front whose backend is the main thread, over
 * the message port of its slot in a front host (threads/hostWorker.ts). Requests the front cannot
 * answer from its kept answers go to the main thread as {t:'ask'} messages; log lines go there
 * too. The front reads the app's state height from the shared memory the main thread's commit
 * writes, and its connection figures are written there.
 *
 *   serveFront(port, data, (c) => new RestFront(c.options, c.ask, c.stateHeight, c.logger, c.changed));
 */
import type { MessagePort } from 'node:worker_threads';
import type { LogContext, Logger } from '../logger.js';
import type { FrontWorkerData } from './frontHost.js';
import { STATS, STATS_SLOTS, type BackMessage, type Front, type FrontMessage } from './frontThread.js';

/** What a front in a worker is made with. */
export interface FrontContext<Options, Req, Ans> {
  options: Options;
  /** Asks the main thread's backend. */
  ask: (request: Req) => Promise<Ans>;
  /** The app's committed state height, from shared memory. */
  stateHeight: () => number;
  logger: Logger;
  /** Call after a connection comes or goes and after the kept answers change. */
  changed: () => void;
  /** A one-way message to the backend (FrontThreadSpec.onNote). */
  note: (note: unknown) => void;
  /** Sets what gets the backend's pushes (FrontThread.push). */
  onPush: (handler: (push: unknown) => void) => void;
}

export type FrontMaker<Options, Req, Ans> = (context: FrontContext<Options, Req, Ans>) => Front;

/**
 * Serves a front over `port` until the main thread asks it to stop ({t:'stop'}, answered with
 * {t:'stopped'}) or closes the port (the front is stopped then too, without a word).
 */
export function serveFront<Options, Req, Ans>(port: MessagePort, data: FrontWorkerData<Options>, make: FrontMaker<Options, Req, Ans>): void {
  const { options, shared } = data;
  const height = new BigInt64Array(shared, 0, 1);
  const stats = new Int32Array(shared, 8, STATS_SLOTS);
  let open = true;
  const post = (message: FrontMessage<Req>): void => {
    if (open) port.postMessage(message);
  };

  const log =
    (level: keyof Logger) =>
    (msg: string, ctx?: LogContext): void =>
      post(ctx === undefined ? { t: 'log', level, msg } : { t: 'log', level, msg, ctx });
  const logger: Logger = { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

  const waiting = new Map<number, (answer: Ans) => void>();
  let nextId = 0;
  const ask = (request: Req): Promise<Ans> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      post({ t: 'ask', id, request });
    });

  const publish = (): void => {
    const s = front.connectionStats();
    if (s !== undefined) {
      Atomics.store(stats, STATS.open, s.open);
      Atomics.store(stats, STATS.max, s.max);
      Atomics.store(stats, STATS.evicted, s.evicted);
      Atomics.store(stats, STATS.refused, s.refused);
      Atomics.store(stats, STATS.waiting, s.waiting);
    }
    Atomics.store(stats, STATS.kept, front.keptAnswers);
  };

  let pushed: ((push: unknown) => void) | undefined;
  const front = make({
    options,
    ask,
    stateHeight: () => Number(Atomics.load(height, 0)),
    logger,
    changed: publish,
    note: (note) => post({ t: 'note', note }),
    onPush: (handler) => (pushed = handler),
  });
  // Refusals and waits change the figures without a connection closing: a second's staleness at most.
  const publisher = setInterval(publish, 1000);
  publisher.unref();

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    clearInterval(publisher);
    stopping ??= front.stop();
    return stopping;
  };

  port.on('message', (message: BackMessage<Ans>) => {
    if (message.t === 'answer') {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.answer);
      return;
    }
    if (message.t === 'push') {
      pushed?.(message.push);
      return;
    }
    // A front whose stop fails is stopped as far as it got: the host's other fronts go on.
    const said = (): void => post({ t: 'stopped' });
    stop().then(said, said);
  });
  // The main thread closed the slot (its stop gave up waiting, or it was never told to stop).
  port.once('close', () => {
    open = false;
    stop().catch(() => undefined);
  });

  front.start().then(
    (address) => {
      publish();
      post({ t: 'listening', address });
    },
    (err: NodeJS.ErrnoException) => post(err.code === undefined ? { t: 'failed', message: err.message } : { t: 'failed', message: err.message, code: err.code }),
  );
}
