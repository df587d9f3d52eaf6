/**
 * Helpers for building module store keys the SDK way: a one-byte table prefix, length-prefixed
 * addresses (address.MustLengthPrefix), big-endian integers so that ranges sort by number.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** One length byte, then the bytes (at most 255). */
export function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  if (bytes.length > 255) throw new RangeError(`cannot length-prefix ${bytes.length} bytes (max 255)`);
  const out = new Uint8Array(bytes.length + 1);
  out[0] = bytes.length;
  out.set(bytes, 1);
  return out;
}

/** Splits "len ‖ bytes ‖ rest" into [bytes, rest]. */
export function readLengthPrefixed(key: Uint8Array, offset = 0): [Uint8Array, Uint8Array] {
  const length = key[offset] ?? 0;
  return [key.subarray(offset + 1, offset + 1 + length), key.subarray(offset + 1 + length)];
}

export function u64be(value: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

export function readU64be(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0);
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Bytes of a string known to be ASCII (amounts, denoms, bech32): no encoder round trip. */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

const denomBytesCache = new Map<string, Uint8Array>();

/** UTF-8 bytes of a denom (memoised: a chain has few denoms, and keys need them on every access). */
export function denomBytes(denom: string): Uint8Array {
  let bytes = denomBytesCache.get(denom);
  if (bytes === undefined) {
    bytes = encoder.encode(denom);
    if (denomBytesCache.size > 10_000) denomBytesCache.clear();
    denomBytesCache.set(denom, bytes);
  }
  return bytes;
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The value stored for set-like indexes (any non-empty byte string would do). */
export const INDEX_MARKER: Uint8Array = Uint8Array.of(1);

/** The smallest key greater than every key starting with `prefix` (undefined for 0xff…). */
export function prefixEndBytes(prefix: Uint8Array): Uint8Array | undefined {
  const end = prefix.slice();
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return undefined;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function toHexString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
