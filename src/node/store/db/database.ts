/**
 * The only module that imports classic-level. Everything else sees `Database`.
 *
 * Keys and values are raw bytes. Point reads are synchronous (`getSync`) because the state
 * machine's hot path cannot afford a promise per read; iteration is asynchronous.
 */
import { ClassicLevel } from 'classic-level';
import { applyOp } from './ops.js';
import { TokendError } from '../../../util/errors.js';
import { describeStorageFault, storageFaultOf, type StorageFaultListener } from '../../../util/storageFault.js';

export interface BatchOp {
  type: 'put' | 'del';
  key: Uint8Array;
  value?: Uint8Array;
}

/**
 * A batch filled while it is built: each put / del is copied into the database's own write
 * buffer at once, so the caller's keys and values can be collected young instead of living
 * until the whole batch is assembled. Nothing is visible before `write()`, which lands all of it
 * atomically (as `Database.batch`); `discard()` drops an unwritten batch.
 */
export interface WriteBatch {
  put(key: Uint8Array, value: Uint8Array): void;
  del(key: Uint8Array): void;
  readonly length: number;
  write(options?: { sync?: boolean }): Promise<void>;
  discard(): Promise<void>;
}

export interface RangeOptions {
  gte?: Uint8Array;
  gt?: Uint8Array;
  lte?: Uint8Array;
  lt?: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

export interface Database {
  readonly location: string;
  getSync(key: Uint8Array): Uint8Array | undefined;
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Several point reads in one call (undefined where a key is missing), in key order given. */
  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  del(key: Uint8Array): Promise<void>;
  /** Atomic batch: all operations land or none. */
  batch(ops: BatchOp[], options?: { sync?: boolean }): Promise<void>;
  /** A `WriteBatch` (optional: callers fall back to `batch` with an array of operations). */
  openBatch?(): WriteBatch;
  entries(range?: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]>;
  /**
   * The entries of `range` in order, in arrays (one await per array, not per entry): the first of
   * up to `first` entries, then growing to a thousand — a caller that takes ten entries does not
   * make the database read a thousand.
   */
  chunks(range?: RangeOptions, first?: number): AsyncIterable<[Uint8Array, Uint8Array][]>;
  /**
   * `chunks` for long scans (the store's key-index scan): the arrays as the database returns
   * them, the next one already being read while the caller works on this one. The keys and
   * values may be the database's own buffers (Node Buffers, whose `slice` is a view): view them
   * with `new Uint8Array(b.buffer, b.byteOffset, b.byteLength)`, or hand them only to a scan
   * callback (`chunks.ts` ScanVisitor, which reads them by index and never keeps them unless copied).
   */
  rawChunks?(range?: RangeOptions): AsyncIterable<readonly (readonly [Uint8Array, Uint8Array])[]>;
  keys(range?: RangeOptions): AsyncIterable<Uint8Array>;
  clear(range?: RangeOptions): Promise<void>;
  close(): Promise<void>;
  /**
   * Called when a write fails for a storage reason (disk full, read-only, descriptors, I/O):
   * the node turns it into a fatal stop. Returns the unsubscribe function.
   */
  onStorageFault?(listener: StorageFaultListener): () => void;
}

export interface OpenDatabaseOptions {
  /** Shown in the "already in use" error, e.g. the node home. */
  ownerHint?: string;
  createIfMissing?: boolean;
  /** LevelDB's table-file cache (max_open_files; default 1000); sized to the descriptor limit by the node. */
  maxOpenFiles?: number;
}

/** Entries and bytes an iteration fetches from LevelDB per native call (the first call fewer). */
const FIRST_CHUNK_ENTRIES = 32;
const CHUNK_ENTRIES = 1000;
const CHUNK_BYTES = 256 * 1024;

function toView(buf: Uint8Array): Uint8Array {
  // classic-level returns Buffers; hand out plain Uint8Array views over the same memory.
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

class LevelDatabase implements Database {
  private readonly faultListeners = new Set<StorageFaultListener>();

  constructor(
    readonly location: string,
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
  ) {}

  onStorageFault(listener: StorageFaultListener): () => void {
    this.faultListeners.add(listener);
    return () => this.faultListeners.delete(listener);
  }

  /** A failed write: report storage faults, and name the OS cause in the error the caller sees. */
  private writeFailed(what: string, err: unknown): never {
    const fault = storageFaultOf(err);
    if (!fault) throw err;
    for (const listener of this.faultListeners) listener(`database ${what}`, fault, err);
    throw new TokendError('INTERNAL', `database ${what} failed: ${describeStorageFault(fault)}`, { cause: err });
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    const value = this.db.getSync(key);
    return value === undefined ? undefined : toView(value);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const value = await this.db.get(key);
    return value === undefined ? undefined : toView(value);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const values = await this.db.getMany(keys as Uint8Array[]);
    return values.map((value) => (value === undefined ? undefined : toView(value)));
  }

  put(key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.db.put(key, value).catch((err: unknown) => this.writeFailed('put', err));
  }

  del(key: Uint8Array): Promise<void> {
    return this.db.del(key).catch((err: unknown) => this.writeFailed('delete', err));
  }

  async batch(ops: BatchOp[], options: { sync?: boolean } = {}): Promise<void> {
    if (ops.length === 0) return;
    const batch = this.db.batch();
    for (const op of ops) applyOp(op, batch);
    await batch.write({ sync: options.sync ?? false }).catch((err: unknown) => this.writeFailed('batch write', err));
  }

  openBatch(): WriteBatch {
    const batch = this.db.batch();
    return {
      put: (key, value) => batch.put(key, value),
      del: (key) => batch.del(key),
      get length() {
        return batch.length;
      },
      write: (options = {}) => batch.write({ sync: options.sync ?? false }).catch((err: unknown) => this.writeFailed('batch write', err)),
      discard: () => batch.close(),
    };
  }

  async *entries(range: RangeOptions = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    for await (const chunk of this.chunks(range)) yield* chunk;
  }

  async *chunks(range: RangeOptions = {}, first = FIRST_CHUNK_ENTRIES): AsyncIterable<[Uint8Array, Uint8Array][]> {
    for await (const batch of this.batches(range, first, false)) {
      const out: [Uint8Array, Uint8Array][] = new Array(batch.length);
      for (let i = 0; i < batch.length; i++) out[i] = [toView(batch[i]![0]), toView(batch[i]![1])];
      yield out;
    }
  }

  rawChunks(range: RangeOptions = {}): AsyncIterable<readonly (readonly [Uint8Array, Uint8Array])[]> {
    return this.batches(range, FIRST_CHUNK_ENTRIES, true);
  }

  /**
   * LevelDB's arrays of `range` as `nextv` returns them (one native call and one promise per
   * array, about twice the rate of next()): `first` entries, then four times more up to
   * CHUNK_ENTRIES. With `readAhead`, LevelDB fills the next array on its thread while the caller
   * works on this one (long scans); without, nothing is read that the caller does not ask for.
   */
  private async *batches(range: RangeOptions, first: number, readAhead: boolean): AsyncIterable<[Uint8Array, Uint8Array][]> {
    const iterator = this.db.iterator({ ...levelRange(range), highWaterMarkBytes: CHUNK_BYTES });
    let size = first;
    let pending: Promise<[Uint8Array, Uint8Array][]> | undefined;
    try {
      for (;;) {
        const batch: [Uint8Array, Uint8Array][] = await (pending ?? iterator.nextv(size));
        pending = undefined;
        if (batch.length === 0) return;
        size = Math.min(size * 4, CHUNK_ENTRIES);
        if (readAhead) {
          pending = iterator.nextv(size);
          // A caller that stops early leaves it unread: its failure is not an unhandled rejection.
          pending.catch(() => undefined);
        }
        yield batch;
      }
    } finally {
      if (pending !== undefined) await pending.catch(() => undefined);
      await iterator.close();
    }
  }

  async *keys(range: RangeOptions = {}): AsyncIterable<Uint8Array> {
    for await (const key of this.db.keys(levelRange(range))) yield toView(key);
  }

  clear(range: RangeOptions = {}): Promise<void> {
    return this.db.clear(levelRange(range)).catch((err: unknown) => this.writeFailed('clear', err));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function levelRange(range: RangeOptions): RangeOptions {
  const out: RangeOptions = {};
  if (range.gte) out.gte = range.gte;
  if (range.gt) out.gt = range.gt;
  if (range.lte) out.lte = range.lte;
  if (range.lt) out.lt = range.lt;
  if (range.reverse) out.reverse = true;
  if (range.limit !== undefined) out.limit = range.limit;
  return out;
}

/** Open (creating if missing) a LevelDB database at `location`. */
export async function openDatabase(location: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(location, {
    keyEncoding: 'view',
    valueEncoding: 'view',
    createIfMissing: options.createIfMissing ?? true,
    ...(options.maxOpenFiles !== undefined ? { maxOpenFiles: options.maxOpenFiles } : {}),
  });
  try {
    await db.open();
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new TokendError('NODE_RUNNING', `a node is already running with home ${options.ownerHint ?? location}`, {
        hint: 'stop it first, or use another --home',
        cause: err,
      });
    }
    throw new TokendError('INTERNAL', `cannot open database ${location}: ${openFailureCause(err)}`, { hint: openFailureHint(err), cause: err });
  }
  return new LevelDatabase(location, db);
}

/**
 * Why LevelDB could not open, in the database's own words: classic-level says only "Database
 * failed to open" and keeps the reason (ENOSPC, EROFS, lock, corruption) in `cause`.
 */
function openFailureCause(err: unknown): string {
  const fault = storageFaultOf(err);
  if (fault) return describeStorageFault(fault);
  const messages: string[] = [];
  for (let e: unknown = err; e && typeof e === 'object' && messages.length < 6; e = (e as { cause?: unknown }).cause) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && m !== '' && !messages.includes(m)) messages.push(m);
  }
  const text = messages.length > 1 ? messages.slice(1).join(': ') : (messages[0] ?? String(err));
  if (/corrupt/i.test(text)) return `the database is corrupted (${text})`;
  return text;
}

function openFailureHint(err: unknown): string | undefined {
  const fault = storageFaultOf(err);
  if (fault?.code === 'ENOSPC' || fault?.code === 'EDQUOT') return 'free space on the disk holding the home, then start again';
  if (fault?.code === 'EROFS') return 'the home is on a read-only file system; remount it read-write or use another --home';
  if (fault?.code === 'EMFILE' || fault?.code === 'ENFILE') return 'raise the descriptor limit (ulimit -n) or lower the servers\' connection caps';
  const text = openFailureCause(err);
  if (/corrupt/i.test(text)) return 'restore the home from a backup or state-sync a new home';
  return undefined;
}

/** An in-memory `Database` with the same contract, for tests and `--dry-run` paths. */
export function memoryDatabase(): Database {
  return new MemoryDatabase();
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function hexKey(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex');
}

class MemoryDatabase implements Database {
  readonly location = ':memory:';
  private readonly data = new Map<string, [Uint8Array, Uint8Array]>();

  getSync(key: Uint8Array): Uint8Array | undefined {
    return this.data.get(hexKey(key))?.[1];
  }
  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.getSync(key);
  }
  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((key) => this.getSync(key));
  }
  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    this.data.set(hexKey(key), [key.slice(), value.slice()]);
  }
  async del(key: Uint8Array): Promise<void> {
    this.data.delete(hexKey(key));
  }
  openBatch(): WriteBatch {
    const ops: BatchOp[] = [];
    let done = false;
    return {
      put: (key, value) => {
        if (done) throw new Error('batch already written or discarded');
        ops.push({ type: 'put', key: key.slice(), value: value.slice() });
      },
      del: (key) => {
        if (done) throw new Error('batch already written or discarded');
        ops.push({ type: 'del', key: key.slice() });
      },
      get length() {
        return ops.length;
      },
      write: async () => {
        if (done) throw new Error('batch already written or discarded');
        done = true;
        await this.batch(ops);
      },
      discard: async () => {
        done = true;
      },
    };
  }
  async batch(ops: BatchOp[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.data.set(hexKey(op.key), [op.key.slice(), (op.value ?? new Uint8Array(0)).slice()]);
      else this.data.delete(hexKey(op.key));
    }
  }
  private select(range: RangeOptions): [Uint8Array, Uint8Array][] {
    let rows = [...this.data.values()].filter(([k]) => {
      if (range.gte && compareBytes(k, range.gte) < 0) return false;
      if (range.gt && compareBytes(k, range.gt) <= 0) return false;
      if (range.lte && compareBytes(k, range.lte) > 0) return false;
      if (range.lt && compareBytes(k, range.lt) >= 0) return false;
      return true;
    });
    rows.sort((a, b) => compareBytes(a[0], b[0]));
    if (range.reverse) rows.reverse();
    if (range.limit !== undefined && range.limit >= 0) rows = rows.slice(0, range.limit);
    return rows;
  }
  async *entries(range: RangeOptions = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    for (const row of this.select(range)) yield row;
  }
  async *chunks(range: RangeOptions = {}, first = FIRST_CHUNK_ENTRIES): AsyncIterable<[Uint8Array, Uint8Array][]> {
    const rows = this.select(range);
    for (let i = 0, size = first; i < rows.length; i += size, size = Math.min(size * 4, CHUNK_ENTRIES)) yield rows.slice(i, i + size);
  }
  async *keys(range: RangeOptions = {}): AsyncIterable<Uint8Array> {
    for (const [key] of this.select(range)) yield key;
  }
  async clear(range: RangeOptions = {}): Promise<void> {
    for (const [key] of this.select(range)) this.data.delete(hexKey(key));
  }
  async close(): Promise<void> {}
}
