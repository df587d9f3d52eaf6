/**
 * `test` backend: plain JSON files under `<home>/keyring-test/`, private keys UNENCRYPTED.
 * For development and test networks only, never for keys that hold value.
 *
 * Layout (as the SDK's): `<name>.info` holds the key, `<hexaddr>.address` maps an address to its
 * key name.
 */
import { join } from 'node:path';
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

const KEY_SUFFIX = '.info';
const ADDRESS_SUFFIX = '.address';

export class TestKeyStore implements KeyStore {
  readonly backend = 'test' as const;

  constructor(readonly dir: string) {}

  async listKeys(): Promise<StoredKey[]> {
    const files = (await listDirectory(this.dir)).filter((file) => file.endsWith(KEY_SUFFIX) && !file.startsWith('.'));
    const keys = await Promise.all(files.map((file) => this.readKey(file.slice(0, -KEY_SUFFIX.length))));
    return keys.filter((key): key is StoredKey => key !== undefined);
  }

  async readKey(name: string): Promise<StoredKey | undefined> {
    const fileName = `${name}${KEY_SUFFIX}`;
    const text = await readTextIfExists(join(this.dir, fileName));
    return text === undefined ? undefined : deserializeStoredKey(text, join(this.dir, fileName), name);
  }

  async writeKey(key: StoredKey): Promise<void> {
    await writeFileAtomic(this.dir, `${key.name}${KEY_SUFFIX}`, serializeStoredKey(key));
  }

  async deleteKey(name: string): Promise<void> {
    await removeFile(this.dir, `${name}${KEY_SUFFIX}`);
  }

  async readAddressIndex(address: Uint8Array): Promise<string | undefined> {
    const fileName = `${addressHex(address)}${ADDRESS_SUFFIX}`;
    const text = await readTextIfExists(join(this.dir, fileName));
    return text === undefined ? undefined : deserializeAddressIndex(text, join(this.dir, fileName));
  }

  async writeAddressIndex(address: Uint8Array, name: string): Promise<void> {
    await writeFileAtomic(this.dir, `${addressHex(address)}${ADDRESS_SUFFIX}`, serializeAddressIndex(name));
  }

  async deleteAddressIndex(address: Uint8Array): Promise<void> {
    await removeFile(this.dir, `${addressHex(address)}${ADDRESS_SUFFIX}`);
  }
}
