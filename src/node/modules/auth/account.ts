/**
 * Accounts and public keys as the state machine sees them, and their stored form.
 *
 * Stored value = the account packed in a google.protobuf.Any (the SDK's MarshalInterface):
 *   /ethermint.types.v1.EthAccount   keyed accounts (new recipients, genesis accounts we create);
 *                                    code_hash = keccak256("") until the EVM gives it code
 *   /cosmos.auth.v1beta1.BaseAccount accepted from genesis files and kept as given
 *   /cosmos.auth.v1beta1.ModuleAccount module accounts (fee_collector, bonded_tokens_pool, …)
 *   /ibc.applications.interchain_accounts.v1.InterchainAccount accounts an IBC controller chain
 *                                    acts through (created by the ICA host; no key)
 *
 * Public keys: /ethermint.crypto.v1.ethsecp256k1.PubKey and its Cosmos-EVM twin
 * /cosmos.evm.crypto.v1.ethsecp256k1.PubKey (same bytes; stored as the Ethermint one),
 * /cosmos.crypto.secp256k1.PubKey, /cosmos.crypto.ed25519.PubKey (decoded so the ante chain can
 * reject it with the SDK's error), /cosmos.crypto.multisig.LegacyAminoPubKey (threshold and member
 * keys; `key` holds its amino encoding, whose sha256 gives the address).
 *
 * Decoding is memoised per stored value object: the store hands back the same Uint8Array for an
 * unchanged entry, so the four ante reads of a signer decode its account once. Account objects
 * are immutable; update with `{ ...account, sequence }`.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { BaseAccountSchema, ModuleAccountSchema, type BaseAccount } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { LegacyAminoPubKeySchema } from '../../../gen/cosmos/crypto/multisig/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { PubKeySchema as EvmEthPubKeySchema } from '../../../gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { EthAccountSchema } from '../../../gen/ethermint/types/v1/account_pb.js';
import { InterchainAccountSchema } from '../../../gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { keccak256, sha256 } from '../../../keyring/hash.js';
import { aminoKeyAddress } from '../../../keyring/amino.js';
import { addressFromPublicKey } from '../../../keyring/keys.js';
import { aminoPubKeyBytes } from '../../codec/aminoPubKey.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { SdkErrors, isSdkError } from '../shared/errors.js';
import { toHexString } from '../shared/keys.js';
import { ProtoReader, ProtoWriter, delimitedSize, utf8Decode, varintSize } from '../shared/proto.js';

export type PubKeyAlgo = 'eth_secp256k1' | 'secp256k1' | 'ed25519' | 'multisig';

export interface PubKey {
  readonly algo: PubKeyAlgo;
  /** The key bytes (33-byte compressed secp256k1, 32-byte ed25519); for multisig its amino encoding. */
  readonly key: Uint8Array;
  /** The type URL it is stored under. */
  readonly typeUrl: string;
  /** The Any it came in (for multisig: kept to re-encode faithfully). */
  readonly any?: Any;
  /** Multisig only: the threshold and the member keys, in order. */
  readonly multisig?: { readonly threshold: number; readonly pubKeys: readonly PubKey[] };
}

export const ETH_PUBKEY_TYPE_URL = `/${EthPubKeySchema.typeName}`;
export const EVM_ETH_PUBKEY_TYPE_URL = `/${EvmEthPubKeySchema.typeName}`;
export const SECP256K1_PUBKEY_TYPE_URL = `/${Secp256k1PubKeySchema.typeName}`;
export const ED25519_PUBKEY_TYPE_URL = `/${Ed25519PubKeySchema.typeName}`;
export const MULTISIG_PUBKEY_TYPE_URL = `/${LegacyAminoPubKeySchema.typeName}`;
export const ETH_ACCOUNT_TYPE_URL = `/${EthAccountSchema.typeName}`;
export const BASE_ACCOUNT_TYPE_URL = `/${BaseAccountSchema.typeName}`;
export const MODULE_ACCOUNT_TYPE_URL = `/${ModuleAccountSchema.typeName}`;
export const INTERCHAIN_ACCOUNT_TYPE_URL = `/${InterchainAccountSchema.typeName}`;

/** keccak256("") as Ethermint prints it: the code hash of an account without code. */
export const EMPTY_CODE_HASH = `0x${toHexString(keccak256(new Uint8Array(0)))}`;

export type AccountKind = 'eth' | 'base' | 'module' | 'interchain';

export interface Account {
  readonly kind: AccountKind;
  readonly address: Uint8Array;
  readonly pubKey: PubKey | undefined;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** EthAccount only. */
  readonly codeHash: string;
  /** ModuleAccount only. */
  readonly name: string;
  readonly permissions: readonly string[];
  /** InterchainAccount only: the owner's controller port ("icacontroller-<owner>"). */
  readonly accountOwner?: string;
}

export function newEthAccount(address: Uint8Array, accountNumber: bigint): Account {
  return { kind: 'eth', address, pubKey: undefined, accountNumber, sequence: 0n, codeHash: EMPTY_CODE_HASH, name: '', permissions: [] };
}

/** An interchain account (ibc-go's NewInterchainAccount over a new base account); not stored. */
export function newInterchainAccount(address: Uint8Array, accountNumber: bigint, accountOwner: string): Account {
  return { kind: 'interchain', address, pubKey: undefined, accountNumber, sequence: 0n, codeHash: '', name: '', permissions: [], accountOwner };
}

export function newModuleAccount(name: string, address: Uint8Array, accountNumber: bigint, permissions: readonly string[]): Account {
  return { kind: 'module', address, pubKey: undefined, accountNumber, sequence: 0n, codeHash: '', name, permissions: [...permissions] };
}

// ------------------------------------------------------------------------------------- pubkeys

/** Decodes a signer's or account's public key Any; throws ErrInvalidPubKey for unknown types. */
export function decodePubKey(any: Any): PubKey {
  try {
    switch (any.typeUrl) {
      case ETH_PUBKEY_TYPE_URL:
      case EVM_ETH_PUBKEY_TYPE_URL:
        return { algo: 'eth_secp256k1', key: fromBinary(EthPubKeySchema, any.value).key, typeUrl: ETH_PUBKEY_TYPE_URL };
      case SECP256K1_PUBKEY_TYPE_URL:
        return { algo: 'secp256k1', key: fromBinary(Secp256k1PubKeySchema, any.value).key, typeUrl: SECP256K1_PUBKEY_TYPE_URL };
      case ED25519_PUBKEY_TYPE_URL:
        return { algo: 'ed25519', key: fromBinary(Ed25519PubKeySchema, any.value).key, typeUrl: ED25519_PUBKEY_TYPE_URL };
      case MULTISIG_PUBKEY_TYPE_URL: {
        const multisig = fromBinary(LegacyAminoPubKeySchema, any.value);
        const pubKeys = multisig.publicKeys.map(decodePubKey);
        return { algo: 'multisig', key: aminoPubKeyBytes(any), typeUrl: MULTISIG_PUBKEY_TYPE_URL, any, multisig: { threshold: multisig.threshold, pubKeys } };
      }
    }
  } catch (err) {
    if (isSdkError(err)) throw err;
    throw SdkErrors.InvalidPubKey.wrap(`cannot decode ${any.typeUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw SdkErrors.InvalidPubKey.wrap(`unrecognized public key type: ${any.typeUrl}`);
}

export function pubKeyToAny(pubKey: PubKey): Any {
  switch (pubKey.algo) {
    case 'eth_secp256k1':
      return create(AnySchema, { typeUrl: ETH_PUBKEY_TYPE_URL, value: toBinary(EthPubKeySchema, create(EthPubKeySchema, { key: pubKey.key })) });
    case 'secp256k1':
      return create(AnySchema, { typeUrl: SECP256K1_PUBKEY_TYPE_URL, value: toBinary(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: pubKey.key })) });
    case 'ed25519':
      return create(AnySchema, { typeUrl: ED25519_PUBKEY_TYPE_URL, value: toBinary(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: pubKey.key })) });
    case 'multisig':
      return pubKey.any ?? create(AnySchema, { typeUrl: MULTISIG_PUBKEY_TYPE_URL, value: new Uint8Array(0) });
  }
}

const derivedAddresses = new Map<string, Uint8Array | undefined>();
const DERIVED_LIMIT = 100_000;

/** The address a public key controls (undefined when it cannot be derived, e.g. a bad point). Memoised. */
export function pubKeyAddress(pubKey: PubKey): Uint8Array | undefined {
  const key = `${pubKey.algo}:${Buffer.from(pubKey.key.buffer, pubKey.key.byteOffset, pubKey.key.byteLength).toString('latin1')}`;
  if (derivedAddresses.has(key)) return derivedAddresses.get(key);
  const address = derivePubKeyAddress(pubKey);
  if (derivedAddresses.size >= DERIVED_LIMIT) derivedAddresses.clear();
  derivedAddresses.set(key, address);
  return address;
}

function derivePubKeyAddress(pubKey: PubKey): Uint8Array | undefined {
  try {
    switch (pubKey.algo) {
      case 'eth_secp256k1':
        return addressFromPublicKey('eth_secp256k1', pubKey.key);
      case 'secp256k1':
        return pubKey.key.length === 33 ? ripemd160(sha256(pubKey.key)) : undefined;
      case 'ed25519':
        return sha256(pubKey.key).slice(0, 20);
      case 'multisig':
        return aminoKeyAddress(pubKey.key);
    }
  } catch {
    return undefined;
  }
}

export function pubKeysEqual(a: PubKey | undefined, b: PubKey | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.algo !== b.algo || a.key.length !== b.key.length) return false;
  for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return false;
  return true;
}

// ------------------------------------------------------------------------------------- accounts

const decoded = new WeakMap<Uint8Array, Account>();

/** The Any of an account (stored value, genesis entry, query response). */
export function accountToAny(account: Account): Any {
  const baseAccount = create(BaseAccountSchema, {
    address: accString(account.address),
    pubKey: account.pubKey === undefined ? undefined : pubKeyToAny(account.pubKey),
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  switch (account.kind) {
    case 'eth':
      return create(AnySchema, {
        typeUrl: ETH_ACCOUNT_TYPE_URL,
        value: toBinary(EthAccountSchema, create(EthAccountSchema, { baseAccount, codeHash: account.codeHash })),
      });
    case 'base':
      return create(AnySchema, { typeUrl: BASE_ACCOUNT_TYPE_URL, value: toBinary(BaseAccountSchema, baseAccount) });
    case 'module':
      return create(AnySchema, {
        typeUrl: MODULE_ACCOUNT_TYPE_URL,
        value: toBinary(ModuleAccountSchema, create(ModuleAccountSchema, { baseAccount, name: account.name, permissions: [...account.permissions] })),
      });
    case 'interchain':
      return create(AnySchema, {
        typeUrl: INTERCHAIN_ACCOUNT_TYPE_URL,
        value: toBinary(InterchainAccountSchema, create(InterchainAccountSchema, { baseAccount, accountOwner: account.accountOwner ?? '' })),
      });
  }
}

/** The stored form (Any bytes); hand-encoded, byte-identical to protobuf-es (tested). */
export function encodeAccount(account: Account): Uint8Array {
  let bytes: Uint8Array;
  switch (account.kind) {
    case 'eth':
    case 'base': {
      // The two kinds every send and Ethereum tx writes: sized up front and written into one
      // buffer (the BaseAccount nested in place) — no intermediate BaseAccount bytes.
      const address = accString(account.address);
      const addressLength = Buffer.byteLength(address);
      const pubKeyAny = account.pubKey === undefined ? undefined : encodePubKeyAny(account.pubKey);
      const baseLength =
        (addressLength === 0 ? 0 : delimitedSize(addressLength)) +
        (pubKeyAny === undefined ? 0 : delimitedSize(pubKeyAny.length)) +
        uintFieldSize(account.accountNumber) +
        uintFieldSize(account.sequence);
      const writeBase = (writer: ProtoWriter): ProtoWriter => {
        writer.stringField(1, address);
        if (pubKeyAny !== undefined) writer.messageField(2, pubKeyAny);
        return writer.uintField(3, account.accountNumber).uintField(4, account.sequence);
      };
      if (account.kind === 'eth') {
        const codeHashLength = Buffer.byteLength(account.codeHash);
        const valueLength = delimitedSize(baseLength) + (codeHashLength === 0 ? 0 : delimitedSize(codeHashLength));
        const writer = new ProtoWriter(delimitedSize(ETH_ACCOUNT_TYPE_URL.length) + delimitedSize(valueLength)).stringField(1, ETH_ACCOUNT_TYPE_URL).header(2, valueLength).header(1, baseLength);
        bytes = writeBase(writer).stringField(2, account.codeHash).finish();
      } else {
        const writer = new ProtoWriter(delimitedSize(BASE_ACCOUNT_TYPE_URL.length) + (baseLength === 0 ? 0 : delimitedSize(baseLength))).stringField(1, BASE_ACCOUNT_TYPE_URL);
        if (baseLength > 0) writeBase(writer.header(2, baseLength));
        bytes = writer.finish();
      }
      break;
    }
    case 'module': {
      const baseBytes = baseAccountBytes(account);
      const writer = new ProtoWriter(baseBytes.length + 64).messageField(1, baseBytes).stringField(2, account.name);
      for (const permission of account.permissions) writer.bytesField(3, textEncoder.encode(permission));
      const value = writer.finish();
      bytes = new ProtoWriter(value.length + 48).stringField(1, MODULE_ACCOUNT_TYPE_URL).bytesField(2, value).finish();
      break;
    }
    case 'interchain': {
      const baseBytes = baseAccountBytes(account);
      const value = new ProtoWriter(baseBytes.length + 80).messageField(1, baseBytes).stringField(2, account.accountOwner ?? '').finish();
      bytes = new ProtoWriter(value.length + 64).stringField(1, INTERCHAIN_ACCOUNT_TYPE_URL).bytesField(2, value).finish();
      break;
    }
  }
  decoded.set(bytes, account);
  return bytes;
}

/** A BaseAccount's bytes. */
function baseAccountBytes(account: Account): Uint8Array {
  const base = new ProtoWriter(128).stringField(1, accString(account.address));
  if (account.pubKey !== undefined) base.messageField(2, encodePubKeyAny(account.pubKey));
  return base.uintField(3, account.accountNumber).uintField(4, account.sequence).finish();
}

/** Bytes of a varint field (field number < 16) holding `value`; 0 when it is omitted (zero). */
function uintFieldSize(value: bigint): number {
  if (value === 0n) return 0;
  if (value < 0x80000000n) return 1 + varintSize(Number(value));
  let v = BigInt.asUintN(64, value);
  let size = 2;
  while (v >= 0x80n) {
    v >>= 7n;
    size++;
  }
  return size;
}

const textEncoder = new TextEncoder();
const encodedPubKeys = new WeakMap<PubKey, Uint8Array>();

/** The Any bytes of a key (memoised per key object: accounts keep theirs across updates). */
function encodePubKeyAny(pubKey: PubKey): Uint8Array {
  let bytes = encodedPubKeys.get(pubKey);
  if (bytes === undefined) {
    if (pubKey.algo === 'multisig') {
      const any = pubKeyToAny(pubKey);
      bytes = new ProtoWriter(any.value.length + 48).stringField(1, any.typeUrl).bytesField(2, any.value).finish();
    } else {
      const inner = new ProtoWriter(40).bytesField(1, pubKey.key).finish();
      bytes = new ProtoWriter(inner.length + 48).stringField(1, pubKey.typeUrl).bytesField(2, inner).finish();
    }
    encodedPubKeys.set(pubKey, bytes);
  }
  return bytes;
}

/** Decodes a stored account (memoised per value object); hand-decoded on the hot path. */
export function decodeAccount(bytes: Uint8Array): Account {
  let account = decoded.get(bytes);
  if (account === undefined) {
    account = fastDecodeAccount(bytes);
    decoded.set(bytes, account);
  }
  return account;
}

function fastDecodeAccount(bytes: Uint8Array): Account {
  let typeUrl = '';
  let value: Uint8Array = new Uint8Array(0);
  const any = new ProtoReader(bytes);
  while (any.next()) {
    if (any.field === 1 && any.wireType === 2) typeUrl = utf8Decode(any.bytes);
    else if (any.field === 2 && any.wireType === 2) value = any.bytes;
  }
  let kind: AccountKind;
  let baseBytes: Uint8Array | undefined;
  let codeHash = '';
  let name = '';
  let accountOwner: string | undefined;
  const permissions: string[] = [];
  switch (typeUrl) {
    case ETH_ACCOUNT_TYPE_URL: {
      kind = 'eth';
      const reader = new ProtoReader(value);
      while (reader.next()) {
        if (reader.field === 1 && reader.wireType === 2) baseBytes = reader.bytes;
        else if (reader.field === 2 && reader.wireType === 2) codeHash = utf8Decode(reader.bytes);
      }
      if (codeHash === '') codeHash = EMPTY_CODE_HASH;
      break;
    }
    case BASE_ACCOUNT_TYPE_URL:
      kind = 'base';
      baseBytes = value;
      break;
    case MODULE_ACCOUNT_TYPE_URL: {
      kind = 'module';
      const reader = new ProtoReader(value);
      while (reader.next()) {
        if (reader.field === 1 && reader.wireType === 2) baseBytes = reader.bytes;
        else if (reader.field === 2 && reader.wireType === 2) name = utf8Decode(reader.bytes);
        else if (reader.field === 3 && reader.wireType === 2) permissions.push(utf8Decode(reader.bytes));
      }
      break;
    }
    case INTERCHAIN_ACCOUNT_TYPE_URL: {
      kind = 'interchain';
      accountOwner = '';
      const reader = new ProtoReader(value);
      while (reader.next()) {
        if (reader.field === 1 && reader.wireType === 2) baseBytes = reader.bytes;
        else if (reader.field === 2 && reader.wireType === 2) accountOwner = utf8Decode(reader.bytes);
      }
      break;
    }
    default:
      throw new Error(`unsupported account type ${typeUrl}`);
  }
  if (baseBytes === undefined) throw new Error('account has no base_account');
  let address = '';
  let pubKey: PubKey | undefined;
  let accountNumber = 0n;
  let sequence = 0n;
  const base = new ProtoReader(baseBytes);
  while (base.next()) {
    switch (base.field) {
      case 1:
        address = utf8Decode(base.bytes);
        break;
      case 2:
        pubKey = decodePubKeyAnyBytes(base.bytes);
        break;
      case 3:
        accountNumber = base.varint;
        break;
      case 4:
        sequence = base.varint;
        break;
    }
  }
  const parsed = parseAccAddress(address);
  if (!parsed.ok) throw new Error(`invalid account address "${address}": ${parsed.error}`);
  return accountOwner === undefined
    ? { kind, address: parsed.bytes, pubKey, accountNumber, sequence, codeHash, name, permissions }
    : { kind, address: parsed.bytes, pubKey, accountNumber, sequence, codeHash, name, permissions, accountOwner };
}

function decodePubKeyAnyBytes(bytes: Uint8Array): PubKey | undefined {
  let typeUrl = '';
  let value: Uint8Array = new Uint8Array(0);
  const reader = new ProtoReader(bytes);
  while (reader.next()) {
    if (reader.field === 1 && reader.wireType === 2) typeUrl = utf8Decode(reader.bytes);
    else if (reader.field === 2 && reader.wireType === 2) value = reader.bytes;
  }
  if (typeUrl === '') return undefined;
  return decodePubKey(create(AnySchema, { typeUrl, value }));
}

/**
 * An account from its Any (genesis, store). Throws a plain Error naming the problem for types
 * that are not accounts or addresses that do not decode.
 */
export function accountFromAny(any: Any): Account {
  switch (any.typeUrl) {
    case ETH_ACCOUNT_TYPE_URL: {
      const eth = fromBinary(EthAccountSchema, any.value);
      return fromBase('eth', eth.baseAccount, { codeHash: eth.codeHash === '' ? EMPTY_CODE_HASH : eth.codeHash });
    }
    case BASE_ACCOUNT_TYPE_URL:
      return fromBase('base', fromBinary(BaseAccountSchema, any.value), {});
    case MODULE_ACCOUNT_TYPE_URL: {
      const module = fromBinary(ModuleAccountSchema, any.value);
      return fromBase('module', module.baseAccount, { name: module.name, permissions: module.permissions });
    }
    case INTERCHAIN_ACCOUNT_TYPE_URL: {
      const ica = fromBinary(InterchainAccountSchema, any.value);
      return { ...fromBase('interchain', ica.baseAccount, {}), accountOwner: ica.accountOwner };
    }
    default:
      throw new Error(`unsupported account type ${any.typeUrl}`);
  }
}

function fromBase(
  kind: AccountKind,
  base: { address: string; pubKey?: Any; accountNumber: bigint; sequence: bigint } | undefined,
  extra: { codeHash?: string; name?: string; permissions?: readonly string[] },
): Account {
  if (base === undefined) throw new Error('account has no base_account');
  const parsed = parseAccAddress(base.address);
  if (!parsed.ok) throw new Error(`invalid account address "${base.address}": ${parsed.error}`);
  return {
    kind,
    address: parsed.bytes,
    pubKey: base.pubKey === undefined || base.pubKey.typeUrl === '' ? undefined : decodePubKey(base.pubKey),
    accountNumber: base.accountNumber,
    sequence: base.sequence,
    codeHash: extra.codeHash ?? '',
    name: extra.name ?? '',
    permissions: extra.permissions ?? [],
  };
}

/** The BaseAccount view (QueryAccountInfo). */
export function baseAccountOf(account: Account): BaseAccount {
  return create(BaseAccountSchema, {
    address: accString(account.address),
    pubKey: account.pubKey === undefined ? undefined : pubKeyToAny(account.pubKey),
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
}
