/**
 * Answers of reads of the latest state, kept until the app's state height moves: what each
 * server's front (REST, Ethereum JSON-RPC, CometBFT RPC, gRPC) answers a repeated read from without
 * its backend. At most `max` entries (the oldest goes first); all are dropped as soon as the state
 * height differs from the one they were read at, so a kept answer is never given for a replaced
 * state.
 *
 *   const kept = new KeptAnswers<string>(10_000, () => stateHeight());
 *   const hit = kept.get(key);                 // undefined: ask the backend
 *   kept.set(key, answer, answer.readAtHeight);  // kept only if the state is still that height
 */
export class KeptAnswers<V> {
  private readonly entries = new Map<string, V>();
  private keptHeight = -1;

  /** `stateHeight`: the app's committed state height now; `changed`: called after the entries change. */
  constructor(
    readonly max: number,
    private readonly stateHeight: () => number,
    private readonly changed?: () => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The state height now; the entries are dropped if it has moved since they were read. */
  sync(): number {
    const height = this.stateHeight();
    if (height !== this.keptHeight) {
      this.keptHeight = height;
      if (this.entries.size > 0) {
        this.entries.clear();
        this.changed?.();
      }
    }
    return height;
  }

  /** Whether anything can be kept at all (max > 0), and something is kept at the current height. */
  any(): boolean {
    if (this.max <= 0) return false;
    this.sync();
    return this.entries.size > 0;
  }

  /** The answer kept under `key` at the current state height. */
  get(key: string): V | undefined {
    if (this.max <= 0) return undefined;
    this.sync();
    return this.entries.get(key);
  }

  /** Keeps `value` under `key` if it was read at `at` and the state height is still `at`. */
  set(key: string, value: V, at: number): void {
    if (this.max <= 0 || at < 0 || at !== this.sync()) return;
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    this.changed?.();
  }
}
