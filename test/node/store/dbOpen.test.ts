/** The database's own cause in the open error (issue 14): corruption, read-only file system, lock. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../src/node/store/db/database.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tokend-dbopen-'));
  dirs.push(dir);
  return dir;
}

describe('openDatabase errors say why', () => {
  it('a corrupted database names the corruption', async () => {
    const location = join(tempDir(), 'db');
    const db = await openDatabase(location);
    await db.put(new Uint8Array([1]), new Uint8Array([2]));
    await db.close();
    writeFileSync(join(location, 'CURRENT'), 'garbage');
    await expect(openDatabase(location)).rejects.toThrow(/cannot open database .*: the database is corrupted \(Corruption: CURRENT file does not end with newline\)/);
  });

  it('a second open names the lock holder', async () => {
    const location = join(tempDir(), 'db');
    const db = await openDatabase(location, { ownerHint: '/the/home' });
    try {
      await expect(openDatabase(location, { ownerHint: '/the/home' })).rejects.toThrow('a node is already running with home /the/home');
    } finally {
      await db.close();
    }
  });

  // A read-only mount needs root (CI runs as root; elsewhere this case is skipped with its reason).
  const mountable = ((): boolean => {
    if (process.getuid?.() !== 0) return false;
    try {
      const probe = tempDir();
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (mountable ? it : it.skip)('a database on a read-only file system says EROFS (needs root for mount)', async () => {
    const mnt = tempDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
    try {
      const db = await openDatabase(join(mnt, 'home', 'db'));
      await db.close();
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      const err = await openDatabase(join(mnt, 'home', 'db')).catch((e: unknown) => e as Error & { hint?: string });
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/cannot open database .*: EROFS \(read-only file system\)/);
      expect((err as { hint?: string }).hint).toMatch(/read-only file system/);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});
