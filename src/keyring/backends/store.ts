/**
 * The storage contract under every keyring backend, and the one JSON form of a stored key.
 *
 * A backend only stores and fetches: two maps, name → key (record + private key) and
 * address → name (the SDK's `<name>.info` and `<hexaddr>.address`). All rules (name checks,
 * duplicates, rollback of half-done operations, signing, armor) live once in StoreKeyring
 * (src/keyring/keyring.ts).
 */
import { TokendError } from '../../util/errors.js';
import { addressFromPublicKey, isKeyAlgo, publicKeyFromPrivateKey } from '../keys.js';
import { multisigKeyAddress } from '../multisig.js';
import type { KeyRecord, KeyringBackendName, MultisigKeyRecord, MultisigMember, OfflineKeyRecord } from '../types.js';

/** A local key with its private key. */
export interface StoredLocalKey extends KeyRecord {
  privKey: Uint8Array;
}

/** What a backend stores under a name: a local key, another party's public key, or a multisig key. */
export type StoredKey = StoredLocalKey | OfflineKeyRecord | MultisigKeyRecord;

export interface KeyStore {
  readonly backend: KeyringBackendName;
  /** Optional: get ready to write (e.g. ask for a passphrase) without writing anything. */
  prepareWrite?(): Promise<void>;
  listKeys(): Promise<StoredKey[]>;
  readKey(name: string): Promise<StoredKey | undefined>;
  /** Creates or replaces the entry of `key.name`; atomic (all or nothing). */
  writeKey(key: StoredKey): Promise<void>;
  /** No error when absent. */
  deleteKey(name: string): Promise<void>;
  readAddressIndex(address: Uint8Array): Promise<string | undefined>;
  writeAddressIndex(address: Uint8Array, name: string): Promise<void>;
  /** No error when absent. */
  deleteAddressIndex(address: Uint8Array): Promise<void>;
}

/** Version 1 of the JSON form of an offline key: a public key, no secret. */
interface StoredOfflineJson {
  version: 1;
  name: string;
  type: 'offline';
  algo: string;
  /** Lower-case hex. */
  address: string;
  /** Base64 of the compressed key. */
  pubKey: string;
  createdAt?: string;
}

/** Version 1 of the JSON form of a multisig key: no secret, the members in order. */
interface StoredMultisigJson {
  version: 1;
  name: string;
  type: 'multi';
  /** Lower-case hex. */
  address: string;
  threshold: number;
  /** Public keys in base64. */
  members: { algo: string; pubKey: string }[];
  createdAt?: string;
}

/** Version 1 of the JSON form of a stored key (also the plaintext inside encrypted entries). */
interface StoredKeyJson {
  version: 1;
  name: string;
  type: 'local';
  algo: string;
  /** Lower-case hex. */
  address: string;
  /** Base64 of the compressed key. */
  pubKey: string;
  hdPath?: string;
  createdAt?: string;
  /** Lower-case hex. Only the `test` backend writes this form to disk unencrypted. */
  privKey: string;
}

export function addressHex(address: Uint8Array): string {
  return Buffer.from(address).toString('hex');
}

export function serializeStoredKey(key: StoredKey): string {
  if (key.type === 'offline') {
    const offline: StoredOfflineJson = {
      version: 1,
      name: key.name,
      type: 'offline',
      algo: key.algo,
      address: addressHex(key.address),
      pubKey: Buffer.from(key.pubKey).toString('base64'),
      ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }),
    };
    return JSON.stringify(offline);
  }
  if (key.type === 'multi') {
    const multi: StoredMultisigJson = {
      version: 1,
      name: key.name,
      type: 'multi',
      address: addressHex(key.address),
      threshold: key.threshold,
      members: key.members.map((m) => ({ algo: m.algo, pubKey: Buffer.from(m.pubKey).toString('base64') })),
      ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }),
    };
    return JSON.stringify(multi);
  }
  const json: StoredKeyJson = {
    version: 1,
    name: key.name,
    type: key.type,
    algo: key.algo,
    address: addressHex(key.address),
    pubKey: Buffer.from(key.pubKey).toString('base64'),
    ...(key.hdPath === undefined ? {} : { hdPath: key.hdPath }),
    ...(key.createdAt === undefined ? {} : { createdAt: key.createdAt }),
    privKey: Buffer.from(key.privKey).toString('hex'),
  };
  return JSON.stringify(json);
}

function corrupted(where: string, reason: string): TokendError {
  return new TokendError('INTERNAL', `keyring entry ${where} is corrupted: ${reason}`, {
    hint: 'restore the key from its mnemonic or an exported armor',
  });
}

/**
 * Parses and checks a stored key: the public key and address must follow from the private key,
 * so a damaged or tampered entry is caught before it signs anything.
 */
export function deserializeStoredKey(text: string, where: string, expectedName?: string): StoredKey {
  let json: Partial<StoredKeyJson>;
  try {
    json = JSON.parse(text) as Partial<StoredKeyJson>;
  } catch {
    throw corrupted(where, 'not JSON');
  }
  if (json.version !== 1) throw corrupted(where, `unknown version ${String(json.version)}`);
  if (typeof json.name !== 'string' || json.name === '') throw corrupted(where, 'no name');
  if (expectedName !== undefined && json.name !== expectedName) throw corrupted(where, `it holds the key "${json.name}"`);
  if ((json as { type?: unknown }).type === 'multi') return deserializeMultisig(json as unknown as Partial<StoredMultisigJson>, where);
  if ((json as { type?: unknown }).type === 'offline') return deserializeOffline(json as unknown as Partial<StoredOfflineJson>, where);
  if (typeof json.algo !== 'string' || !isKeyAlgo(json.algo)) throw corrupted(where, `unknown algo ${String(json.algo)}`);
  if (typeof json.privKey !== 'string' || !/^[0-9a-f]{64}$/u.test(json.privKey)) throw corrupted(where, 'bad private key');
  const privKey = Uint8Array.from(Buffer.from(json.privKey, 'hex'));
  let pubKey: Uint8Array;
  let address: Uint8Array;
  try {
    pubKey = publicKeyFromPrivateKey(privKey);
    address = addressFromPublicKey(json.algo, pubKey);
  } catch {
    throw corrupted(where, 'invalid private key');
  }
  if (json.pubKey !== Buffer.from(pubKey).toString('base64') || json.address !== addressHex(address)) {
    throw corrupted(where, 'public key or address does not match the private key');
  }
  return {
    name: json.name,
    type: 'local',
    algo: json.algo,
    pubKey,
    address,
    ...(typeof json.hdPath === 'string' ? { hdPath: json.hdPath } : {}),
    ...(typeof json.createdAt === 'string' ? { createdAt: json.createdAt } : {}),
    privKey,
  };
}

/** An offline entry: a valid public key whose address is the stored one. */
function deserializeOffline(json: Partial<StoredOfflineJson>, where: string): OfflineKeyRecord {
  if (typeof json.algo !== 'string' || !isKeyAlgo(json.algo) || typeof json.pubKey !== 'string') throw corrupted(where, 'bad offline key');
  const pubKey = Uint8Array.from(Buffer.from(json.pubKey, 'base64'));
  let address: Uint8Array;
  try {
    address = addressFromPublicKey(json.algo, pubKey);
  } catch {
    throw corrupted(where, 'invalid public key');
  }
  if (json.address !== addressHex(address)) throw corrupted(where, 'the address does not match the public key');
  return { name: json.name!, type: 'offline', algo: json.algo, pubKey, address, ...(typeof json.createdAt === 'string' ? { createdAt: json.createdAt } : {}) };
}

/** A multisig entry: members must be valid keys and the address must follow from them. */
function deserializeMultisig(json: Partial<StoredMultisigJson>, where: string): MultisigKeyRecord {
  if (!Array.isArray(json.members) || json.members.length === 0) throw corrupted(where, 'no multisig members');
  const members: MultisigMember[] = json.members.map((member, i) => {
    if (typeof member?.algo !== 'string' || !isKeyAlgo(member.algo) || typeof member.pubKey !== 'string') throw corrupted(where, `bad multisig member ${i}`);
    const pubKey = Uint8Array.from(Buffer.from(member.pubKey, 'base64'));
    try {
      addressFromPublicKey(member.algo, pubKey);
    } catch {
      throw corrupted(where, `bad public key of multisig member ${i}`);
    }
    return { algo: member.algo, pubKey };
  });
  const threshold = json.threshold;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1 || threshold > members.length) throw corrupted(where, `bad multisig threshold ${String(threshold)}`);
  const address = multisigKeyAddress(threshold, members);
  if (json.address !== addressHex(address)) throw corrupted(where, 'the address does not match the multisig members');
  return {
    name: json.name!,
    type: 'multi',
    threshold,
    members,
    address,
    ...(typeof json.createdAt === 'string' ? { createdAt: json.createdAt } : {}),
  };
}

export function serializeAddressIndex(name: string): string {
  return JSON.stringify({ version: 1, name });
}

export function deserializeAddressIndex(text: string, where: string): string {
  try {
    const json = JSON.parse(text) as { version?: unknown; name?: unknown };
    if (json.version === 1 && typeof json.name === 'string') return json.name;
  } catch {
    // fall through
  }
  throw corrupted(where, 'bad address index');
}
