/**
 * The one home of byte helpers (comparison, concatenation, hex/base64/UTF-8, big-endian
 * integers). Modules, consensus, store and keyring re-export what they use from here.
 */
export const EMPTY_BYTES: Uint8Array = new Uint8Array(0);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A Buffer view of the same memory (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Equal contents; undefined counts as empty. */
export function bytesEqual(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  const x = a ?? EMPTY_BYTES;
  const y = b ?? EMPTY_BYTES;
  if (x.length !== y.length) return false;
  // Short keys (addresses, hashes) compare faster in a loop than through Buffer.equals.
  if (x.length <= 64) {
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  return asBuffer(x).equals(asBuffer(y));
}

/** Lexicographic order (negative, zero, positive). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  // Store keys are short: a loop beats crossing into Buffer#compare below a few hundred bytes.
  if (n > 256) return asBuffer(a).compare(asBuffer(b));
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Uppercase hex, CometBFT HexBytes style ("" for empty). */
export function toHexUpper(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('hex').toUpperCase();
}

export function toHexLower(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('hex');
}

/** Parse hex (either case, optional 0x). Throws on odd length or non-hex characters. */
export function fromHex(hex: string): Uint8Array {
  const clean = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Error(`invalid hex string "${hex}"`);
  return new Uint8Array(Buffer.from(clean, 'hex'));
}

export function toBase64(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('base64');
}

/** Parse standard (padded or unpadded) base64; throws on characters outside the alphabet. */
export function fromBase64(b64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new Error('invalid base64 string');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** 8-byte big-endian encoding of a non-negative integer (store keys sort by number). */
export function uint64BE(value: number | bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), false);
  return out;
}

export function readUint64BE(bytes: Uint8Array, offset = 0): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0, false));
}
