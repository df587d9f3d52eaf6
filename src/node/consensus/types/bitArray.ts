/**
 * A fixed-size bit array (libs/bits) with its tendermint.libs.bits.BitArray encoding
 * {bits = 1, elems = 2 (uint64 words, little-endian bit order within a word)}. Consensus gossip
 * uses it for "which votes / block parts does this peer have".
 */
import { ConsensusError } from '../errors.js';
import { ProtoWriter, readMessage } from './proto.js';

/** Largest bit array accepted from a peer (types.MaxVotesCount). */
export const MAX_BIT_ARRAY_BITS = 10000;

export class BitArray {
  private readonly words: Uint32Array;

  constructor(readonly size: number) {
    if (size < 0) throw new ConsensusError('DECODE', 'negative bit array size');
    this.words = new Uint32Array(Math.ceil(size / 32));
  }

  get(i: number): boolean {
    if (i < 0 || i >= this.size) return false;
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  /** Set bit i; false when i is out of range. */
  set(i: number, value = true): boolean {
    if (i < 0 || i >= this.size) return false;
    if (value) this.words[i >>> 5]! |= 1 << (i & 31);
    else this.words[i >>> 5]! &= ~(1 << (i & 31));
    return true;
  }

  copy(): BitArray {
    const out = new BitArray(this.size);
    out.words.set(this.words);
    return out;
  }

  /** Bits set here and not in `other` (Sub); `other` may have another size. */
  sub(other: BitArray | undefined): BitArray {
    const out = this.copy();
    if (!other) return out;
    const n = Math.min(out.words.length, other.words.length);
    for (let i = 0; i < n; i++) out.words[i]! &= ~other.words[i]!;
    return out;
  }

  /** Bits set in either (Or), sized as the larger. */
  or(other: BitArray | undefined): BitArray {
    if (!other) return this.copy();
    const big = this.size >= other.size ? this : other;
    const small = big === this ? other : this;
    const out = big.copy();
    for (let i = 0; i < small.words.length; i++) out.words[i]! |= small.words[i]!;
    return out;
  }

  not(): BitArray {
    const out = new BitArray(this.size);
    for (let i = 0; i < this.size; i++) if (!this.get(i)) out.set(i);
    return out;
  }

  /** Copy `other`'s bits into this one (Update); sizes may differ. */
  update(other: BitArray | undefined): void {
    if (!other) return;
    this.words.fill(0);
    const n = Math.min(this.words.length, other.words.length);
    for (let i = 0; i < n; i++) this.words[i] = other.words[i]!;
    if (this.size % 32 !== 0) this.words[this.words.length - 1]! &= (1 << this.size % 32) - 1;
  }

  isEmpty(): boolean {
    return this.words.every((w) => w === 0);
  }

  isFull(): boolean {
    for (let i = 0; i < this.size; i++) if (!this.get(i)) return false;
    return true;
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (this.get(i)) n++;
    return n;
  }

  /** A random set bit, or -1. */
  pickRandom(): number {
    const set: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.get(i)) set.push(i);
    return set.length === 0 ? -1 : set[Math.floor(Math.random() * set.length)]!;
  }

  toString(): string {
    let s = '';
    for (let i = 0; i < this.size; i++) s += this.get(i) ? 'x' : '_';
    return s;
  }
}

export function writeBitArray(w: ProtoWriter, bits: BitArray): void {
  w.varintField(1, bits.size);
  if (bits.size === 0) return;
  const numWords = Math.ceil(bits.size / 64);
  w.messageAlways(2, (x) => {
    for (let i = 0; i < numWords; i++) {
      let word = 0n;
      for (let b = 0; b < 64; b++) if (bits.get(i * 64 + b)) word |= 1n << BigInt(b);
      x.varint64(word);
    }
  });
}

/** Decode and validate (ValidateBasic: elems must match the size; at most MAX_BIT_ARRAY_BITS). */
export function readBitArray(bytes: Uint8Array): BitArray {
  let size = 0;
  const words: bigint[] = [];
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) size = r.int64Number();
    else if (field === 2 && wire === 2) {
      const packed = r.bytes();
      readPacked(packed, words);
    } else if (field === 2 && wire === 0) words.push(r.uvarint64());
    else r.skip(wire);
  });
  if (size < 0 || size > MAX_BIT_ARRAY_BITS) throw new ConsensusError('DECODE', `bit array size ${size} out of range`);
  if (words.length !== Math.ceil(size / 64)) throw new ConsensusError('DECODE', `wrong BitArray: elems length ${words.length} does not match ${size} bits`);
  const out = new BitArray(size);
  words.forEach((word, i) => {
    for (let b = 0; b < 64; b++) if ((word >> BigInt(b)) & 1n) out.set(i * 64 + b);
  });
  return out;
}

function readPacked(bytes: Uint8Array, out: bigint[]): void {
  let pos = 0;
  while (pos < bytes.length) {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= bytes.length) throw new ConsensusError('DECODE', 'truncated packed varint');
      const b = bytes[pos++]!;
      value |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (b < 0x80) break;
      if (shift > 63n) throw new ConsensusError('DECODE', 'varint overflow');
    }
    out.push(value);
  }
}
