/** Byte helpers shared by the consensus types (hex, base64, comparison, big-endian keys). */
import * as nodeCrypto from 'node:crypto';

export const EMPTY_BYTES = new Uint8Array(0);

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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

export function bytesEqual(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  const x = a ?? EMPTY_BYTES;
  const y = b ?? EMPTY_BYTES;
  if (x.length !== y.length) return false;
  return asBuffer(x).equals(asBuffer(y));
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return asBuffer(a).compare(asBuffer(b));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: 'buffer') => Buffer;
/** crypto.hash (Node ≥ 20.12) is about twice as fast as createHash for small inputs. */
const oneShotHash: OneShotHash | undefined = (nodeCrypto as unknown as { hash?: OneShotHash }).hash;

function asView(buf: Buffer): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export function sha256(data: Uint8Array): Uint8Array {
  if (oneShotHash) return asView(oneShotHash('sha256', data, 'buffer'));
  return asView(nodeCrypto.createHash('sha256').update(data).digest());
}

/** 8-byte big-endian encoding of a non-negative integer (store keys sort by number). */
export function uint64BE(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), false);
  return out;
}

export function readUint64BE(bytes: Uint8Array, offset = 0): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0, false));
}
