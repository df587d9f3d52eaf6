/**
 * Consensus keys: ed25519 (validators, node keys) through node:crypto, plus verification of
 * secp256k1 validator keys, which CometBFT also accepts when the consensus params allow them.
 *
 * Facts (CometBFT crypto/ed25519, crypto/secp256k1):
 * - ed25519 private key = 64 bytes seed‖pub; address = SHA-256(pub)[0:20].
 * - secp256k1 pub = 33-byte compressed; address = RIPEMD-160(SHA-256(pub)); signatures are
 *   64-byte r‖s over SHA-256(msg), low-S.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ConsensusError } from '../errors.js';
import { bytesEqual, sha256, toHexUpper } from './bytes.js';
import { ProtoWriter, readMessage } from './proto.js';

export type PubKeyType = 'ed25519' | 'secp256k1';

export interface PubKey {
  readonly type: PubKeyType;
  readonly bytes: Uint8Array;
}

export const ED25519_PUBKEY_SIZE = 32;
export const ED25519_PRIVKEY_SIZE = 64;
export const ED25519_SIGNATURE_SIZE = 64;
export const SECP256K1_PUBKEY_SIZE = 33;
export const ADDRESS_SIZE = 20;

/** Amino JSON type names used in key files, genesis and RPC output. */
export const AMINO_PUBKEY_NAMES: Record<PubKeyType, string> = {
  ed25519: 'tendermint/PubKeyEd25519',
  secp256k1: 'tendermint/PubKeySecp256k1',
};
export const AMINO_PRIVKEY_ED25519 = 'tendermint/PrivKeyEd25519';

/** tendermint.crypto.PublicKey oneof {ed25519=1, secp256k1=2}. */
export function writePublicKey(w: ProtoWriter, pubKey: PubKey): void {
  w.bytesAlways(pubKey.type === 'ed25519' ? 1 : 2, pubKey.bytes);
}

export function readPublicKey(bytes: Uint8Array): PubKey {
  let out: PubKey | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) out = { type: 'ed25519', bytes: r.bytes().slice() };
    else if (field === 2 && wire === 2) out = { type: 'secp256k1', bytes: r.bytes().slice() };
    else r.skip(wire);
  });
  if (!out) throw new ConsensusError('DECODE', 'public key has no known key type');
  return out;
}

export function validatePubKey(pubKey: PubKey): void {
  const expected = pubKey.type === 'ed25519' ? ED25519_PUBKEY_SIZE : SECP256K1_PUBKEY_SIZE;
  if (pubKey.bytes.length !== expected) {
    throw new ConsensusError('INVALID_KEY', `${pubKey.type} public key must be ${expected} bytes, got ${pubKey.bytes.length}`);
  }
}

/** Validator/consensus address of a public key (20 bytes). */
export function pubKeyAddress(pubKey: PubKey): Uint8Array {
  if (pubKey.type === 'ed25519') return sha256(pubKey.bytes).subarray(0, ADDRESS_SIZE);
  const inner = createHash('sha256').update(pubKey.bytes).digest();
  return new Uint8Array(createHash('ripemd160').update(inner).digest());
}

export function pubKeysEqual(a: PubKey, b: PubKey): boolean {
  return a.type === b.type && bytesEqual(a.bytes, b.bytes);
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Cache of node KeyObjects per public key, since vote verification repeats for the same validators. */
const publicKeyObjects = new Map<string, KeyObject>();
const MAX_CACHED_KEYS = 10_000;

function ed25519PublicKeyObject(pub: Uint8Array): KeyObject {
  const id = toHexUpper(pub);
  let key = publicKeyObjects.get(id);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, pub]), format: 'der', type: 'spki' });
    if (publicKeyObjects.size >= MAX_CACHED_KEYS) publicKeyObjects.clear();
    publicKeyObjects.set(id, key);
  }
  return key;
}

/**
 * Signatures already verified, by signature → sha256(pub ‖ message). The same vote signature is
 * checked as a vote, then again in the next block's last_commit (and in block sync as the commit
 * of one block and the last_commit of the next): a hit costs one hash instead of a verification.
 */
const VERIFIED_CACHE_SIZE = 20_000;
const verifiedSignatures = new Map<string, string>();

function verificationKey(pub: Uint8Array, message: Uint8Array): string {
  return createHash('sha256').update(pub).update(message).digest('base64');
}

/** Verify a signature by `pubKey` over `message` (CometBFT semantics per key type). */
export function verifySignature(pubKey: PubKey, message: Uint8Array, signature: Uint8Array): boolean {
  if (pubKey.type === 'ed25519') {
    if (signature.length !== ED25519_SIGNATURE_SIZE || pubKey.bytes.length !== ED25519_PUBKEY_SIZE) return false;
    const sigKey = Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64');
    const digest = verificationKey(pubKey.bytes, message);
    if (verifiedSignatures.get(sigKey) === digest) return true;
    let ok: boolean;
    try {
      ok = nodeVerify(null, message, ed25519PublicKeyObject(pubKey.bytes), signature);
    } catch {
      return false;
    }
    if (ok) {
      if (verifiedSignatures.size >= VERIFIED_CACHE_SIZE) verifiedSignatures.delete(verifiedSignatures.keys().next().value!);
      verifiedSignatures.set(sigKey, digest);
    }
    return ok;
  }
  if (signature.length !== 64) return false;
  try {
    return secp256k1.verify(signature, message, pubKey.bytes, { lowS: true });
  } catch {
    return false;
  }
}

/** An ed25519 private key held in memory (64-byte seed‖pub form as in CometBFT key files). */
export class Ed25519PrivateKey {
  private readonly keyObject: KeyObject;
  readonly pubKey: PubKey;

  private constructor(readonly bytes: Uint8Array) {
    const seed = bytes.subarray(0, 32);
    this.keyObject = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(this.keyObject).export({ format: 'der', type: 'spki' });
    const pub = new Uint8Array(spki.subarray(spki.length - 32));
    if (bytes.length === ED25519_PRIVKEY_SIZE && !bytesEqual(bytes.subarray(32), pub)) {
      throw new ConsensusError('INVALID_KEY', 'ed25519 private key: public half does not match the seed');
    }
    this.pubKey = { type: 'ed25519', bytes: pub };
  }

  /** From 64 bytes (seed‖pub) or a 32-byte seed. */
  static fromBytes(bytes: Uint8Array): Ed25519PrivateKey {
    if (bytes.length !== ED25519_PRIVKEY_SIZE && bytes.length !== 32) {
      throw new ConsensusError('INVALID_KEY', `ed25519 private key must be 64 bytes, got ${bytes.length}`);
    }
    const key = new Ed25519PrivateKey(bytes.slice());
    if (bytes.length === 32) return new Ed25519PrivateKey(new Uint8Array([...bytes, ...key.pubKey.bytes]));
    return key;
  }

  static generate(): Ed25519PrivateKey {
    const { privateKey } = generateKeyPairSync('ed25519');
    const der = privateKey.export({ format: 'der', type: 'pkcs8' });
    return Ed25519PrivateKey.fromBytes(new Uint8Array(der.subarray(der.length - 32)));
  }

  sign(message: Uint8Array): Uint8Array {
    return new Uint8Array(nodeSign(null, message, this.keyObject));
  }

  get address(): Uint8Array {
    return pubKeyAddress(this.pubKey);
  }
}
