/**
 * Storage-fault injection at the database layer: wraps a real `Database` and, once armed, fails
 * every write with the error LevelDB itself raises for that OS condition ("IO error: <file>: No
 * space left on device", …), reporting it to the node's storage-fault listeners exactly as the
 * real database does.
 */
import { TokendError } from '../../src/util/errors.js';
import { describeStorageFault, storageFaultOf, type StorageFaultCode, type StorageFaultListener } from '../../src/util/storageFault.js';
import type { BatchOp, Database, RangeOptions } from '../../src/node/store/db/database.js';

const OS_TEXT: Record<StorageFaultCode, string> = {
  ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system',
  EMFILE: 'Too many open files',
  ENFILE: 'Too many open files in system',
  EIO: 'Input/output error',
  EDQUOT: 'Disk quota exceeded',
};

export class FaultyDatabase implements Database {
  private armed: StorageFaultCode | undefined;
  private readonly listeners = new Set<StorageFaultListener>();
  /** Writes refused since armed. */
  refused = 0;

  constructor(private readonly inner: Database) {}

  get location(): string {
    return this.inner.location;
  }

  /** Fail every write from now on with `code`. */
  fail(code: StorageFaultCode): void {
    this.armed = code;
  }

  heal(): void {
    this.armed = undefined;
  }

  onStorageFault(listener: StorageFaultListener): () => void {
    this.listeners.add(listener);
    const off = this.inner.onStorageFault?.(listener);
    return () => {
      this.listeners.delete(listener);
      off?.();
    };
  }

  private async check(what: string): Promise<void> {
    if (!this.armed) return;
    this.refused++;
    const err = Object.assign(new Error(`IO error: ${this.inner.location}/000042.log: ${OS_TEXT[this.armed]}`), { code: 'LEVEL_IO_ERROR' });
    const fault = storageFaultOf(err)!;
    for (const l of this.listeners) l(`database ${what}`, fault, err);
    throw new TokendError('INTERNAL', `database ${what} failed: ${describeStorageFault(fault)}`, { cause: err });
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    return this.inner.getSync(key);
  }
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.inner.get(key);
  }
  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return this.inner.getMany(keys);
  }
  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    await this.check('put');
    return this.inner.put(key, value);
  }
  async del(key: Uint8Array): Promise<void> {
    await this.check('delete');
    return this.inner.del(key);
  }
  async batch(ops: BatchOp[], options?: { sync?: boolean }): Promise<void> {
    await this.check('batch write');
    return this.inner.batch(ops, options);
  }
  entries(range?: RangeOptions): AsyncIterable<[Uint8Array, Uint8Array]> {
    return this.inner.entries(range);
  }
  chunks(range?: RangeOptions, size?: number): AsyncIterable<[Uint8Array, Uint8Array][]> {
    return this.inner.chunks(range, size);
  }
  /** The inner database's long-scan arrays (its `chunks` where it has none), as the node would read them. */
  rawChunks(range?: RangeOptions): AsyncIterable<readonly (readonly [Uint8Array, Uint8Array])[]> {
    return this.inner.rawChunks?.(range) ?? this.inner.chunks(range);
  }
  keys(range?: RangeOptions): AsyncIterable<Uint8Array> {
    return this.inner.keys(range);
  }
  async clear(range?: RangeOptions): Promise<void> {
    await this.check('clear');
    return this.inner.clear(range);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
