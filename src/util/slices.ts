/**
 * Work in slices on the one event loop: long synchronous work (a block's txs, a tree hash, a
 * mempool recheck, indexing a block) hands the loop a turn every few milliseconds so that
 * queries, CheckTx and sockets are served in between. `await` alone does not do it: resolved
 * promises run as microtasks, before any I/O.
 */

/** Resolves after the event loop has served pending I/O (a macrotask turn). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock of the current event-loop turn: the first `elapsed()` of a turn starts it (at `from`)
 * and schedules a macrotask that stops it, so the next turn starts afresh.
 */
class TurnClock {
  private started: number | undefined;

  /** Time since the turn's clock started; 0 when this call starts it. */
  elapsed(now: number, from = now): number {
    if (this.started === undefined) {
      this.started = from;
      setImmediate(() => {
        this.started = undefined;
      });
    }
    return now - this.started;
  }
}

/**
 * The least a sliced task runs in a turn before it yields to the turn's shared budget: every task
 * resumed in a turn makes some progress, however many there are.
 */
const MIN_SHARE_MS = 0.5;
/** When the current turn's sliced work began. */
const slicedTurn = new TurnClock();

/**
 * Says when a slice of `ms` is used up (`ms` ≤ 0: never, the work runs in one go). Sliced tasks
 * resumed in the same turn (a block's execution, the recheck, the indexer, a big `block_results`)
 * share the turn: once the sliced work of the turn has run `ms`, each task yields after its
 * minimum share, so the loop gets back to I/O after about `ms` rather than `ms` per task.
 */
export class TimeSlicer {
  private start = performance.now();

  constructor(private readonly ms: number) {}

  /** True once the slice is used up: call `pause()` then. */
  due(): boolean {
    if (this.ms <= 0) return false;
    const now = performance.now();
    const own = now - this.start;
    if (own >= this.ms) return true;
    return own >= MIN_SHARE_MS && slicedTurn.elapsed(now, now - own) >= this.ms;
  }

  /** Gives the event loop a turn and starts a new slice; resolves with the time paused (ms). */
  async pause(): Promise<number> {
    const paused = performance.now();
    await yieldToEventLoop();
    this.start = performance.now();
    return this.start - paused;
  }
}

/**
 * Says when work that runs as a chain of microtasks — one `await` of an already resolved promise
 * after another, as CheckTx after CheckTx behind a lock — has held the current event-loop turn
 * for `ms`. The first `due()` of a turn starts the clock and schedules a macrotask that stops it,
 * so work spread over separate turns is never paused, only a long chain within one.
 */
export class TurnSlicer {
  private readonly turn = new TurnClock();

  constructor(private readonly ms: number) {}

  due(): boolean {
    return this.ms > 0 && this.turn.elapsed(performance.now()) >= this.ms;
  }

  /** Gives the event loop a turn (the clock restarts with the next `due()`). */
  pause(): Promise<void> {
    return yieldToEventLoop();
  }
}

/** Runs a generator of steps to its end at once. */
export function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Runs a generator of steps to its end, giving the event loop a turn every `ms`. */
export async function runSliced<T>(steps: Generator<void, T, void>, ms: number): Promise<T> {
  const slicer = new TimeSlicer(ms);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (slicer.due()) await slicer.pause();
  }
}

/**
 * Priority for one kind of work over another on the one event loop. While `during(work)` is
 * pending the gate is closed, and the lower-priority side (`await gate.passage()` before each of
 * its steps) waits; other work — sockets, queries — runs on. When the last hold ends the waiters go
 * on in the next macrotask, after the holder's own continuation, so a holder that takes the gate
 * again at once keeps it.
 */
export class PriorityGate {
  private holds = 0;
  private waiters: (() => void)[] = [];
  private releaseScheduled = false;

  /** Held, or just released with the waiters not yet let through (the holder's turn). */
  get closed(): boolean {
    return this.holds > 0 || this.releaseScheduled;
  }

  /** Holds the gate closed until `work` settles; resolves or rejects as `work` does. */
  async during<T>(work: Promise<T>): Promise<T> {
    this.holds++;
    try {
      return await work;
    } finally {
      this.holds--;
      if (this.holds === 0) this.scheduleRelease();
    }
  }

  /** Resolves at once when the gate is open, otherwise when it opens and stays open for a turn. */
  async passage(): Promise<void> {
    while (this.closed) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private scheduleRelease(): void {
    if (this.releaseScheduled) return;
    this.releaseScheduled = true;
    setImmediate(() => {
      this.releaseScheduled = false;
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
  }
}
