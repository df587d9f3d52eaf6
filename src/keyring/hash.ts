/** The two message digests of the keyring, picked for speed (OpenSSL's sha256, noble's keccak). */
import * as nodeCrypto from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';

// crypto.hash() (Node >= 20.12) is a one-shot digest without a Hash object; older 20.x lack it.
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;

export function sha256(data: Uint8Array): Uint8Array {
  return oneShotHash ? oneShotHash('sha256', data, 'buffer') : nodeCrypto.createHash('sha256').update(data).digest();
}

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}
