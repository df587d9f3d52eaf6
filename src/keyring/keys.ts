/**
 * The two key algorithms behind one interface.
 *
 * | algo          | address                               | signs                 | signature        |
 * |---------------|---------------------------------------|-----------------------|------------------|
 * | eth_secp256k1 | keccak256(uncompressed pub)[12..32]   | keccak256(msg)        | 65 B r||s||v     |
 * | secp256k1     | ripemd160(sha256(compressed pub))     | sha256(msg)           | 64 B r||s        |
 *
 * Both produce low-S signatures and reject high-S ones. eth_secp256k1 verification accepts 64 or
 * 65 bytes (v is ignored, as in Ethermint). Ethermint's own Sign skips hashing a message that is
 * exactly 32 bytes long; we always hash, so that sign and verify agree for every input.
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { TokendError } from '../util/errors.js';
import { keccak256, sha256 } from './hash.js';
import { secp256k1 } from './secp256k1.js';
import { KEY_ALGOS, type KeyAlgo } from './types.js';

export {
  ADDRESS_LENGTH,
  PRIVATE_KEY_LENGTH,
  PUBLIC_KEY_LENGTH,
  PUBKEY_TYPE_URLS,
  PRIVKEY_TYPE_URLS,
  PUBKEY_AMINO_NAMES,
  PRIVKEY_AMINO_NAMES,
} from './constants.js';
import { PRIVATE_KEY_LENGTH, PUBLIC_KEY_LENGTH, PUBKEY_TYPE_URLS, PUBKEY_AMINO_NAMES } from './constants.js';

/** A key that can sign. The private key stays inside the closure. */
export interface KeyPair {
  readonly algo: KeyAlgo;
  /** 33-byte compressed public key. */
  readonly pubKey: Uint8Array;
  /** 20-byte address. */
  readonly address: Uint8Array;
  readonly pubKeyTypeUrl: string;
  readonly aminoType: string;
  sign(msg: Uint8Array): Uint8Array;
  verify(msg: Uint8Array, signature: Uint8Array): boolean;
}

export function isKeyAlgo(value: string): value is KeyAlgo {
  return (KEY_ALGOS as readonly string[]).includes(value);
}

export function parseKeyAlgo(value: string): KeyAlgo {
  if (isKeyAlgo(value)) return value;
  throw new TokendError('INVALID_ARGUMENT', `unsupported key algorithm "${value}"`, {
    hint: 'use eth_secp256k1 (the default) or secp256k1',
  });
}

/** Checks length and range (1 ≤ key < n); returns the key. */
export function checkPrivateKey(privateKey: Uint8Array): Uint8Array {
  if (privateKey.length !== PRIVATE_KEY_LENGTH) {
    throw new TokendError(
      'INVALID_ARGUMENT',
      `private key must be ${PRIVATE_KEY_LENGTH} bytes, got ${privateKey.length}`,
    );
  }
  if (!secp256k1().isValidPrivateKey(privateKey)) {
    throw new TokendError('INVALID_ARGUMENT', 'private key is out of range for secp256k1');
  }
  return privateKey;
}

/** A 64-hex-character private key, with or without 0x. */
export function parsePrivateKeyHex(input: string): Uint8Array {
  const hex = input.trim().replace(/^0x/iu, '');
  if (!/^[0-9a-fA-F]{64}$/u.test(hex)) {
    throw new TokendError('INVALID_ARGUMENT', 'private key must be 64 hexadecimal characters (32 bytes)');
  }
  return checkPrivateKey(Uint8Array.from(Buffer.from(hex, 'hex')));
}

export function publicKeyFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  return secp256k1().publicKey(checkPrivateKey(privateKey), true);
}

export function addressFromPublicKey(algo: KeyAlgo, publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== PUBLIC_KEY_LENGTH || !secp256k1().isValidPublicKey(publicKey)) {
    throw new TokendError('INVALID_ARGUMENT', 'public key must be a 33-byte compressed secp256k1 point');
  }
  if (algo === 'eth_secp256k1') {
    const uncompressed = secp256k1().convertPublicKey(publicKey, false);
    return keccak256(uncompressed.subarray(1)).slice(12);
  }
  return ripemd160(sha256(publicKey));
}

function digestFor(algo: KeyAlgo, msg: Uint8Array): Uint8Array {
  return algo === 'eth_secp256k1' ? keccak256(msg) : sha256(msg);
}

/** Signs `msg` (hashing it per algorithm). */
export function signMessage(algo: KeyAlgo, privateKey: Uint8Array, msg: Uint8Array): Uint8Array {
  const { signature, recovery } = secp256k1().sign(digestFor(algo, msg), privateKey);
  if (algo === 'secp256k1') return signature;
  const withRecovery = new Uint8Array(65);
  withRecovery.set(signature);
  withRecovery[64] = recovery;
  return withRecovery;
}

/**
 * Verifies a signature over `msg`; false for any malformed input. This is the node's hot path:
 * one hash, one native call, no copies (a 65-byte eth signature is viewed, not sliced).
 */
export function verifySignature(algo: KeyAlgo, pubKey: Uint8Array, msg: Uint8Array, signature: Uint8Array): boolean {
  if (pubKey.length !== PUBLIC_KEY_LENGTH) return false;
  let compact = signature;
  if (algo === 'eth_secp256k1') {
    if (signature.length === 65) compact = signature.subarray(0, 64);
    else if (signature.length !== 64) return false;
    return secp256k1().verify(keccak256(msg), compact, pubKey);
  }
  if (algo !== 'secp256k1' || signature.length !== 64) return false;
  return secp256k1().verify(sha256(msg), compact, pubKey);
}

export function keyPairFromPrivateKey(algo: KeyAlgo, privateKey: Uint8Array): KeyPair {
  const secret = Uint8Array.from(checkPrivateKey(privateKey));
  const pubKey = secp256k1().publicKey(secret, true);
  const address = addressFromPublicKey(algo, pubKey);
  return {
    algo,
    pubKey,
    address,
    pubKeyTypeUrl: PUBKEY_TYPE_URLS[algo],
    aminoType: PUBKEY_AMINO_NAMES[algo],
    sign: (msg) => signMessage(algo, secret, msg),
    verify: (msg, signature) => verifySignature(algo, pubKey, msg, signature),
  };
}

/** Type URLs a public key may come under in JSON (the cosmos/evm twin of the Ethermint key included). */
export const PUBKEY_ALGO_BY_TYPE_URL: ReadonlyMap<string, KeyAlgo> = new Map([
  [PUBKEY_TYPE_URLS.eth_secp256k1, 'eth_secp256k1'],
  ['/cosmos.evm.crypto.v1.ethsecp256k1.PubKey', 'eth_secp256k1'],
  [PUBKEY_TYPE_URLS.secp256k1, 'secp256k1'],
]);

/**
 * A public key in the SDK's JSON form, as `keys show -p` prints it:
 * `{"@type":"/cosmos.crypto.secp256k1.PubKey","key":"<base64>"}` (or the eth_secp256k1 types).
 */
export function parsePublicKeyJson(text: string): { algo: KeyAlgo; pubKey: Uint8Array } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TokendError('INVALID_ARGUMENT', 'the public key is not JSON', { hint: 'give it as keys show -p prints it: \'{"@type":"/cosmos.crypto.secp256k1.PubKey","key":"A…"}\'' });
  }
  const { '@type': typeUrl, key } = (json ?? {}) as { '@type'?: unknown; key?: unknown };
  const algo = typeof typeUrl === 'string' ? PUBKEY_ALGO_BY_TYPE_URL.get(typeUrl) : undefined;
  if (algo === undefined) throw new TokendError('INVALID_ARGUMENT', `unsupported public key type ${String(typeUrl)}`, { hint: `use ${[...PUBKEY_ALGO_BY_TYPE_URL.keys()].join(' or ')}` });
  if (typeof key !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) throw new TokendError('INVALID_ARGUMENT', 'the public key has no base64 "key"');
  const pubKey = Uint8Array.from(Buffer.from(key, 'base64'));
  addressFromPublicKey(algo, pubKey); // validates length and curve point
  return { algo, pubKey };
}
