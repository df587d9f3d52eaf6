/**
 * The one home of message digests: SHA-256 of small inputs (up to two blocks: keys, values,
 * IAVL nodes) in plain JS without allocation or a native call (sha256.ts, synchronous from the
 * start), of larger ones through node:crypto's one-shot `hash()` where the runtime has it
 * (Node >= 20.12, ~1.45M small digests/s here vs ~0.9M/s for createHash), else createHash (both
 * OpenSSL); Keccak-256 from hash-wasm (WebAssembly) once `loadFastKeccak` has run, @noble/hashes
 * before.
 */
import * as nodeCrypto from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { SMALL_INPUT_MAX, sha256Into } from './sha256.js';

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;
const oneShot: OneShotHash | undefined = (nodeCrypto as unknown as { hash?: OneShotHash }).hash;

export const HASH_SIZE = 32;

/** A plain Uint8Array view of a Buffer (JSON and structured clones then treat it as bytes, not a Buffer). */
function view(buf: Buffer): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

const largeSha256: (data: Uint8Array) => Uint8Array =
  typeof oneShot === 'function' ? (data) => view(oneShot('sha256', data, 'buffer')) : (data) => view(nodeCrypto.createHash('sha256').update(data).digest());

/** SHA-256 (32 bytes): plain JS for inputs of up to two blocks (sha256.ts), node:crypto above. */
export function sha256(data: Uint8Array): Uint8Array {
  if (data.length > SMALL_INPUT_MAX) return largeSha256(data);
  const out = new Uint8Array(HASH_SIZE);
  sha256Into(data, 0, data.length, out, 0);
  return out;
}

export { sha256Into };

/** A synchronous Keccak-256 over one buffer. */
type Keccak = (data: Uint8Array) => Uint8Array;

let fastKeccak: Keccak | undefined;
let loadingKeccak: Promise<void> | undefined;

/**
 * Loads hash-wasm's WebAssembly Keccak-256 (~1 µs for a tx-sized input against ~8 µs for
 * @noble/hashes' pure JS here); `keccak256` uses it from then on. The app awaits this when it
 * opens (the EVM's tx hashes, sender addresses, storage and code hashes); until then, and if the
 * module cannot be instantiated, `keccak256` stays on @noble/hashes — same digests either way.
 */
export function loadFastKeccak(): Promise<void> {
  loadingKeccak ??= import('hash-wasm')
    .then(async ({ createKeccak }) => {
      const hasher = await createKeccak(256);
      // One instance, used synchronously from init to digest: calls cannot interleave.
      fastKeccak = (data) => {
        hasher.init();
        hasher.update(data);
        return hasher.digest('binary');
      };
    })
    .catch(() => undefined);
  return loadingKeccak;
}

export function keccak256(data: Uint8Array): Uint8Array {
  return fastKeccak === undefined ? keccak_256(data) : fastKeccak(data);
}
