/**
 * The store's own byte helpers (string keys for maps, prefix ends, big-endian integers, record
 * readers and writers); the general ones are src/util/bytes.ts's, re-exported here.
 *
 * Map keys are latin1 ("binary") strings: one UTF-16 code unit per byte, so JavaScript string
 * comparison orders them exactly like the bytes they stand for.
 */

import { asBuffer } from '../../util/bytes.js';

export { EMPTY_BYTES, asBuffer, bytesEqual, compareBytes, concatBytes, toHexLower as toHex } from '../../util/bytes.js';

/** Order-preserving string form of a key, for Map keys and sorting. */
export function keyString(key: Uint8Array): string {
  // fromCharCode.apply is ~30% faster than Buffer#toString('latin1') for short keys; the
  // argument-count limit makes it unsafe for long ones.
  if (key.length <= 1024) return String.fromCharCode.apply(null, key as unknown as number[]);
  return asBuffer(key).toString('latin1');
}

/** `compareBytes` of `a` from `aAt` to its end against all of `b`. */
export function compareBytesFrom(a: Uint8Array, aAt: number, b: Uint8Array): number {
  const aLength = a.length - aAt;
  const n = Math.min(aLength, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[aAt + i]! - b[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return aLength === b.length ? 0 : aLength < b.length ? -1 : 1;
}

export function keyFromString(s: string): Uint8Array {
  return Buffer.from(s, 'latin1');
}

/** The smallest key greater than every key starting with `prefix`; undefined if none (all 0xff). */
export function prefixEnd(prefix: Uint8Array): Uint8Array | undefined {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return undefined;
}

const TWO_POW_32 = 0x1_0000_0000;

/** Write a non-negative safe integer as 8 big-endian bytes. */
export function writeU64(out: Uint8Array, offset: number, value: number): void {
  const hi = Math.floor(value / TWO_POW_32);
  const lo = value >>> 0;
  out[offset] = hi >>> 24;
  out[offset + 1] = (hi >>> 16) & 0xff;
  out[offset + 2] = (hi >>> 8) & 0xff;
  out[offset + 3] = hi & 0xff;
  out[offset + 4] = lo >>> 24;
  out[offset + 5] = (lo >>> 16) & 0xff;
  out[offset + 6] = (lo >>> 8) & 0xff;
  out[offset + 7] = lo & 0xff;
}

export function readU64(bytes: Uint8Array, offset: number): number {
  const hi = ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
  const lo = ((bytes[offset + 4]! << 24) | (bytes[offset + 5]! << 16) | (bytes[offset + 6]! << 8) | bytes[offset + 7]!) >>> 0;
  return hi * TWO_POW_32 + lo;
}

export function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  writeU64(out, 0, value);
  return out;
}

export function writeU32(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = (value >>> 16) & 0xff;
  out[offset + 2] = (value >>> 8) & 0xff;
  out[offset + 3] = value & 0xff;
}

export function readU32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

/** Protobuf-style unsigned varint (used by the multistore leaf encoding, as in the SDK). */
export function uvarint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** A growable byte writer for the store's small binary records. */
export class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor(initialSize = 256) {
    this.buf = new Uint8Array(initialSize);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  u8(value: number): this {
    this.ensure(1);
    this.buf[this.pos++] = value;
    return this;
  }

  u16(value: number): this {
    this.ensure(2);
    this.buf[this.pos++] = value >>> 8;
    this.buf[this.pos++] = value & 0xff;
    return this;
  }

  u32(value: number): this {
    this.ensure(4);
    writeU32(this.buf, this.pos, value);
    this.pos += 4;
    return this;
  }

  u64(value: number): this {
    this.ensure(8);
    writeU64(this.buf, this.pos, value);
    this.pos += 8;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  /** u32 length then the bytes. */
  lengthPrefixed(value: Uint8Array): this {
    return this.u32(value.length).bytes(value);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Reads what `ByteWriter` wrote; throws `RangeError` on truncated input. */
export class ByteReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    offset = 0,
  ) {
    this.pos = offset;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError(`truncated record: need ${n} bytes at ${this.pos} of ${this.buf.length}`);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const value = (this.buf[this.pos]! << 8) | this.buf[this.pos + 1]!;
    this.pos += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const value = readU32(this.buf, this.pos);
    this.pos += 4;
    return value;
  }

  u64(): number {
    this.need(8);
    const value = readU64(this.buf, this.pos);
    this.pos += 8;
    return value;
  }

  /** A view (no copy) of the next `n` bytes. */
  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  lengthPrefixed(): Uint8Array {
    return this.bytes(this.u32());
  }
}
