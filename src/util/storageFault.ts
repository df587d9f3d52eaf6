/**
 * Storage faults: the operating-system conditions under which the node cannot persist what it
 * has decided (disk full, read-only file system, out of file descriptors, I/O error, quota).
 *
 * Policy (docs/ARCHITECTURE.md "Operating under faults"): a storage fault is never retried in
 * place. LevelDB keeps a failed background write as a sticky error (every later write fails until
 * the database is reopened), and a half-applied commit is only safely resumed by the start-up
 * handshake, so the node reports itself unhealthy, refuses new txs, logs one fatal line and exits
 * non-zero; its supervisor restarts it once the cause is gone, and recovery is the ordinary crash
 * recovery (WAL + block store replay).
 *
 * `storageFaultOf(err)` recognises such an error whatever layer threw it: a Node `fs` error
 * (`err.code`), a LevelDB error whose text carries the OS message ("IO error: …: No space left on
 * device"), or either of those as the `cause` of a wrapper.
 */

export type StorageFaultCode = 'ENOSPC' | 'EROFS' | 'EMFILE' | 'ENFILE' | 'EIO' | 'EDQUOT';

export interface StorageFault {
  code: StorageFaultCode;
  /** What the code means, for an operator. */
  meaning: string;
  /** The original error's message. */
  detail: string;
}

const MEANINGS: Record<StorageFaultCode, string> = {
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files (the process descriptor limit)',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  EDQUOT: 'disk quota exceeded',
};

/** OS texts (strerror) as LevelDB and other native layers print them. */
const TEXTS: [RegExp, StorageFaultCode][] = [
  [/no space left on device/i, 'ENOSPC'],
  [/read-only file system/i, 'EROFS'],
  [/too many open files in system/i, 'ENFILE'],
  [/too many open files/i, 'EMFILE'],
  [/disk quota exceeded/i, 'EDQUOT'],
  [/input\/output error/i, 'EIO'],
];

function codeOf(err: unknown): StorageFaultCode | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code in MEANINGS) return code as StorageFaultCode;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string') for (const [re, c] of TEXTS) if (re.test(message)) return c;
  return undefined;
}

/** The storage fault behind `err` (looking through `cause` chains), or undefined. */
export function storageFaultOf(err: unknown): StorageFault | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 8; depth++) {
    const code = codeOf(current);
    if (code) return { code, meaning: MEANINGS[code], detail: (current as { message?: string }).message ?? String(current) };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** "ENOSPC (no space left on device): <detail>" */
export function describeStorageFault(fault: StorageFault): string {
  return `${fault.code} (${fault.meaning}): ${fault.detail}`;
}

/** Where subsystems report a storage fault they caught; the node turns it into a fatal stop. */
export type StorageFaultListener = (source: string, fault: StorageFault, err: unknown) => void;
