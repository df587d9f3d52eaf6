/** File helpers shared by the on-disk backends. */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TokendError } from '../../util/errors.js';

export const KEYRING_DIR_MODE = 0o700;
export const KEYRING_FILE_MODE = 0o600;

function isNotFound(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function cannotWrite(path: string, err: unknown): TokendError {
  const reason = (err as NodeJS.ErrnoException | undefined)?.code ?? (err instanceof Error ? err.message : String(err));
  return new TokendError('HOME_UNWRITABLE', `cannot write ${path} (${reason})`, {
    hint: 'check that the home directory exists, is writable and has free space',
    cause: err,
  });
}

/** Contents, or undefined when the file does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** File names of a directory; empty when it does not exist. */
export async function listDirectory(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

/**
 * Writes through a temporary file in the same directory and renames it into place, so readers
 * see the old or the new contents, never a torn file; the temporary file is removed on failure.
 */
export async function writeFileAtomic(dir: string, fileName: string, contents: string): Promise<void> {
  const target = join(dir, fileName);
  const temporary = join(dir, `.${fileName}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true, mode: KEYRING_DIR_MODE });
    await writeFile(temporary, contents, { mode: KEYRING_FILE_MODE, flag: 'wx' });
    await rename(temporary, target);
  } catch (err) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw cannotWrite(target, err);
  }
}

export async function removeFile(dir: string, fileName: string): Promise<void> {
  const target = join(dir, fileName);
  try {
    await rm(target, { force: true });
  } catch (err) {
    throw cannotWrite(target, err);
  }
}
