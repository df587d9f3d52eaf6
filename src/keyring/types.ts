/**
 * Backend-neutral keyring interfaces.
 *
 * Every backend (`memory`, `test`, `file`, `os`) implements `Keyring`; callers never import a
 * backend module directly but go through `openKeyring()` (src/keyring/open.ts), which is the only
 * place that picks and lazily loads an implementation. The contract test suite in
 * test/keyring/contract.ts runs the same assertions against every backend.
 *
 * What a keyring stores per key: its name, algorithm, public key, address, the HD path it was
 * derived along (if any) and the private key. It never stores the mnemonic: whoever creates a key
 * from a mnemonic shows it to the user once and forgets it.
 *
 * Errors are `TokendError`s: KEY_NOT_FOUND, KEY_EXISTS, INVALID_ARGUMENT, INVALID_MNEMONIC,
 * INVALID_ADDRESS, INVALID_PASSWORD, PASSWORD_MISMATCH, WRONG_PASSWORD, KEYRING_UNAVAILABLE.
 * A failing operation leaves the keyring as it was.
 */

/** Key algorithms: Ethermint's `eth_secp256k1` (the default) and Cosmos' `secp256k1`. */
export type KeyAlgo = 'eth_secp256k1' | 'secp256k1';

export const KEY_ALGOS: readonly KeyAlgo[] = ['eth_secp256k1', 'secp256k1'];

export const DEFAULT_KEY_ALGO: KeyAlgo = 'eth_secp256k1';

export type KeyringBackendName = 'os' | 'file' | 'test' | 'memory';

export const KEYRING_BACKENDS: readonly KeyringBackendName[] = ['os', 'file', 'test', 'memory'];

/** Public facts about a stored key (never the secret). */
export interface KeyRecord {
  name: string;
  /** A key whose private key the keyring holds (multisig keys are `MultisigKeyRecord`s). */
  type: 'local';
  algo: KeyAlgo;
  /** 33-byte compressed secp256k1 public key. */
  pubKey: Uint8Array;
  /** 20-byte account address (derivation depends on `algo`). */
  address: Uint8Array;
  /** Absolute BIP-32 path the key was derived along; absent for imported private keys. */
  hdPath?: string;
  /** ISO-8601 time of creation in this keyring. */
  createdAt?: string;
}

/**
 * A single key held elsewhere: its public key only (`keys add NAME --pubkey JSON`), e.g. another
 * member of a multisig. It cannot sign.
 */
export interface OfflineKeyRecord {
  name: string;
  type: 'offline';
  algo: KeyAlgo;
  /** 33-byte compressed secp256k1 public key. */
  pubKey: Uint8Array;
  address: Uint8Array;
  createdAt?: string;
}

/** One member key of a multisig. */
export interface MultisigMember {
  algo: KeyAlgo;
  /** 33-byte compressed secp256k1 public key. */
  pubKey: Uint8Array;
}

/**
 * An offline threshold multisig key (`keys add NAME --multisig a,b,c --multisig-threshold 2`):
 * public keys only, in the order they form the /cosmos.crypto.multisig.LegacyAminoPubKey.
 * Its address is sha256 of the key's amino encoding, truncated to 20 bytes.
 */
export interface MultisigKeyRecord {
  name: string;
  type: 'multi';
  threshold: number;
  members: MultisigMember[];
  address: Uint8Array;
  createdAt?: string;
}

/** Anything a keyring stores. */
export type KeyringRecord = KeyRecord | OfflineKeyRecord | MultisigKeyRecord;

export interface CreateMultisigOptions {
  name: string;
  /** Signatures needed: 1 ≤ threshold ≤ members. */
  threshold: number;
  members: MultisigMember[];
  /** Sort members by address, as `keys add --multisig` does unless --nosort (default true). */
  sort?: boolean;
}

/**
 * Where passphrases come from. The CLI supplies one that prompts on a TTY (or reads stdin lines
 * when stdin is not a TTY); tests supply scripted answers.
 */
export interface PassphraseSource {
  read(prompt: string): Promise<string>;
}

export interface CreateKeyOptions {
  name: string;
  mnemonic: string;
  algo: KeyAlgo;
  /** Absolute or relative path; build one with `buildHdPath()` (src/keyring/hd.ts). */
  hdPath: string;
  bip39Passphrase?: string;
}

export interface SignResult {
  signature: Uint8Array;
  pubKey: Uint8Array;
  algo: KeyAlgo;
}

export interface Keyring {
  readonly backend: KeyringBackendName;
  /**
   * Get ready to write without writing anything: the `file` backend asks for its passphrase now
   * (twice when the keyring is new), so a command's prompts always come in the same order.
   */
  prepareWrite(): Promise<void>;
  /** All keys (local, offline and multisig), sorted by name. */
  list(): Promise<KeyringRecord[]>;
  /** A local key. KEY_NOT_FOUND (hint `tokend keys list`) when absent; INVALID_ARGUMENT for an offline or multisig key. */
  get(name: string): Promise<KeyRecord>;
  /** A local key by name first, then by bech32 (any of our prefixes) or 0x hex address. */
  find(nameOrAddress: string): Promise<KeyRecord>;
  /** Any record (local, offline or multisig), by name or address. */
  record(nameOrAddress: string): Promise<KeyringRecord>;
  has(name: string): Promise<boolean>;
  /** KEY_EXISTS if the name is taken or the same address is stored under another name. */
  create(opts: CreateKeyOptions): Promise<KeyRecord>;
  importPrivateKey(name: string, algo: KeyAlgo, privKey: Uint8Array): Promise<KeyRecord>;
  /** Stores another party's public key (an offline key); INVALID_ARGUMENT for a key that is not a valid point. */
  addOffline(name: string, algo: KeyAlgo, pubKey: Uint8Array): Promise<OfflineKeyRecord>;
  /** Stores an offline multisig key; INVALID_ARGUMENT for a bad threshold or repeated members. */
  addMultisig(opts: CreateMultisigOptions): Promise<MultisigKeyRecord>;
  delete(name: string): Promise<void>;
  rename(oldName: string, newName: string): Promise<KeyringRecord>;
  /** Signs with the key's algorithm (eth: keccak256 → 65 B r||s||v; cosmos: sha256 → 64 B r||s). */
  sign(nameOrAddress: string, bytes: Uint8Array): Promise<SignResult>;
  /** Cosmos-SDK compatible `-----BEGIN TENDERMINT PRIVATE KEY-----` armor (bcrypt + xsalsa20). */
  exportArmor(name: string, armorPassphrase: string): Promise<string>;
  importArmor(name: string, armor: string, armorPassphrase: string): Promise<KeyRecord>;
  /** Lowercase hex without 0x, for `keys export --unarmored-hex --unsafe`. */
  exportPrivateKeyHex(name: string): Promise<string>;
}

export interface OpenKeyringOptions {
  backend: KeyringBackendName;
  /** The node home (`--home`); file backends live in `<home>/keyring-<backend>/`. */
  home: string;
  /** Required by the `file` backend. */
  passphrase?: PassphraseSource;
  /** Secret Service / keychain service name of the `os` backend; default `tokend`. */
  serviceName?: string;
  /**
   * How many times the `file` backend asks for the passphrase of an existing keyring before
   * failing with WRONG_PASSWORD. Default 1, so a script feeding stdin lines never has a line
   * consumed by a retry; the CLI may pass 3 on a TTY.
   */
  passphraseAttempts?: number;
}
