/**
 * `Database.openBatch` (issue 15, bounded memory): a batch filled as it is built — each put / del
 * copied into the database at once, nothing visible before `write()`, all of it landing together,
 * `discard()` dropping it — over the in-memory database and LevelDB alike.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryDatabase, openDatabase, type Database } from '../../../src/node/store/db/database.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function open(kind: 'memory' | 'leveldb'): Promise<Database> {
  if (kind === 'memory') return memoryDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'tokend-writebatch-'));
  dirs.push(dir);
  return openDatabase(join(dir, 'db'));
}

const b = (...bytes: number[]): Uint8Array => new Uint8Array(bytes);

for (const kind of ['memory', 'leveldb'] as const) {
  describe(`openBatch over ${kind}`, () => {
    it('lands every operation at write, in order, and nothing before', async () => {
      const db = await open(kind);
      try {
        await db.put(b(1), b(10));
        await db.put(b(2), b(20));
        const batch = db.openBatch!();
        const key = b(3);
        const value = b(30);
        batch.put(key, value);
        // The caller's arrays may be reused or die at once: the batch holds its own copy.
        key[0] = 9;
        value[0] = 99;
        batch.del(b(1));
        batch.put(b(2), b(21));
        batch.put(b(2), b(22));
        expect(batch.length).toBe(4);
        expect(db.getSync(b(1))).toEqual(b(10));
        expect(db.getSync(b(3))).toBeUndefined();
        await batch.write();
        expect(db.getSync(b(1))).toBeUndefined();
        expect(db.getSync(b(2))).toEqual(b(22));
        expect(db.getSync(b(3))).toEqual(b(30));
        expect(db.getSync(b(9))).toBeUndefined();
      } finally {
        await db.close();
      }
    });

    it('a discarded batch writes nothing and takes no more operations', async () => {
      const db = await open(kind);
      try {
        const batch = db.openBatch!();
        batch.put(b(5), b(50));
        await batch.discard();
        expect(() => batch.put(b(6), b(60))).toThrow();
        await expect(batch.write()).rejects.toThrow();
        expect(db.getSync(b(5))).toBeUndefined();
        expect(db.getSync(b(6))).toBeUndefined();
      } finally {
        await db.close();
      }
    });
  });
}
