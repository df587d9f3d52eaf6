/**
 * `os` backend: the operating system's credential store through keytar (Secret Service over
 * D-Bus on Linux, Keychain on macOS, Credential Manager on Windows).
 *
 * keytar is a native, optional dependency, so it is imported here only, lazily, and its absence
 * (or an unreachable D-Bus / Secret Service) is a clear KEYRING_UNAVAILABLE error rather than a
 * crash. Entries live under one service name (default `tokend`) with the SDK's account names:
 * `<name>.info` (the key) and `<hexaddr>.address` (the address index).
 */
import { TokendError } from '../../util/errors.js';
import {
  addressHex,
  deserializeAddressIndex,
  deserializeStoredKey,
  serializeAddressIndex,
  serializeStoredKey,
  type KeyStore,
  type StoredKey,
} from './store.js';

export const DEFAULT_OS_SERVICE_NAME = 'tokend';
const KEY_SUFFIX = '.info';
const ADDRESS_SUFFIX = '.address';
/** An account name no key can have (names cannot start with '.'). */
const PROBE_ACCOUNT = '.tokend-probe';

/** The part of keytar's API used here. */
interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

function unavailable(reason: string, cause?: unknown): TokendError {
  return new TokendError('KEYRING_UNAVAILABLE', `the os keyring is not available: ${reason}`, {
    hint: 'use --keyring-backend file (encrypted) or test',
    cause,
  });
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0].trim() || 'unknown error';
}

/** libsecret's messages, with what they mean for the user in front (the original kept in brackets). */
function explainKeytarFailure(err: unknown): string {
  const original = firstLine(err);
  if (/autolaunch D-Bus|Could not connect/iu.test(original)) {
    return `no D-Bus session bus is reachable (${original})`;
  }
  if (/org\.freedesktop\.secrets/iu.test(original)) {
    return `no Secret Service is running on the session bus, e.g. gnome-keyring (${original})`;
  }
  if (/locked collection/iu.test(original)) {
    return `the login keyring is locked (${original})`;
  }
  return original;
}

function isKeytarApi(value: unknown): value is KeytarApi {
  const candidate = value as Partial<Record<keyof KeytarApi, unknown>> | undefined;
  return (
    typeof candidate?.getPassword === 'function' &&
    typeof candidate.setPassword === 'function' &&
    typeof candidate.deletePassword === 'function' &&
    typeof candidate.findCredentials === 'function'
  );
}

async function loadKeytar(specifier: string): Promise<KeytarApi> {
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (err) {
    throw unavailable(`the keytar module could not be loaded (${firstLine(err)})`, err);
  }
  // keytar is CommonJS: its exports arrive as `default` (and maybe as named exports too).
  const api = (loaded as { default?: unknown }).default ?? loaded;
  if (!isKeytarApi(api)) throw unavailable('the keytar module does not have the expected API');
  return api;
}

export interface OsKeyStoreOptions {
  serviceName?: string;
  /** Module to import instead of `keytar` (tests). */
  keytarModule?: string;
}

/** Loads keytar and probes the credential store with a cheap read; throws KEYRING_UNAVAILABLE. */
export async function openOsKeyStore(options: OsKeyStoreOptions = {}): Promise<OsKeyStore> {
  const keytar = await loadKeytar(options.keytarModule ?? 'keytar');
  const store = new OsKeyStore(keytar, options.serviceName ?? DEFAULT_OS_SERVICE_NAME);
  await store.call(() => keytar.getPassword(store.serviceName, PROBE_ACCOUNT));
  return store;
}

export class OsKeyStore implements KeyStore {
  readonly backend = 'os' as const;

  constructor(
    private readonly keytar: KeytarApi,
    readonly serviceName: string,
  ) {}

  /** Runs a keytar call, turning its failures into KEYRING_UNAVAILABLE. */
  async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (err) {
      throw unavailable(explainKeytarFailure(err), err);
    }
  }

  async listKeys(): Promise<StoredKey[]> {
    const credentials = await this.call(() => this.keytar.findCredentials(this.serviceName));
    return credentials
      .filter((credential) => credential.account.endsWith(KEY_SUFFIX))
      .map((credential) =>
        deserializeStoredKey(credential.password, this.where(credential.account), credential.account.slice(0, -KEY_SUFFIX.length)),
      );
  }

  async readKey(name: string): Promise<StoredKey | undefined> {
    const account = `${name}${KEY_SUFFIX}`;
    const secret = await this.call(() => this.keytar.getPassword(this.serviceName, account));
    return secret === null ? undefined : deserializeStoredKey(secret, this.where(account), name);
  }

  async writeKey(key: StoredKey): Promise<void> {
    await this.call(() => this.keytar.setPassword(this.serviceName, `${key.name}${KEY_SUFFIX}`, serializeStoredKey(key)));
  }

  async deleteKey(name: string): Promise<void> {
    await this.call(() => this.keytar.deletePassword(this.serviceName, `${name}${KEY_SUFFIX}`));
  }

  async readAddressIndex(address: Uint8Array): Promise<string | undefined> {
    const account = `${addressHex(address)}${ADDRESS_SUFFIX}`;
    const secret = await this.call(() => this.keytar.getPassword(this.serviceName, account));
    return secret === null ? undefined : deserializeAddressIndex(secret, this.where(account));
  }

  async writeAddressIndex(address: Uint8Array, name: string): Promise<void> {
    await this.call(() =>
      this.keytar.setPassword(this.serviceName, `${addressHex(address)}${ADDRESS_SUFFIX}`, serializeAddressIndex(name)),
    );
  }

  async deleteAddressIndex(address: Uint8Array): Promise<void> {
    await this.call(() => this.keytar.deletePassword(this.serviceName, `${addressHex(address)}${ADDRESS_SUFFIX}`));
  }

  private where(account: string): string {
    return `"${account}" (os keyring service "${this.serviceName}")`;
  }
}
