/**
 * The one Keyring implementation, over any KeyStore (src/keyring/backends/store.ts).
 *
 * Every operation validates all of its input before touching the store, so bad input changes
 * nothing; multi-step writes undo what they did when a later step fails.
 */
import { TokendError } from '../util/errors.js';
import { looksLikeAddress, parseAddress, toAccountAddress } from './address.js';
import type { KeyStore, StoredKey, StoredLocalKey } from './backends/store.js';
import type { CreateKeyOptions, CreateMultisigOptions, KeyAlgo, KeyRecord, Keyring, KeyringBackendName, KeyringRecord, MultisigKeyRecord, OfflineKeyRecord, SignResult } from './types.js';

// Curve code, the BIP-39 word list and bcrypt load only when an operation needs them, so that
// listing or showing keys starts fast.
const loadKeys = (): Promise<typeof import('./keys.js')> => import('./keys.js');
const loadHd = (): Promise<typeof import('./hd.js')> => import('./hd.js');
const loadArmor = (): Promise<typeof import('./armor.js')> => import('./armor.js');

/** Letters, digits and `_ . @ + -`, up to 64, not starting with `.` or `-` (safe as a file name and a CLI argument). */
const KEY_NAME_PATTERN = /^[A-Za-z0-9_@+][A-Za-z0-9_.@+-]{0,63}$/u;

export function isValidKeyName(name: string): boolean {
  return KEY_NAME_PATTERN.test(name);
}

export function checkKeyName(name: string): string {
  if (!isValidKeyName(name)) {
    throw new TokendError('INVALID_ARGUMENT', `invalid key name "${name}"`, {
      hint: "use 1-64 letters, digits or '_', '.', '@', '+', '-', not starting with '.' or '-'",
    });
  }
  return name;
}

function keyNotFound(name: string): TokendError {
  return new TokendError('KEY_NOT_FOUND', `key "${name}" not found`, { hint: 'list the keys with: tokend keys list' });
}

/** Operations that need the private key refuse a multisig key with one clear line. */
function requireLocal(key: StoredKey, what: string): StoredLocalKey {
  if (key.type === 'offline') {
    throw new TokendError('INVALID_ARGUMENT', `key "${key.name}" is an offline key (public key only): it cannot ${what}`, {
      hint: 'sign where its private key is, or import it with `tokend keys add NAME --recover` / `keys import`',
    });
  }
  if (key.type === 'multi') {
    throw new TokendError('INVALID_ARGUMENT', `key "${key.name}" is an offline multisig key: it cannot ${what}`, {
      hint: 'each member signs with its own key: tokend tx sign FILE --from MEMBER --multisig ' + toAccountAddress(key.address),
    });
  }
  return key;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The public part of a stored key, as a fresh object (callers may not mutate the store). */
function toRecord(key: StoredLocalKey): KeyRecord;
function toRecord(key: StoredKey): KeyringRecord;
function toRecord(key: StoredKey): KeyringRecord {
  if (key.type === 'offline') {
    return { name: key.name, type: 'offline', algo: key.algo, pubKey: Uint8Array.from(key.pubKey), address: Uint8Array.from(key.address), ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }) };
  }
  if (key.type === 'multi') {
    return {
      name: key.name,
      type: 'multi',
      threshold: key.threshold,
      members: key.members.map((m) => ({ algo: m.algo, pubKey: Uint8Array.from(m.pubKey) })),
      address: Uint8Array.from(key.address),
      ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }),
    };
  }
  return {
    name: key.name,
    type: key.type,
    algo: key.algo,
    pubKey: Uint8Array.from(key.pubKey),
    address: Uint8Array.from(key.address),
    ...(key.hdPath === undefined ? {} : { hdPath: key.hdPath }),
    ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }),
  };
}

export class StoreKeyring implements Keyring {
  readonly backend: KeyringBackendName;

  constructor(private readonly store: KeyStore) {
    this.backend = store.backend;
  }

  async list(): Promise<KeyringRecord[]> {
    const keys = await this.store.listKeys();
    return keys.map((key) => toRecord(key)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async get(name: string): Promise<KeyRecord> {
    return toRecord(requireLocal(await this.load(name), 'be used here'));
  }

  async record(nameOrAddress: string): Promise<KeyringRecord> {
    return toRecord(await this.locate(nameOrAddress));
  }

  async prepareWrite(): Promise<void> {
    await this.store.prepareWrite?.();
  }

  async has(name: string): Promise<boolean> {
    if (!isValidKeyName(name)) return false;
    return (await this.store.readKey(name)) !== undefined;
  }

  async find(nameOrAddress: string): Promise<KeyRecord> {
    return toRecord(requireLocal(await this.locate(nameOrAddress), 'sign by itself'));
  }

  async create(options: CreateKeyOptions): Promise<KeyRecord> {
    const name = checkKeyName(options.name);
    const { parseKeyAlgo } = await loadKeys();
    const { privateKeyFromMnemonic } = await loadHd();
    const algo = parseKeyAlgo(options.algo);
    const { privateKey, hdPath } = privateKeyFromMnemonic({
      mnemonic: options.mnemonic,
      algo,
      hdPath: options.hdPath,
      bip39Passphrase: options.bip39Passphrase,
    });
    return this.addKey(name, algo, privateKey, hdPath);
  }

  async importPrivateKey(name: string, algo: KeyAlgo, privKey: Uint8Array): Promise<KeyRecord> {
    checkKeyName(name);
    const { parseKeyAlgo, checkPrivateKey } = await loadKeys();
    return this.addKey(name, parseKeyAlgo(algo), Uint8Array.from(checkPrivateKey(privKey)), undefined);
  }

  async addOffline(name: string, algo: KeyAlgo, pubKey: Uint8Array): Promise<OfflineKeyRecord> {
    checkKeyName(name);
    const { parseKeyAlgo, addressFromPublicKey } = await loadKeys();
    const address = addressFromPublicKey(parseKeyAlgo(algo), pubKey);
    await this.ensureNameFree(name);
    const existing = await this.lookupAddress(address);
    if (existing) {
      throw new TokendError('KEY_EXISTS', `the same key is already stored as "${existing.name}" (${toAccountAddress(address)})`, { hint: `use that key, or rename it: tokend keys rename ${existing.name} ${name}` });
    }
    const key: OfflineKeyRecord = { name, type: 'offline', algo, pubKey: Uint8Array.from(pubKey), address, createdAt: new Date().toISOString() };
    await this.store.writeKey(key);
    try {
      await this.store.writeAddressIndex(address, name);
    } catch (err) {
      await this.store.deleteKey(name).catch(() => undefined);
      throw err;
    }
    return toRecord(key) as OfflineKeyRecord;
  }

  async addMultisig(options: CreateMultisigOptions): Promise<MultisigKeyRecord> {
    const name = checkKeyName(options.name);
    const { checkMultisig, multisigKeyAddress } = await import('./multisig.js');
    const members = checkMultisig(options.threshold, options.members, options.sort ?? true);
    const address = multisigKeyAddress(options.threshold, members);
    await this.ensureNameFree(name);
    const existing = await this.lookupAddress(address);
    if (existing) {
      throw new TokendError('KEY_EXISTS', `the same multisig key is already stored as "${existing.name}" (${toAccountAddress(address)})`, {
        hint: `use that key, or rename it: tokend keys rename ${existing.name} ${name}`,
      });
    }
    const key: MultisigKeyRecord = { name, type: 'multi', threshold: options.threshold, members, address, createdAt: new Date().toISOString() };
    await this.store.writeKey(key);
    try {
      await this.store.writeAddressIndex(address, name);
    } catch (err) {
      await this.store.deleteKey(name).catch(() => undefined);
      throw err;
    }
    return toRecord(key) as MultisigKeyRecord;
  }

  async delete(name: string): Promise<void> {
    const key = await this.load(name);
    await this.store.deleteKey(name);
    // A failure here leaves a stale index entry, which lookups ignore (they check the key).
    if ((await this.store.readAddressIndex(key.address)) === name) await this.store.deleteAddressIndex(key.address);
  }

  async rename(oldName: string, newName: string): Promise<KeyringRecord> {
    checkKeyName(newName);
    const key = await this.load(oldName);
    if (oldName === newName || (await this.store.readKey(newName)) !== undefined) {
      throw new TokendError('KEY_EXISTS', `a key named "${newName}" already exists`, {
        hint: 'choose another name, or delete that key first',
      });
    }
    const renamed: StoredKey = { ...key, name: newName };
    await this.store.writeKey(renamed);
    try {
      await this.store.writeAddressIndex(key.address, newName);
      try {
        await this.store.deleteKey(oldName);
      } catch (err) {
        await this.store.writeAddressIndex(key.address, oldName).catch(() => undefined);
        throw err;
      }
    } catch (err) {
      await this.store.deleteKey(newName).catch(() => undefined);
      throw err;
    }
    return toRecord(renamed);
  }

  async sign(nameOrAddress: string, bytes: Uint8Array): Promise<SignResult> {
    const key = requireLocal(await this.locate(nameOrAddress), 'sign by itself');
    const { signMessage } = await loadKeys();
    return { signature: signMessage(key.algo, key.privKey, bytes), pubKey: Uint8Array.from(key.pubKey), algo: key.algo };
  }

  async exportArmor(name: string, armorPassphrase: string): Promise<string> {
    const key = requireLocal(await this.load(name), 'be exported (it has no private key)');
    const { encryptArmorPrivateKey } = await loadArmor();
    return encryptArmorPrivateKey({ algo: key.algo, privateKey: key.privKey, passphrase: armorPassphrase });
  }

  async importArmor(name: string, armor: string, armorPassphrase: string): Promise<KeyRecord> {
    checkKeyName(name);
    const { checkPrivateKeyArmor, decryptArmorPrivateKey } = await loadArmor();
    checkPrivateKeyArmor(armor);
    await this.ensureNameFree(name); // before the slow bcrypt
    const { algo, privateKey } = await decryptArmorPrivateKey(armor, armorPassphrase);
    return this.addKey(name, algo, privateKey, undefined);
  }

  async exportPrivateKeyHex(name: string): Promise<string> {
    return Buffer.from(requireLocal(await this.load(name), 'be exported (it has no private key)').privKey).toString('hex');
  }

  private async load(name: string): Promise<StoredKey> {
    if (!isValidKeyName(name)) throw keyNotFound(name);
    const key = await this.store.readKey(name);
    if (!key) throw keyNotFound(name);
    return key;
  }

  /** By name, else by address through the index (an index entry must match its key). */
  private async locate(nameOrAddress: string): Promise<StoredKey> {
    const text = nameOrAddress.trim();
    if (isValidKeyName(text)) {
      const byName = await this.store.readKey(text);
      if (byName) return byName;
    }
    if (!looksLikeAddress(text)) throw keyNotFound(text);
    const address = parseAddress(text);
    const byAddress = await this.lookupAddress(address);
    if (!byAddress) {
      throw new TokendError('KEY_NOT_FOUND', `no key with address ${text}`, { hint: 'list the keys with: tokend keys list' });
    }
    return byAddress;
  }

  private async lookupAddress(address: Uint8Array): Promise<StoredKey | undefined> {
    const name = await this.store.readAddressIndex(address);
    if (name === undefined || !isValidKeyName(name)) return undefined;
    const key = await this.store.readKey(name);
    return key && sameBytes(key.address, address) ? key : undefined;
  }

  private async ensureNameFree(name: string): Promise<void> {
    if ((await this.store.readKey(name)) !== undefined) {
      throw new TokendError('KEY_EXISTS', `a key named "${name}" already exists`, {
        hint: `choose another name, or delete it first: tokend keys delete ${name}`,
      });
    }
  }

  private async addKey(name: string, algo: KeyAlgo, privateKey: Uint8Array, hdPath: string | undefined): Promise<KeyRecord> {
    const { keyPairFromPrivateKey } = await loadKeys();
    const pair = keyPairFromPrivateKey(algo, privateKey);
    await this.ensureNameFree(name);
    const existing = await this.lookupAddress(pair.address);
    if (existing) {
      throw new TokendError('KEY_EXISTS', `the same key is already stored as "${existing.name}" (${toAccountAddress(pair.address)})`, {
        hint: `use that key, or rename it: tokend keys rename ${existing.name} ${name}`,
      });
    }
    const key: StoredLocalKey = {
      name,
      type: 'local',
      algo,
      pubKey: pair.pubKey,
      address: pair.address,
      ...(hdPath === undefined ? {} : { hdPath }),
      createdAt: new Date().toISOString(),
      privKey: privateKey,
    };
    await this.store.writeKey(key);
    try {
      await this.store.writeAddressIndex(key.address, name);
    } catch (err) {
      await this.store.deleteKey(name).catch(() => undefined);
      throw err;
    }
    return toRecord(key);
  }
}

