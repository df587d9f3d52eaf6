/**
 * `file` backend: `<home>/keyring-file/`, every entry encrypted under one keyring passphrase.
 *
 * - `keyhash` holds the scrypt parameters, the salt and a verifier (an HKDF output of the scrypt
 *   key, never the key itself), so a wrong passphrase is told apart from a damaged entry.
 * - Each key and each address-index entry is its own file. Names are HMACs of the key name or
 *   address (so the directory shows neither), contents are AES-256-GCM with a fresh random salt
 *   (for a per-file HKDF key) and nonce, the file name bound in as associated data.
 *
 * scrypt runs once per process: the passphrase is asked for lazily, the first time an operation
 * needs the keyring, and its derived keys are kept for the life of this store. A keyring that does
 * not exist yet reads as empty without a prompt; the first write creates it, asking for a new
 * passphrase (at least 8 characters) and a confirmation.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { TokendError } from '../../util/errors.js';
import type { PassphraseSource } from '../types.js';
import { listDirectory, readTextIfExists, removeFile, writeFileAtomic } from './fs.js';
import {
  addressHex,
  deserializeAddressIndex,
  deserializeStoredKey,
  serializeAddressIndex,
  serializeStoredKey,
  type KeyStore,
  type StoredKey,
} from './store.js';

export const MIN_KEYRING_PASSPHRASE_LENGTH = 8;
const KEYHASH_FILE = 'keyhash';
const KEY_SUFFIX = '.key';
const ADDRESS_SUFFIX = '.address';
const SCRYPT_N = 1 << 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const GCM_NONCE_BYTES = 12;
const GCM_TAG_BYTES = 16;
const FILE_NAME_HEX_CHARS = 40;

interface KeyhashJson {
  version: 1;
  kdf: 'scrypt';
  n: number;
  r: number;
  p: number;
  salt: string;
  verifier: string;
}

interface EncryptedEntryJson {
  version: 1;
  salt: string;
  nonce: string;
  ciphertext: string;
}

interface UnlockedKeys {
  /** Encrypts entries (input of the per-file HKDF). */
  entryKey: Buffer;
  /** Keys the HMACs that name the files. */
  fileNameKey: Buffer;
}

function subkey(master: Uint8Array, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `tokend keyring-file v1 ${purpose}`, 32));
}

/** Per-file key: HKDF of the entry key with the file's own random salt. */
function entryFileKey(keys: UnlockedKeys, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', keys.entryKey, salt, 'tokend keyring-file v1 entry', 32));
}

function deriveMaster(passphrase: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options = { N: n, r, p, maxmem: 256 * n * r + (1 << 20) };
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, 32, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export interface FileKeyStoreOptions {
  dir: string;
  passphrase?: PassphraseSource;
  /** Attempts at the passphrase of an existing keyring; default 1. */
  passphraseAttempts?: number;
}

export class FileKeyStore implements KeyStore {
  readonly backend = 'file' as const;
  readonly dir: string;
  private readonly passphraseSource?: PassphraseSource;
  private readonly attempts: number;
  /** Derived keys, once the passphrase was accepted. */
  private unlocked?: UnlockedKeys;
  /** A new keyring's passphrase verifier, written with the first entry (so failed commands leave nothing). */
  private pendingKeyhash?: KeyhashJson;
  /** The unlock in progress, so concurrent operations share one prompt. */
  private unlocking?: Promise<UnlockedKeys | undefined>;

  constructor(options: FileKeyStoreOptions) {
    this.dir = options.dir;
    this.passphraseSource = options.passphrase;
    this.attempts = Math.max(1, options.passphraseAttempts ?? 1);
  }

  async listKeys(): Promise<StoredKey[]> {
    const keys = await this.unlock(false);
    if (!keys) return [];
    const files = (await listDirectory(this.dir)).filter((file) => file.endsWith(KEY_SUFFIX) && !file.startsWith('.'));
    const stored = await Promise.all(
      files.map(async (file) => {
        const text = await readTextIfExists(join(this.dir, file));
        return text === undefined ? undefined : deserializeStoredKey(this.decrypt(keys, file, text), join(this.dir, file));
      }),
    );
    return stored.filter((key): key is StoredKey => key !== undefined);
  }

  async readKey(name: string): Promise<StoredKey | undefined> {
    const keys = await this.unlock(false);
    if (!keys) return undefined;
    const file = this.fileName(keys, `key:${name}`, KEY_SUFFIX);
    const text = await readTextIfExists(join(this.dir, file));
    return text === undefined ? undefined : deserializeStoredKey(this.decrypt(keys, file, text), join(this.dir, file), name);
  }

  async writeKey(key: StoredKey): Promise<void> {
    const keys = await this.unlockForWrite();
    const file = this.fileName(keys, `key:${key.name}`, KEY_SUFFIX);
    await writeFileAtomic(this.dir, file, this.encrypt(keys, file, serializeStoredKey(key)));
  }

  async deleteKey(name: string): Promise<void> {
    const keys = await this.unlock(false);
    if (!keys) return;
    await removeFile(this.dir, this.fileName(keys, `key:${name}`, KEY_SUFFIX));
  }

  async readAddressIndex(address: Uint8Array): Promise<string | undefined> {
    const keys = await this.unlock(false);
    if (!keys) return undefined;
    const file = this.fileName(keys, `address:${addressHex(address)}`, ADDRESS_SUFFIX);
    const text = await readTextIfExists(join(this.dir, file));
    return text === undefined ? undefined : deserializeAddressIndex(this.decrypt(keys, file, text), join(this.dir, file));
  }

  async writeAddressIndex(address: Uint8Array, name: string): Promise<void> {
    const keys = await this.unlockForWrite();
    const file = this.fileName(keys, `address:${addressHex(address)}`, ADDRESS_SUFFIX);
    await writeFileAtomic(this.dir, file, this.encrypt(keys, file, serializeAddressIndex(name)));
  }

  async deleteAddressIndex(address: Uint8Array): Promise<void> {
    const keys = await this.unlock(false);
    if (!keys) return;
    await removeFile(this.dir, this.fileName(keys, `address:${addressHex(address)}`, ADDRESS_SUFFIX));
  }

  // -------------------------------------------------------------------------------------------

  private fileName(keys: UnlockedKeys, subject: string, suffix: string): string {
    return createHmac('sha256', keys.fileNameKey).update(subject).digest('hex').slice(0, FILE_NAME_HEX_CHARS) + suffix;
  }

  private encrypt(keys: UnlockedKeys, fileName: string, plaintext: string): string {
    const salt = randomBytes(SALT_BYTES);
    const nonce = randomBytes(GCM_NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', entryFileKey(keys, salt), nonce, { authTagLength: GCM_TAG_BYTES });
    cipher.setAAD(Buffer.from(fileName));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const json: EncryptedEntryJson = {
      version: 1,
      salt: salt.toString('base64'),
      nonce: nonce.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
    return JSON.stringify(json);
  }

  private decrypt(keys: UnlockedKeys, fileName: string, text: string): string {
    try {
      const json = JSON.parse(text) as Partial<EncryptedEntryJson>;
      if (json.version !== 1 || !json.salt || !json.nonce || !json.ciphertext) throw new Error('bad envelope');
      const sealed = Buffer.from(json.ciphertext, 'base64');
      const tagStart = sealed.length - GCM_TAG_BYTES;
      const fileKey = entryFileKey(keys, Buffer.from(json.salt, 'base64'));
      const nonce = Buffer.from(json.nonce, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', fileKey, nonce, { authTagLength: GCM_TAG_BYTES });
      decipher.setAAD(Buffer.from(fileName));
      decipher.setAuthTag(sealed.subarray(tagStart));
      return Buffer.concat([decipher.update(sealed.subarray(0, tagStart)), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new TokendError('INTERNAL', `keyring entry ${join(this.dir, fileName)} is corrupted: it does not decrypt`, {
        hint: 'restore the key from its mnemonic or an exported armor',
        cause: err,
      });
    }
  }

  private source(): PassphraseSource {
    if (!this.passphraseSource) {
      throw new TokendError('INVALID_ARGUMENT', 'the file keyring needs a passphrase, but none can be read here', {
        hint: 'run the command on a terminal or pipe the passphrase on stdin',
      });
    }
    return this.passphraseSource;
  }

  /** Derived keys of an existing keyring (asking once), or undefined when there is none yet. */
  private async unlock(createIfMissing: boolean): Promise<UnlockedKeys | undefined> {
    while (this.unlocking) {
      await this.unlocking.catch(() => undefined);
    }
    if (this.unlocked) return this.unlocked;
    this.unlocking = this.startUnlock(createIfMissing);
    try {
      this.unlocked = await this.unlocking;
      return this.unlocked;
    } finally {
      this.unlocking = undefined;
    }
  }

  /** Ask for the passphrase now (twice for a new keyring) without writing anything. */
  async prepareWrite(): Promise<void> {
    await this.unlock(true);
  }

  private async unlockForWrite(): Promise<UnlockedKeys> {
    const keys = await this.unlock(true);
    if (!keys) throw new TokendError('INTERNAL', 'file keyring was not created');
    if (this.pendingKeyhash) {
      await writeFileAtomic(this.dir, KEYHASH_FILE, JSON.stringify(this.pendingKeyhash));
      this.pendingKeyhash = undefined;
    }
    return keys;
  }

  private async startUnlock(createIfMissing: boolean): Promise<UnlockedKeys | undefined> {
    const keyhashText = await readTextIfExists(join(this.dir, KEYHASH_FILE));
    if (keyhashText === undefined) return createIfMissing ? this.createKeyring() : undefined;
    const keyhash = this.parseKeyhash(keyhashText);
    const salt = Buffer.from(keyhash.salt, 'base64');
    const expected = Buffer.from(keyhash.verifier, 'base64');
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      const passphrase = await this.source().read(`Enter keyring passphrase (attempt ${attempt}/${this.attempts}):`);
      const master = await deriveMaster(passphrase, salt, keyhash.n, keyhash.r, keyhash.p);
      const verifier = subkey(master, 'verifier');
      if (verifier.length === expected.length && timingSafeEqual(verifier, expected)) return this.keysFrom(master);
    }
    throw new TokendError('WRONG_PASSWORD', 'incorrect keyring passphrase', {
      hint: `enter the passphrase the keyring in ${this.dir} was created with`,
    });
  }

  private parseKeyhash(text: string): KeyhashJson {
    try {
      const json = JSON.parse(text) as Partial<KeyhashJson>;
      const valid =
        json.version === 1 &&
        json.kdf === 'scrypt' &&
        // Bounds keep a damaged file from asking scrypt for gigabytes.
        Number.isInteger(json.n) &&
        (json.n as number) >= 2 &&
        (json.n as number) <= 1 << 20 &&
        Number.isInteger(json.r) &&
        (json.r as number) >= 1 &&
        (json.r as number) <= 32 &&
        Number.isInteger(json.p) &&
        (json.p as number) >= 1 &&
        (json.p as number) <= 16 &&
        typeof json.salt === 'string' &&
        typeof json.verifier === 'string';
      if (valid) return json as KeyhashJson;
    } catch {
      // fall through
    }
    throw new TokendError('INTERNAL', `${join(this.dir, KEYHASH_FILE)} is corrupted`, {
      hint: 'restore it from a backup, or move the directory away and restore the keys from their mnemonics',
    });
  }

  /** Asks for a new passphrase and its confirmation; `keyhash` is written with the first entry. */
  private async createKeyring(): Promise<UnlockedKeys> {
    const source = this.source();
    const passphrase = await source.read('Enter keyring passphrase (attempt 1/1):');
    if (passphrase.length < MIN_KEYRING_PASSPHRASE_LENGTH) {
      throw new TokendError('INVALID_PASSWORD', `password must be at least ${MIN_KEYRING_PASSPHRASE_LENGTH} characters`, {
        hint: 'choose a longer keyring passphrase',
      });
    }
    const confirmation = await source.read('Re-enter keyring passphrase:');
    if (confirmation !== passphrase) {
      throw new TokendError('PASSWORD_MISMATCH', 'passphrases do not match', { hint: 'enter the same passphrase twice' });
    }
    const salt = randomBytes(SALT_BYTES);
    const master = await deriveMaster(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P);
    const keyhash: KeyhashJson = {
      version: 1,
      kdf: 'scrypt',
      n: SCRYPT_N,
      r: SCRYPT_R,
      p: SCRYPT_P,
      salt: salt.toString('base64'),
      verifier: subkey(master, 'verifier').toString('base64'),
    };
    this.pendingKeyhash = keyhash;
    return this.keysFrom(master);
  }

  private keysFrom(master: Buffer): UnlockedKeys {
    const keys = { entryKey: subkey(master, 'entries'), fileNameKey: subkey(master, 'file names') };
    master.fill(0);
    return keys;
  }
}
