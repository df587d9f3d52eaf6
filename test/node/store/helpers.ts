/** Shared helpers for the store tests: byte builders, temp LevelDB directories, draining iterators. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryDatabase, openDatabase, type Database } from '../../../src/node/store/db/database.js';
import { scanStore } from '../../../src/node/store/chunks.js';
import type { IteratorOptions, KVEntry, KVStoreReader } from '../../../src/node/store/interface.js';

export const b = (...bytes: number[]): Uint8Array => Uint8Array.from(bytes);
export const s = (text: string): Uint8Array => new TextEncoder().encode(text);
export const hex = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : Buffer.from(bytes).toString('hex'));

export async function drain(it: AsyncIterable<KVEntry>): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const [key, value] of it) out.push([hex(key)!, hex(value)!]);
  return out;
}

/**
 * The entries `scanStore` visits (the callback scan of long loops such as the gov tally), as
 * `drain` gives an iterator's; with `limit`, the callback stops the scan after that many.
 */
export async function drainScan(store: KVStoreReader, start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}, limit = Infinity): Promise<[string, string][]> {
  const out: [string, string][] = [];
  await scanStore(store, start, end, options, (key, keyAt, value, valueAt) => {
    out.push([hex(key.subarray(keyAt))!, hex(value.subarray(valueAt))!]);
    return out.length < limit;
  });
  return out;
}

export interface DbFixture {
  db: Database;
  /** Close and open the same database again (LevelDB); the same instance for memory. */
  reopen(): Promise<Database>;
  cleanup(): Promise<void>;
}

export async function levelFixture(): Promise<DbFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-store-'));
  const fixture: DbFixture = {
    db: await openDatabase(dir),
    async reopen() {
      await fixture.db.close();
      fixture.db = await openDatabase(dir);
      return fixture.db;
    },
    async cleanup() {
      await fixture.db.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

export async function memoryFixture(): Promise<DbFixture> {
  const db = memoryDatabase();
  return { db, reopen: async () => db, cleanup: async () => undefined };
}

export const DB_KINDS: [string, () => Promise<DbFixture>][] = [
  ['memoryDatabase', memoryFixture],
  ['LevelDB', levelFixture],
];

/** A deterministic PRNG (mulberry32) so failures reproduce. */
export function rng(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
