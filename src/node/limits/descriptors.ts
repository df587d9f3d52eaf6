/**
 * The process's file-descriptor budget. At start the node reads its soft `ulimit -n` (Linux:
 * /proc/self/limits), keeps headroom for the database, WAL, signer and files, and p2p peers, and
 * fits the servers' connection caps in what is left: a cap that does not fit is lowered (all
 * servers in proportion) with a warning, so idle sockets can never take the descriptors the
 * database needs to commit (EMFILE there is a fatal storage fault). Each cap's wait queue
 * (sockets waiting for a slot, `waitQueueFor`) is part of what must fit.
 */
import { readFileSync } from 'node:fs';
import { waitQueueFor } from './connections.js';

/** Descriptors kept for files and everything that is not a client connection. */
export const FILE_HEADROOM = 128;

/** The soft "Max open files" limit, or undefined where it cannot be read (not Linux) or is unlimited. */
export function descriptorLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const line = text.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  if (soft === undefined || !/^\d+$/.test(soft)) return undefined;
  return Number(soft);
}

/** LevelDB's own file cache (max_open_files), sized to the limit (classic-level's default is 1000). */
export function databaseOpenFiles(limit: number | undefined): number {
  if (limit === undefined) return 1000;
  return Math.max(32, Math.min(1000, Math.floor(limit / 8)));
}

export interface DescriptorPlan {
  limit: number | undefined;
  databaseFiles: number;
  /** Descriptors for p2p peers (inbound + outbound + persistent). */
  peers: number;
  /** The connection caps to use, per server name (0 = unlimited stays 0 only without a limit). */
  caps: Record<string, number>;
  /** Lines to log as warnings (caps lowered to fit). */
  warnings: string[];
}

/**
 * Fit `caps` (server → max open connections, 0 = unlimited) into `limit` after the headroom.
 * Without a readable limit the caps are kept as configured.
 */
export function planDescriptors(limit: number | undefined, caps: Record<string, number>, peers: number): DescriptorPlan {
  const databaseFiles = databaseOpenFiles(limit);
  const plan: DescriptorPlan = { limit, databaseFiles, peers, caps: { ...caps }, warnings: [] };
  if (limit === undefined) return plan;
  const available = limit - databaseFiles - FILE_HEADROOM - peers;
  const names = Object.keys(caps);
  if (names.length === 0) return plan;
  if (available < names.length * 8) {
    const each = 8;
    for (const name of names) plan.caps[name] = each;
    plan.warnings.push(
      `the descriptor limit (ulimit -n ${limit}) leaves almost nothing for client connections after the database (${databaseFiles}), files (${FILE_HEADROOM}) and peers (${peers}); serving ${each} connections per server. Raise ulimit -n`,
    );
    return plan;
  }
  const wanted = names.map((n) => (caps[n]! > 0 ? caps[n]! : available));
  const total = wanted.reduce((a, b) => a + b + waitQueueFor(b), 0);
  if (total <= available) {
    names.forEach((n, i) => (plan.caps[n] = wanted[i]!));
    return plan;
  }
  // The queues of the wanted caps bound those of any smaller caps: what is left is shared by the caps.
  const forCaps = available - wanted.reduce((a, b) => a + waitQueueFor(b), 0);
  const sumCaps = wanted.reduce((a, b) => a + b, 0);
  const scaled = names.map((n, i) => Math.max(8, Math.floor((wanted[i]! * forCaps) / sumCaps)));
  names.forEach((n, i) => (plan.caps[n] = scaled[i]!));
  plan.warnings.push(
    `configured connection caps (${names.map((n, i) => `${n} ${caps[n] === 0 ? 'unlimited' : wanted[i]}`).join(', ')}) do not fit the descriptor limit (ulimit -n ${limit}) after the database (${databaseFiles}), files (${FILE_HEADROOM}) and peers (${peers}); using ${names.map((n, i) => `${n} ${scaled[i]}`).join(', ')}. Raise ulimit -n or lower the caps`,
  );
  return plan;
}
