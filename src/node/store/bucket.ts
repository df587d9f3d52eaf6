/**
 * Buckets: the unit of storage and of hashing of the state commitment.
 *
 * A store's keys are spread over 2^20 buckets by the top 20 bits of sha256(key). One LevelDB
 * record holds a whole bucket (≈3 keys at 3M keys), so a block's writes cost one put per dirty
 * bucket and the bucket's hash input is already contiguous in the record.
 *
 * Bucket blob (integers big-endian):
 *
 *   0   u32 nLive
 *   4   u32 nDead
 *   8   u8  0x00                               domain tag of a bucket hash
 *   9   nLive × (kh[32] ‖ vh[32])              kh = sha256(key), vh = sha256(value), kh ascending
 *   …   nLive × (u64 changedAt ‖ u32 keyLen ‖ key ‖ u32 valueLen ‖ value)      same order
 *   …   nDead × (u64 deletedAt ‖ u32 keyLen ‖ key)                             tombstones
 *
 *   bucketHash = nLive == 0 ? 0^32 : sha256(blob[8 .. 9 + 64·nLive])
 *
 * `changedAt` (the version that last wrote the key) and tombstones (deleted keys, kept while a
 * retained version still has them) let a read at an older version walk back through the per-
 * version diffs with synchronous point gets only (see `Diff`).
 *
 * Diff (history record of one bucket at one version: every key the version changed, with the
 * state it had before):
 *
 *   u32 n, then n × (u8 prevPresent ‖ u64 prevChangedAt ‖ u32 keyLen ‖ key ‖ [u32 valueLen ‖ value])
 *
 * prevChangedAt is the version of that previous state (the key's changedAt, or the version of
 * its deletion, or 0 if it never existed within the retained history).
 */
import { ByteReader, ByteWriter, writeU32, writeU64 } from './bytes.js';
import { HASH_SIZE, ZERO_HASH, sha256 } from './hash.js';

export const BUCKET_BITS = 20;
export const BUCKET_COUNT = 1 << BUCKET_BITS;
const HEADER_SIZE = 9;
const PAIR_SIZE = 2 * HASH_SIZE;

/** The bucket of a key hash: its top 20 bits. */
export function bucketOf(keyHash: Uint8Array): number {
  return (keyHash[0]! << 12) | (keyHash[1]! << 4) | (keyHash[2]! >>> 4);
}

export interface LiveEntry {
  kh: Uint8Array;
  vh: Uint8Array;
  key: Uint8Array;
  value: Uint8Array;
  changedAt: number;
}

export interface DeadEntry {
  key: Uint8Array;
  deletedAt: number;
}

/** Order of two 32-byte hashes. */
export function compareHash(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < HASH_SIZE; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

function keysEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class BucketData {
  private encoded: Uint8Array | undefined;
  private hashed: Uint8Array | undefined;

  constructor(
    readonly live: LiveEntry[],
    readonly dead: DeadEntry[],
    blob?: Uint8Array,
  ) {
    this.encoded = blob;
  }

  static empty(): BucketData {
    return new BucketData([], []);
  }

  static decode(blob: Uint8Array): BucketData {
    const reader = new ByteReader(blob);
    const nLive = reader.u32();
    const nDead = reader.u32();
    reader.u8();
    const pairs = reader.bytes(nLive * PAIR_SIZE);
    const live: LiveEntry[] = new Array(nLive);
    for (let i = 0; i < nLive; i++) {
      const changedAt = reader.u64();
      const key = reader.lengthPrefixed();
      const value = reader.lengthPrefixed();
      const at = i * PAIR_SIZE;
      live[i] = { kh: pairs.subarray(at, at + HASH_SIZE), vh: pairs.subarray(at + HASH_SIZE, at + PAIR_SIZE), key, value, changedAt };
    }
    const dead: DeadEntry[] = new Array(nDead);
    for (let i = 0; i < nDead; i++) {
      const deletedAt = reader.u64();
      dead[i] = { key: reader.lengthPrefixed(), deletedAt };
    }
    return new BucketData(live, dead, blob);
  }

  get isEmpty(): boolean {
    return this.live.length === 0 && this.dead.length === 0;
  }

  /** Index of the live entry with key hash `kh`, or -1. */
  findLive(kh: Uint8Array): number {
    const live = this.live;
    for (let i = 0; i < live.length; i++) {
      const other = live[i]!.kh;
      if (other[0] === kh[0] && compareHash(other, kh) === 0) return i;
    }
    return -1;
  }

  findDead(key: Uint8Array): number {
    const dead = this.dead;
    for (let i = 0; i < dead.length; i++) if (keysEqual(dead[i]!.key, key)) return i;
    return -1;
  }

  encode(): Uint8Array {
    if (this.encoded !== undefined) return this.encoded;
    let size = HEADER_SIZE + this.live.length * PAIR_SIZE;
    for (const entry of this.live) size += 16 + entry.key.length + entry.value.length;
    for (const entry of this.dead) size += 12 + entry.key.length;
    const out = new Uint8Array(size);
    writeU32(out, 0, this.live.length);
    writeU32(out, 4, this.dead.length);
    out[8] = 0;
    let pos = HEADER_SIZE;
    for (const entry of this.live) {
      out.set(entry.kh, pos);
      out.set(entry.vh, pos + HASH_SIZE);
      pos += PAIR_SIZE;
    }
    for (const entry of this.live) {
      writeU64(out, pos, entry.changedAt);
      writeU32(out, pos + 8, entry.key.length);
      out.set(entry.key, pos + 12);
      pos += 12 + entry.key.length;
      writeU32(out, pos, entry.value.length);
      out.set(entry.value, pos + 4);
      pos += 4 + entry.value.length;
    }
    for (const entry of this.dead) {
      writeU64(out, pos, entry.deletedAt);
      writeU32(out, pos + 8, entry.key.length);
      out.set(entry.key, pos + 12);
      pos += 12 + entry.key.length;
    }
    this.encoded = out;
    return out;
  }

  /** The bucket's commitment: sha256(0x00 ‖ kh₁ ‖ vh₁ ‖ …), or zeros when it has no live key. */
  hash(): Uint8Array {
    if (this.hashed !== undefined) return this.hashed;
    this.hashed = this.live.length === 0 ? ZERO_HASH : sha256(this.encode().subarray(8, HEADER_SIZE + this.live.length * PAIR_SIZE));
    return this.hashed;
  }

  /** The (kh ‖ vh) pairs of the live entries, as they enter the hash. */
  pairs(): Uint8Array {
    return this.encode().subarray(HEADER_SIZE, HEADER_SIZE + this.live.length * PAIR_SIZE);
  }
}

/** Hash of a bucket given its (kh ‖ vh) pairs (used by proof verification). */
export function bucketHashOfPairs(pairs: Uint8Array): Uint8Array {
  if (pairs.length === 0) return ZERO_HASH;
  const input = new Uint8Array(pairs.length + 1);
  input.set(pairs, 1);
  return sha256(input);
}

/** Insert into a kh-sorted live list. */
export function insertLive(live: LiveEntry[], entry: LiveEntry): void {
  let lo = 0;
  let hi = live.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareHash(live[mid]!.kh, entry.kh) < 0) lo = mid + 1;
    else hi = mid;
  }
  live.splice(lo, 0, entry);
}

export interface DiffRecord {
  key: Uint8Array;
  /** The value before the change; undefined when the key did not exist. */
  prevValue: Uint8Array | undefined;
  prevChangedAt: number;
}

export function encodeDiff(records: DiffRecord[]): Uint8Array {
  const writer = new ByteWriter(64 + records.length * 96);
  writer.u32(records.length);
  for (const record of records) {
    writer.u8(record.prevValue === undefined ? 0 : 1).u64(record.prevChangedAt).lengthPrefixed(record.key);
    if (record.prevValue !== undefined) writer.lengthPrefixed(record.prevValue);
  }
  return writer.finish();
}

export function decodeDiff(bytes: Uint8Array): DiffRecord[] {
  const reader = new ByteReader(bytes);
  const n = reader.u32();
  const out: DiffRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const present = reader.u8() === 1;
    const prevChangedAt = reader.u64();
    const key = reader.lengthPrefixed();
    out[i] = { key, prevValue: present ? reader.lengthPrefixed() : undefined, prevChangedAt };
  }
  return out;
}

/** The record for `key` in an encoded diff, without decoding the others' values. */
export function findInDiff(bytes: Uint8Array, key: Uint8Array): DiffRecord | undefined {
  const reader = new ByteReader(bytes);
  const n = reader.u32();
  for (let i = 0; i < n; i++) {
    const present = reader.u8() === 1;
    const prevChangedAt = reader.u64();
    const recordKey = reader.lengthPrefixed();
    const prevValue = present ? reader.lengthPrefixed() : undefined;
    if (keysEqual(recordKey, key)) return { key: recordKey, prevValue, prevChangedAt };
  }
  return undefined;
}
