/**
 * A minimal protobuf (proto3) writer and reader for the handful of CometBFT messages the engine
 * hashes, signs, stores and gossips. Written by hand (not generated) so that hashing does not
 * depend on code generation and stays allocation-light.
 *
 * Proto3 rules followed by the `*Field` helpers: scalar fields equal to their default (0, empty
 * bytes, empty string) are omitted. Messages that gogoproto marks non-nullable are always written,
 * even when empty; callers use `messageAlways` for those.
 *
 * The state machine's hot-path records (accounts, TxMsgData) use modules/shared/proto.ts, which
 * explains why there are two.
 */
import { ConsensusError } from '../errors.js';

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

const UINT64_MASK = (1n << 64n) - 1n;

/** Growable byte buffer with protobuf primitives. */
export class ProtoWriter {
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

  get length(): number {
    return this.pos;
  }

  /** The written bytes (a copy-free view; do not keep writing after taking it). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** Unsigned varint of a non-negative safe integer. */
  uvarint(value: number): this {
    this.ensure(10);
    let v = value;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
    return this;
  }

  /** Varint of an int64 (two's complement for negatives, 10 bytes). */
  varint64(value: number | bigint): this {
    if (typeof value === 'number' && value >= 0 && Number.isSafeInteger(value)) return this.uvarint(value);
    let v = BigInt(value) & UINT64_MASK;
    this.ensure(10);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.uvarint(field * 8 + wireType);
  }

  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** int64/uint64/int32/uint32/enum/bool field, omitted when zero. */
  varintField(field: number, value: number | bigint | boolean): this {
    const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    if (v === 0 || v === 0n) return this;
    return this.tag(field, WIRE_VARINT).varint64(v);
  }

  /** sfixed64 field, omitted when zero. */
  sfixed64Field(field: number, value: number | bigint): this {
    if (value === 0 || value === 0n) return this;
    this.tag(field, WIRE_FIXED64);
    this.ensure(8);
    const v = BigInt.asUintN(64, BigInt(value));
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    view.setBigUint64(0, v, true);
    this.pos += 8;
    return this;
  }

  /** bytes field, omitted when empty. */
  bytesField(field: number, value: Uint8Array | undefined): this {
    if (!value || value.length === 0) return this;
    return this.tag(field, WIRE_BYTES).uvarint(value.length).raw(value);
  }

  /** bytes field written even when empty (repeated bytes elements). */
  bytesAlways(field: number, value: Uint8Array): this {
    return this.tag(field, WIRE_BYTES).uvarint(value.length).raw(value);
  }

  /** string field, omitted when empty. */
  stringField(field: number, value: string | undefined): this {
    if (!value) return this;
    return this.bytesField(field, textEncoder.encode(value));
  }

  /** string field written even when empty (repeated string elements). */
  stringAlways(field: number, value: string): this {
    return this.bytesAlways(field, textEncoder.encode(value));
  }

  /** Embedded message, always written (gogoproto non-nullable). */
  messageAlways(field: number, encode: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter(64);
    encode(inner);
    return this.bytesAlways(field, inner.finish());
  }

  /** Embedded message written only when `present`. */
  messageIf(field: number, present: boolean, encode: (w: ProtoWriter) => void): this {
    return present ? this.messageAlways(field, encode) : this;
  }
}

/** Encode with a fresh writer and return the bytes. */
export function encodeProto(encode: (w: ProtoWriter) => void, sizeHint = 256): Uint8Array {
  const w = new ProtoWriter(sizeHint);
  encode(w);
  return w.finish();
}

/** Prefix `bytes` with their uvarint length (protoio.MarshalDelimited). */
export function lengthDelimited(bytes: Uint8Array): Uint8Array {
  const w = new ProtoWriter(bytes.length + 5);
  w.uvarint(bytes.length).raw(bytes);
  return w.finish();
}

/** Size in bytes of a uvarint. */
export function uvarintSize(value: number): number {
  let size = 1;
  let v = value;
  while (v > 0x7f) {
    v = Math.floor(v / 128);
    size++;
  }
  return size;
}

export class ProtoDecodeError extends ConsensusError {
  constructor(message: string) {
    super('DECODE', message);
  }
}

/** Sequential reader over protobuf bytes. */
export class ProtoReader {
  pos = 0;
  readonly end: number;

  constructor(private readonly buf: Uint8Array) {
    this.end = buf.length;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Next field tag as [fieldNumber, wireType]. */
  tag(): [number, number] {
    const key = this.uvarint();
    return [Math.floor(key / 8), key % 8];
  }

  uvarint(): number {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoDecodeError('unexpected end of varint');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * shift;
      if (b < 0x80) {
        if (!Number.isSafeInteger(result)) throw new ProtoDecodeError('varint exceeds 2^53');
        return result;
      }
      shift *= 128;
    }
    throw new ProtoDecodeError('varint too long');
  }

  /** Varint as a uint64 bigint. */
  uvarint64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoDecodeError('unexpected end of varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result & UINT64_MASK;
      shift += 7n;
    }
    throw new ProtoDecodeError('varint too long');
  }

  /** Varint as an int64 bigint. */
  int64(): bigint {
    return BigInt.asIntN(64, this.uvarint64());
  }

  /** Varint as an int64 that must fit a JS number. */
  int64Number(): number {
    const v = this.int64();
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new ProtoDecodeError('int64 value exceeds 2^53');
    }
    return Number(v);
  }

  /** Varint as an int32 (negative int32 values are encoded in 10 bytes). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.uvarint64()));
  }

  sfixed64(): bigint {
    if (this.pos + 8 > this.end) throw new ProtoDecodeError('unexpected end of fixed64');
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getBigInt64(0, true);
  }

  bytes(): Uint8Array {
    const len = this.uvarint();
    if (this.pos + len > this.end) throw new ProtoDecodeError('length-delimited field exceeds buffer');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    try {
      return textDecoder.decode(this.bytes());
    } catch {
      throw new ProtoDecodeError('invalid utf-8 in string field');
    }
  }

  /** Skip a field of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.uvarint64();
        return;
      case WIRE_FIXED64:
        this.pos += 8;
        break;
      case WIRE_BYTES:
        this.bytes();
        return;
      case WIRE_FIXED32:
        this.pos += 4;
        break;
      default:
        throw new ProtoDecodeError(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new ProtoDecodeError('unexpected end of buffer');
  }
}

/** Iterate the fields of a message, calling `onField` for each; unknown fields must be skipped by the callback. */
export function readMessage(bytes: Uint8Array, onField: (field: number, wireType: number, r: ProtoReader) => void): void {
  const r = new ProtoReader(bytes);
  while (!r.done) {
    const [field, wireType] = r.tag();
    onField(field, wireType, r);
  }
}

/** Read a uvarint length prefix and return [payload, bytesConsumed]. */
export function readLengthDelimited(bytes: Uint8Array): [Uint8Array, number] {
  const r = new ProtoReader(bytes);
  const payload = r.bytes();
  return [payload, r.pos];
}

export const WireType = { varint: WIRE_VARINT, fixed64: WIRE_FIXED64, bytes: WIRE_BYTES, fixed32: WIRE_FIXED32 } as const;
