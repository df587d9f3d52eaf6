/**
 * A FIFO of received bytes with the two reads the p2p wire needs: exactly n bytes, and one
 * uvarint-length-prefixed message (the protobuf "delimited" framing CometBFT uses everywhere).
 */
import { P2PError } from '../errors.js';

export class ByteQueue {
  private chunks: Buffer[] = [];
  private head = 0; // offset into chunks[0]
  private total = 0;

  get length(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.total += chunk.length;
  }

  /** Remove and return exactly `n` bytes (the caller checked `length >= n`). */
  take(n: number): Buffer {
    if (n > this.total) throw new RangeError(`ByteQueue.take(${n}) with ${this.total} bytes`);
    const first = this.chunks[0];
    if (first && first.length - this.head >= n) {
      const out = first.subarray(this.head, this.head + n);
      this.head += n;
      this.total -= n;
      if (this.head === first.length) {
        this.chunks.shift();
        this.head = 0;
      }
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let written = 0;
    while (written < n) {
      const chunk = this.chunks[0]!;
      const available = chunk.length - this.head;
      const count = Math.min(available, n - written);
      chunk.copy(out, written, this.head, this.head + count);
      written += count;
      this.head += count;
      if (this.head === chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.total -= n;
    return out;
  }

  private byteAt(index: number): number {
    let i = index + this.head;
    for (const chunk of this.chunks) {
      if (i < chunk.length) return chunk[i]!;
      i -= chunk.length;
    }
    return -1;
  }

  /**
   * Take one length-prefixed message if it is complete. Throws (a protocol violation) when the
   * prefix is malformed or announces more than `maxBytes`.
   */
  takeDelimited(maxBytes: number): Buffer | undefined {
    let length = 0;
    let shift = 1;
    let i = 0;
    for (;;) {
      if (i >= this.total) return undefined;
      if (i >= 9) throw new P2PError('PROTOCOL', 'invalid length prefix: varint overflow');
      const b = this.byteAt(i++);
      length += (b & 0x7f) * shift;
      shift *= 128;
      if (b < 0x80) break;
    }
    if (length > maxBytes) throw new P2PError('MESSAGE_TOO_LARGE', `message exceeds max size (${length} > ${maxBytes})`);
    if (this.total < i + length) return undefined;
    this.take(i);
    return this.take(length);
  }
}

/** uvarint length prefix ‖ bytes. */
export function delimit(bytes: Uint8Array): Buffer {
  let n = bytes.length;
  const prefix: number[] = [];
  while (n > 0x7f) {
    prefix.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  prefix.push(n);
  const out = Buffer.allocUnsafe(prefix.length + bytes.length);
  out.set(prefix, 0);
  out.set(bytes, prefix.length);
  return out;
}
