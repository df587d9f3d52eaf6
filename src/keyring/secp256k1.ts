/**
 * secp256k1 primitives over 32-byte digests, with the native libsecp256k1 binding (the
 * `secp256k1` package) when it loads and @noble/curves otherwise.
 *
 * The native binding is about 25x faster at verification, which bounds how many transactions a
 * node can check per second. Its package entry silently falls back to a slow pure-JS `elliptic`
 * build, so the binding file is required directly: either we get libsecp256k1 or we know we did not.
 *
 * Both implementations produce RFC 6979 deterministic, low-S signatures and reject high-S ones.
 */
import { createRequire } from 'node:module';
import { secp256k1 as nobleSecp256k1 } from '@noble/curves/secp256k1.js';

export type Secp256k1ImplementationName = 'native' | 'noble';

/** The subset of the `secp256k1` package's API used here (it ships no types). */
interface NativeSecp256k1 {
  ecdsaVerify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean;
  ecdsaSign(digest: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  publicKeyConvert(publicKey: Uint8Array, compressed: boolean): Uint8Array;
  publicKeyVerify(publicKey: Uint8Array): boolean;
  privateKeyVerify(privateKey: Uint8Array): boolean;
  ecdsaRecover(signature: Uint8Array, recid: number, digest: Uint8Array, compressed: boolean): Uint8Array;
}

/** The operations both implementations provide. */
interface Secp256k1Implementation {
  readonly name: Secp256k1ImplementationName;
  /** `signature` is 64 bytes r||s; false (never a throw) for any malformed input. */
  verify(digest: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean;
  /** 64 bytes r||s plus the recovery id (0 or 1). */
  sign(digest: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recovery: number };
  publicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  convertPublicKey(publicKey: Uint8Array, compressed: boolean): Uint8Array;
  isValidPublicKey(publicKey: Uint8Array): boolean;
  isValidPrivateKey(privateKey: Uint8Array): boolean;
  /** The public key that made `signature` (64 bytes r||s) with recovery id 0/1 over `digest`; throws when none does. */
  recover(digest: Uint8Array, signature: Uint8Array, recovery: number, compressed: boolean): Uint8Array;
}

function loadNative(): NativeSecp256k1 | undefined {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings.js') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

function nativeImplementation(native: NativeSecp256k1): Secp256k1Implementation {
  return {
    name: 'native',
    verify(digest, signature, publicKey) {
      try {
        return native.ecdsaVerify(signature, digest, publicKey);
      } catch {
        return false; // unparsable signature or public key
      }
    },
    sign(digest, privateKey) {
      const { signature, recid } = native.ecdsaSign(digest, privateKey);
      return { signature, recovery: recid };
    },
    publicKey: (privateKey, compressed) => native.publicKeyCreate(privateKey, compressed),
    convertPublicKey: (publicKey, compressed) => native.publicKeyConvert(publicKey, compressed),
    isValidPublicKey: (publicKey) => native.publicKeyVerify(publicKey),
    isValidPrivateKey: (privateKey) => native.privateKeyVerify(privateKey),
    recover: (digest, signature, recovery, compressed) => native.ecdsaRecover(signature, recovery, digest, compressed),
  };
}

// One shared options object: the verify hot path allocates nothing of its own.
const NOBLE_DIGEST_OPTIONS = { prehash: false, lowS: true } as const;
const NOBLE_RECOVERED_OPTIONS = { prehash: false, lowS: true, format: 'recovered' } as const;

const nobleImplementation: Secp256k1Implementation = {
  name: 'noble',
  verify(digest, signature, publicKey) {
    try {
      return nobleSecp256k1.verify(signature, digest, publicKey, NOBLE_DIGEST_OPTIONS);
    } catch {
      return false;
    }
  },
  sign(digest, privateKey) {
    // 'recovered' is recovery byte first, then r||s.
    const recovered = nobleSecp256k1.sign(digest, privateKey, NOBLE_RECOVERED_OPTIONS);
    return { signature: recovered.slice(1), recovery: recovered[0] };
  },
  publicKey: (privateKey, compressed) => nobleSecp256k1.getPublicKey(privateKey, compressed),
  convertPublicKey: (publicKey, compressed) => nobleSecp256k1.Point.fromBytes(publicKey).toBytes(compressed),
  isValidPublicKey(publicKey) {
    try {
      nobleSecp256k1.Point.fromBytes(publicKey);
      return true;
    } catch {
      return false;
    }
  },
  isValidPrivateKey: (privateKey) => nobleSecp256k1.utils.isValidSecretKey(privateKey),
  recover(digest, signature, recovery, compressed) {
    const recovered = new Uint8Array(65);
    recovered[0] = recovery;
    recovered.set(signature, 1);
    return nobleSecp256k1.Point.fromBytes(nobleSecp256k1.recoverPublicKey(recovered, digest, { prehash: false })).toBytes(compressed);
  },
};

const nativeBinding = loadNative();
const nativeImpl = nativeBinding ? nativeImplementation(nativeBinding) : undefined;

let current: Secp256k1Implementation = nativeImpl ?? nobleImplementation;

/** The implementation in use. */
export function secp256k1(): Secp256k1Implementation {
  return current;
}

export function secp256k1ImplementationName(): Secp256k1ImplementationName {
  return current.name;
}

export function isNativeSecp256k1Available(): boolean {
  return nativeImpl !== undefined;
}

/**
 * Switches implementation (benchmarks, tests comparing both). Returns false, changing nothing,
 * when 'native' is asked for but the binding did not load.
 */
export function useSecp256k1Implementation(name: Secp256k1ImplementationName): boolean {
  if (name === 'native') {
    if (!nativeImpl) return false;
    current = nativeImpl;
  } else {
    current = nobleImplementation;
  }
  return true;
}
