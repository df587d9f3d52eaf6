/**
 * The one home of message digests: SHA-256 through node:crypto's one-shot `hash()` where the
 * runtime has it (Node >= 20.12, ~1.45M small digests/s here vs ~0.9M/s for createHash), else
 * createHash (both OpenSSL); Keccak-256 from @noble/hashes.
 */
import * as nodeCrypto from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;
const oneShot: OneShotHash | undefined = (nodeCrypto as unknown as { hash?: OneShotHash }).hash;

export const HASH_SIZE = 32;

/** A plain Uint8Array view of a Buffer (JSON and structured clones then treat it as bytes, not a Buffer). */
function view(buf: Buffer): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** SHA-256 (32 bytes). */
export const sha256: (data: Uint8Array) => Uint8Array =
  typeof oneShot === 'function' ? (data) => view(oneShot('sha256', data, 'buffer')) : (data) => view(nodeCrypto.createHash('sha256').update(data).digest());

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}
