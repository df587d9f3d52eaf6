/**
 * `tendermint reset-state` and `tendermint unsafe-reset-all` (CometBFT's commands/reset.go):
 *
 * - reset-state removes the consensus data (block store, consensus state, evidence), the tx and
 *   block indexes and the consensus WAL; the application's state is kept.
 * - unsafe-reset-all removes every byte of data (the application's too), the WAL and the address
 *   book (unless kept), and resets the validator's sign state to height 0, keeping its key.
 *
 * Both refuse a home that a running node holds (the database lock).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../config/home.js';
import { homePath, loadNodeConfig } from '../config/node.js';
import { openDatabase } from '../store/db/database.js';
import { FilePV } from './privval.js';

/** Bucket ranges (store/db/buckets.ts): 0x20–0x3f consensus, 0x40–0x5f indexers. */
const CONSENSUS_AND_INDEX_RANGE = { gte: Uint8Array.of(0x20), lt: Uint8Array.of(0x60) };

export interface ResetResult {
  removed: string[];
}

function walDir(home: string): string {
  const config = loadNodeConfig(home);
  const walFile = homePath(home, config.consensus.walFile ?? 'data/cs.wal/wal');
  return join(walFile, '..');
}

export async function resetState(home: string, databaseDirname: string): Promise<ResetResult> {
  const removed: string[] = [];
  const dbPath = join(dataDir(home), databaseDirname);
  if (existsSync(dbPath)) {
    const db = await openDatabase(dbPath, { ownerHint: home });
    try {
      await db.clear(CONSENSUS_AND_INDEX_RANGE);
    } finally {
      await db.close();
    }
    removed.push(`${dbPath} (block store, consensus state, evidence, tx index)`);
  }
  const wal = walDir(home);
  if (existsSync(wal)) {
    rmSync(wal, { recursive: true, force: true });
    removed.push(wal);
  }
  return { removed };
}

export async function unsafeResetAll(home: string, databaseDirname: string, keepAddrBook: boolean): Promise<ResetResult & { validator_state: string }> {
  const config = loadNodeConfig(home);
  const removed: string[] = [];
  const dbPath = join(dataDir(home), databaseDirname);
  if (existsSync(dbPath)) {
    // Take the lock first: never delete the data of a running node.
    const db = await openDatabase(dbPath, { ownerHint: home });
    await db.close();
    rmSync(dbPath, { recursive: true, force: true });
    removed.push(dbPath);
  }
  const wal = walDir(home);
  if (existsSync(wal)) {
    rmSync(wal, { recursive: true, force: true });
    removed.push(wal);
  }
  if (!keepAddrBook) {
    const book = homePath(home, config.p2p.addrBookFile);
    if (existsSync(book)) {
      rmSync(book, { force: true });
      removed.push(book);
    }
  }
  const keyFile = homePath(home, config.privValidatorKeyFile);
  const stateFile = homePath(home, config.privValidatorStateFile);
  let validatorState = 'no validator key';
  if (existsSync(keyFile)) {
    FilePV.load(keyFile, stateFile).reset();
    validatorState = `reset ${stateFile} to height 0`;
  }
  return { removed, validator_state: validatorState };
}
