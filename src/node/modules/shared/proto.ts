/**
 * A minimal protobuf wire reader/writer for the few records on the hot path (accounts, TxMsgData)
 * where protobuf-es' reflective encoder dominates a bank send's cost. Output is byte-identical to
 * protobuf-es / gogoproto for the fields used: fields in number order, proto3 defaults omitted.
 *
 * Why a second hand-written codec beside consensus/types/proto.ts: this one serves a few records
 * read and written ~10 times per tx, sized up front (`delimitedSize`, `encodeInto`, no copy in
 * `finish`), with a pull reader that allocates nothing per field. The consensus one is the
 * canonical-encoding writer of the hashing path (CometBFT's gogoproto non-nullable "always"
 * fields, sfixed64, nested messages by callback) with a reader that fails with consensus errors.
 * Everything else uses generated protobuf-es code.
 */
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** Bytes of a varint encoding of `value` (< 2^53). */
export function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** Bytes of a length-delimited field with a payload of `length` bytes (field number < 16). */
export function delimitedSize(length: number): number {
  return 1 + varintSize(length) + length;
}

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

  varint(value: bigint | number): this {
    this.ensure(10);
    if (typeof value === 'bigint' && value >= 0n && value < 0x80000000n) value = Number(value);
    if (typeof value === 'number' && value < 0x80000000) {
      let v = value >>> 0;
      while (v >= 0x80) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return this;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  /** Length-delimited field (wire type 2); skipped when empty. */
  bytesField(field: number, bytes: Uint8Array): this {
    if (bytes.length === 0) return this;
    this.varint((field << 3) | 2).varint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** Embedded message field, written even when empty (a set message field). */
  messageField(field: number, bytes: Uint8Array): this {
    this.varint((field << 3) | 2).varint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  stringField(field: number, text: string): this {
    if (text === '') return this;
    return this.stringElement(field, text);
  }

  /** An element of a repeated string field: written even when empty. */
  stringElement(field: number, text: string): this {
    // Short ASCII text (addresses, type URLs, denoms, decimal amounts): its bytes are its char
    // codes — written directly, without the encoder's view and result objects.
    const n = text.length;
    if (n < 128) {
      let ascii = true;
      for (let i = 0; i < n; i++) {
        if (text.charCodeAt(i) > 0x7f) {
          ascii = false;
          break;
        }
      }
      if (ascii) {
        this.varint((field << 3) | 2).varint(n);
        this.ensure(n);
        const buf = this.buf;
        const at = this.pos;
        for (let i = 0; i < n; i++) buf[at + i] = text.charCodeAt(i);
        this.pos = at + n;
        return this;
      }
    }
    const length = Buffer.byteLength(text, 'utf8');
    this.varint((field << 3) | 2).varint(length);
    this.ensure(length);
    textEncoder.encodeInto(text, this.buf.subarray(this.pos, this.pos + length));
    this.pos += length;
    return this;
  }

  /** Varint field (wire type 0); skipped when zero. */
  uintField(field: number, value: bigint | number): this {
    if (value === 0 || value === 0n) return this;
    return this.varint(field << 3).varint(value);
  }

  /** Tag and length of a length-delimited field whose payload the caller writes next. */
  header(field: number, length: number): this {
    return this.varint((field << 3) | 2).varint(length);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** The bytes written (no copy when the initial size was exact). */
  finish(): Uint8Array {
    return this.pos === this.buf.length ? this.buf : this.buf.slice(0, this.pos);
  }
}

/**
 * Walks the fields of a message: `while (reader.next()) { switch (reader.field) … }`. Throws on
 * malformed input; fixed-width fields (wire types 1 and 5) are skipped.
 */
export class ProtoReader {
  private pos = 0;
  field = 0;
  wireType = 0;
  /** The current wire-type-0 field's value when it fits a double exactly (below 2^49), else -1. */
  private small = -1;
  private large = 0n;
  /** Payload of the current field (wire type 2). */
  bytes: Uint8Array = EMPTY;
  /** Where the current field's payload (wire type 2) starts and ends in the data. */
  start = 0;
  end = 0;

  /** Reads `data` from `from` to its end. */
  constructor(
    private data: Uint8Array,
    from = 0,
  ) {
    this.pos = from;
  }

  /** Starts over on `data` from `from` to its end (one reader for many messages in a hot loop). */
  reset(data: Uint8Array, from = 0): this {
    this.data = data;
    this.pos = from;
    this.field = 0;
    this.wireType = 0;
    this.start = 0;
    this.end = 0;
    return this;
  }

  /** Varint value of the current field (wire type 0). */
  get varint(): bigint {
    return this.small >= 0 ? BigInt(this.small) : this.large;
  }

  /**
   * A varint as a number while it has at most 7 bytes (49 bits: exact in a double), so tags,
   * lengths and small values never allocate a BigInt; longer ones go to `large` (returns -1).
   */
  private readVarint(): number {
    const data = this.data;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= data.length) throw new Error('truncated varint');
      const byte = data[this.pos++]!;
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    let big = BigInt(result);
    let shift = 49n;
    for (;;) {
      if (this.pos >= data.length) throw new Error('truncated varint');
      const byte = data[this.pos++]!;
      big |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) break;
      shift += 7n;
      if (shift > 63n) throw new Error('varint too long');
    }
    this.large = big;
    return -1;
  }

  private readLength(what: string): number {
    const value = this.readVarint();
    if (value < 0) throw new Error(`${what} too large`);
    return value;
  }

  next(): boolean {
    return this.advance(true);
  }

  /** `next` without the `bytes` view (the payload is data[start, end)): for hot loops. */
  nextField(): boolean {
    return this.advance(false);
  }

  private advance(view: boolean): boolean {
    for (;;) {
      if (this.pos >= this.data.length) return false;
      const tag = this.readLength('tag');
      this.field = Math.floor(tag / 8);
      this.wireType = tag % 8;
      switch (this.wireType) {
        case 0:
          this.small = this.readVarint();
          return true;
        case 2: {
          const length = this.readLength('length');
          if (this.pos + length > this.data.length) throw new Error('truncated field');
          this.start = this.pos;
          this.end = this.pos + length;
          if (view) this.bytes = this.data.subarray(this.pos, this.end);
          this.pos = this.end;
          return true;
        }
        case 1:
          this.pos += 8;
          break;
        case 5:
          this.pos += 4;
          break;
        default:
          throw new Error(`unsupported wire type ${this.wireType}`);
      }
    }
  }
}

export function utf8Decode(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}
