/** Where a node's files live: `--home` > $TOKEND_HOME > ~/.tokend. */
import { accessSync, constants, mkdirSync, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { TokendError } from '../../util/errors.js';

export const DEFAULT_HOME_DIRNAME = '.tokend';

export function defaultHome(): string {
  return join(homedir(), DEFAULT_HOME_DIRNAME);
}

export function resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.TOKEND_HOME ?? defaultHome();
  return resolve(chosen.startsWith('~/') ? join(homedir(), chosen.slice(2)) : chosen);
}

export function configDir(home: string): string {
  return join(home, 'config');
}

export function dataDir(home: string): string {
  return join(home, 'data');
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'a parent directory cannot be created',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a parent path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

/**
 * Make sure `dir` exists and is writable, creating it (and parents) if needed. Fails with one
 * clear line when the home cannot be written, before anything else is touched.
 */
export function ensureWritableDir(dir: string): void {
  try {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new Error('not a directory');
      accessSync(dir, constants.W_OK);
    } else {
      // Check the nearest existing ancestor first so a failure creates nothing.
      const missing: string[] = [];
      let ancestor = dir;
      while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) {
        missing.unshift(ancestor);
        ancestor = dirname(ancestor);
      }
      if (!statSync(ancestor).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(ancestor, constants.W_OK);
      // One level at a time: recursive mkdir can spin forever on special filesystems like /proc.
      for (const path of missing) mkdirSync(path, { mode: 0o700 });
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const reason = FS_REASONS[code] ?? (err as Error).message;
    throw new TokendError('HOME_UNWRITABLE', `cannot write to ${dir}: ${reason}`, {
      hint: 'choose a writable directory with --home or $TOKEND_HOME',
      cause: err,
    });
  }
}
