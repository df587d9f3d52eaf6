/** `memory` backend: an in-process Map, gone when the process ends (tests, dry runs). */
import { addressHex, type KeyStore, type StoredKey } from './store.js';

function copyKey(key: StoredKey): StoredKey {
  if (key.type === 'offline') return { ...key, pubKey: Uint8Array.from(key.pubKey), address: Uint8Array.from(key.address) };
  if (key.type === 'multi') {
    return { ...key, address: Uint8Array.from(key.address), members: key.members.map((m) => ({ algo: m.algo, pubKey: Uint8Array.from(m.pubKey) })) };
  }
  return {
    ...key,
    pubKey: Uint8Array.from(key.pubKey),
    address: Uint8Array.from(key.address),
    privKey: Uint8Array.from(key.privKey),
  };
}

export class MemoryKeyStore implements KeyStore {
  readonly backend = 'memory' as const;
  private readonly keys = new Map<string, StoredKey>();
  private readonly addressIndex = new Map<string, string>();

  async listKeys(): Promise<StoredKey[]> {
    return [...this.keys.values()].map(copyKey);
  }

  async readKey(name: string): Promise<StoredKey | undefined> {
    const key = this.keys.get(name);
    return key && copyKey(key);
  }

  async writeKey(key: StoredKey): Promise<void> {
    this.keys.set(key.name, copyKey(key));
  }

  async deleteKey(name: string): Promise<void> {
    this.keys.delete(name);
  }

  async readAddressIndex(address: Uint8Array): Promise<string | undefined> {
    return this.addressIndex.get(addressHex(address));
  }

  async writeAddressIndex(address: Uint8Array, name: string): Promise<void> {
    this.addressIndex.set(addressHex(address), name);
  }

  async deleteAddressIndex(address: Uint8Array): Promise<void> {
    this.addressIndex.delete(addressHex(address));
  }
}
