/**
 * Buckets: the records of the flat index (latest values and their history). Not part of the
 * commitment — that is the IAVL tree (iavl/); buckets only make point reads cheap.
 *
 * A store's keys are spread over 2^20 buckets by the top 20 bits of sha256(key). One LevelDB
 * record holds a whole bucket (≈3 keys at 3M keys), so a block's writes cost one put per dirty
 * bucket and a read is one hash and one get.
 *
 * Bucket blob (integers big-endian):
 *
 *   0   u32 nLive
 *   4   u32 nDead
 *   8   u8  0x00                               format tag
 *   9   nLive × (kh[32] ‖ vh[32])              kh = sha256(key), vh = sha256(value), kh ascending
 *   …   nLive × (u64 changedAt ‖ u32 keyLen ‖ key ‖ u32 valueLen ‖ value)      same order
 *   …   nDead × (u64 deletedAt ‖ u32 keyLen ‖ key)                             tombstones
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
import { ByteReader, readU32, readU64, writeU32, writeU64 } from './bytes.js';
import { HASH_SIZE, sha256 } from './hash.js';

export const BUCKET_BITS = 20;
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

/**
 * One bucket, either as read from the database (a blob, parsed lazily: point lookups scan the
 * blob without materialising entries, which keeps the read path nearly allocation-free) or as
 * built by a commit (entry lists, encoded on demand).
 */
export class BucketData {
  private liveEntries: LiveEntry[] | undefined;
  private deadEntries: DeadEntry[] | undefined;
  private encoded: Uint8Array | undefined;
  /**
   * Blob form: the view of each live value handed out so far, so that every read of an unchanged
   * entry gets the same Uint8Array object and the decode memos keyed by value identity (accounts,
   * params, balances) hit across txs and blocks instead of decoding a fresh view per read. The
   * blob is never changed in place (a commit builds a new BucketData), so a view stays true.
   */
  private valueViews: (Uint8Array | undefined)[] | undefined;

  constructor(live: LiveEntry[] | undefined, dead: DeadEntry[] | undefined, blob?: Uint8Array) {
    this.liveEntries = live;
    this.deadEntries = dead;
    this.encoded = blob;
  }

  static empty(): BucketData {
    return new BucketData([], []);
  }

  static fromBlob(blob: Uint8Array): BucketData {
    return new BucketData(undefined, undefined, blob);
  }

  /** Entries decoded from the blob on first use. */
  get live(): LiveEntry[] {
    if (this.liveEntries === undefined) this.decode();
    return this.liveEntries!;
  }

  get dead(): DeadEntry[] {
    if (this.deadEntries === undefined) this.decode();
    return this.deadEntries!;
  }

  private decode(): void {
    const blob = this.encoded!;
    const reader = new ByteReader(blob);
    const nLive = reader.u32();
    const nDead = reader.u32();
    reader.u8();
    const pairs = reader.bytes(nLive * PAIR_SIZE);
    const live: LiveEntry[] = new Array(nLive);
    for (let i = 0; i < nLive; i++) {
      const changedAt = reader.u64();
      const key = reader.lengthPrefixed();
      const read = reader.lengthPrefixed();
      const value = this.valueViews?.[i] ?? read;
      const at = i * PAIR_SIZE;
      live[i] = { kh: pairs.subarray(at, at + HASH_SIZE), vh: pairs.subarray(at + HASH_SIZE, at + PAIR_SIZE), key, value, changedAt };
    }
    const dead: DeadEntry[] = new Array(nDead);
    for (let i = 0; i < nDead; i++) {
      const deletedAt = reader.u64();
      dead[i] = { key: reader.lengthPrefixed(), deletedAt };
    }
    this.liveEntries = live;
    this.deadEntries = dead;
  }

  get liveCount(): number {
    return this.liveEntries !== undefined ? this.liveEntries.length : readU32(this.encoded!, 0);
  }

  get isEmpty(): boolean {
    if (this.liveEntries !== undefined) return this.liveEntries.length === 0 && this.deadEntries!.length === 0;
    return readU32(this.encoded!, 0) === 0 && readU32(this.encoded!, 4) === 0;
  }

  /** Index of the live entry with key hash `kh`, or -1. */
  findLive(kh: Uint8Array): number {
    const live = this.liveEntries;
    if (live !== undefined) {
      for (let i = 0; i < live.length; i++) {
        const other = live[i]!.kh;
        if (other[0] === kh[0] && compareHash(other, kh) === 0) return i;
      }
      return -1;
    }
    const blob = this.encoded!;
    const n = readU32(blob, 0);
    for (let i = 0, at = HEADER_SIZE; i < n; i++, at += PAIR_SIZE) {
      if (blob[at] !== kh[0]) continue;
      let j = 1;
      while (j < HASH_SIZE && blob[at + j] === kh[j]) j++;
      if (j === HASH_SIZE) return i;
    }
    return -1;
  }

  /** Offset of live record `i` (changedAt) in the blob. */
  private liveRecordOffset(i: number): number {
    const blob = this.encoded!;
    let pos = HEADER_SIZE + readU32(blob, 0) * PAIR_SIZE;
    for (let k = 0; k < i; k++) {
      pos += 8;
      pos += 4 + readU32(blob, pos);
      pos += 4 + readU32(blob, pos);
    }
    return pos;
  }

  liveValue(i: number): Uint8Array {
    if (this.liveEntries !== undefined) return this.liveEntries[i]!.value;
    let views = this.valueViews;
    if (views === undefined) views = this.valueViews = [];
    const seen = views[i];
    if (seen !== undefined) return seen;
    const blob = this.encoded!;
    let pos = this.liveRecordOffset(i) + 8;
    pos += 4 + readU32(blob, pos);
    const length = readU32(blob, pos);
    const view = blob.subarray(pos + 4, pos + 4 + length);
    views[i] = view;
    return view;
  }

  liveChangedAt(i: number): number {
    if (this.liveEntries !== undefined) return this.liveEntries[i]!.changedAt;
    return readU64(this.encoded!, this.liveRecordOffset(i));
  }

  /** The version `key` was deleted at, if the bucket keeps a tombstone for it; else -1. */
  deletedAt(key: Uint8Array): number {
    if (this.deadEntries !== undefined) {
      for (const entry of this.deadEntries) if (keysEqual(entry.key, key)) return entry.deletedAt;
      return -1;
    }
    const blob = this.encoded!;
    const nDead = readU32(blob, 4);
    if (nDead === 0) return -1;
    let pos = this.liveRecordOffset(readU32(blob, 0));
    for (let k = 0; k < nDead; k++) {
      const length = readU32(blob, pos + 8);
      if (length === key.length) {
        let j = 0;
        while (j < length && blob[pos + 12 + j] === key[j]) j++;
        if (j === length) return readU64(blob, pos);
      }
      pos += 12 + length;
    }
    return -1;
  }

  encode(): Uint8Array {
    if (this.encoded !== undefined) return this.encoded;
    const liveEntries = this.liveEntries!;
    const deadEntries = this.deadEntries!;
    let size = HEADER_SIZE + liveEntries.length * PAIR_SIZE;
    for (const entry of liveEntries) size += 16 + entry.key.length + entry.value.length;
    for (const entry of deadEntries) size += 12 + entry.key.length;
    // Pool-backed allocation (Buffer.allocUnsafe): ~5x cheaper than a fresh Uint8Array of this
    // size, which is an off-heap ArrayBuffer each; every byte is written below.
    const out = Buffer.allocUnsafe(size);
    writeU32(out, 0, liveEntries.length);
    writeU32(out, 4, deadEntries.length);
    out[8] = 0;
    let pos = HEADER_SIZE;
    for (const entry of liveEntries) {
      out.set(entry.kh, pos);
      out.set(entry.vh, pos + HASH_SIZE);
      pos += PAIR_SIZE;
    }
    for (const entry of liveEntries) {
      writeU64(out, pos, entry.changedAt);
      writeU32(out, pos + 8, entry.key.length);
      out.set(entry.key, pos + 12);
      pos += 12 + entry.key.length;
      writeU32(out, pos, entry.value.length);
      out.set(entry.value, pos + 4);
      pos += 4 + entry.value.length;
    }
    for (const entry of deadEntries) {
      writeU64(out, pos, entry.deletedAt);
      writeU32(out, pos + 8, entry.key.length);
      out.set(entry.key, pos + 12);
      pos += 12 + entry.key.length;
    }
    this.encoded = out;
    return out;
  }

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
  let size = 4;
  for (const record of records) size += 13 + record.key.length + (record.prevValue === undefined ? 0 : 4 + record.prevValue.length);
  const out = Buffer.allocUnsafe(size);
  writeU32(out, 0, records.length);
  let pos = 4;
  for (const record of records) {
    out[pos] = record.prevValue === undefined ? 0 : 1;
    writeU64(out, pos + 1, record.prevChangedAt);
    writeU32(out, pos + 9, record.key.length);
    out.set(record.key, pos + 13);
    pos += 13 + record.key.length;
    if (record.prevValue !== undefined) {
      writeU32(out, pos, record.prevValue.length);
      out.set(record.prevValue, pos + 4);
      pos += 4 + record.prevValue.length;
    }
  }
  return out;
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

// ---- commit-time update, working on the encoded blob ----

export interface BucketChange {
  key: Uint8Array;
  kh: Uint8Array;
  /** undefined = delete */
  value: Uint8Array | undefined;
  /** sha256(value) when the caller already has it. */
  vh?: Uint8Array;
}

export interface BucketUpdate {
  data: BucketData;
  /** Previous state of every key whose state changed. */
  diff: DiffRecord[];
  created: Uint8Array[];
  deleted: Uint8Array[];
}

interface NewLive {
  kh: Uint8Array;
  vh: Uint8Array;
  key: Uint8Array;
  value: Uint8Array;
  changedAt: number;
}

function copyBytes(src: Uint8Array, from: number, dst: Uint8Array, to: number, length: number): void {
  if (length <= 64) {
    for (let i = 0; i < length; i++) dst[to + i] = src[from + i]!;
  } else {
    dst.set(src.subarray(from, from + length), to);
  }
}

function compareKhAt(blob: Uint8Array, at: number, kh: Uint8Array): number {
  for (let i = 0; i < HASH_SIZE; i++) {
    const d = blob[at + i]! - kh[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The common case — one existing key gets a new value, no tombstones around: copy the blob with
 * that entry's vh, changedAt and value replaced. `false` when the key is not in the bucket.
 */
function overwriteInPlace(blob: Uint8Array, change: BucketChange, version: number): BucketUpdate | undefined | false {
  const n = readU32(blob, 0);
  const kh = change.kh;
  let index = -1;
  for (let i = 0, at = HEADER_SIZE; i < n; i++, at += PAIR_SIZE) {
    if (blob[at] === kh[0] && compareKhAt(blob, at, kh) === 0) {
      index = i;
      break;
    }
  }
  if (index < 0) return false;
  let pos = HEADER_SIZE + n * PAIR_SIZE;
  for (let i = 0; i < index; i++) {
    pos += 8;
    pos += 4 + readU32(blob, pos);
    pos += 4 + readU32(blob, pos);
  }
  const recordAt = pos;
  const keyLength = readU32(blob, recordAt + 8);
  const valueLengthAt = recordAt + 12 + keyLength;
  const oldLength = readU32(blob, valueLengthAt);
  const oldValue = blob.subarray(valueLengthAt + 4, valueLengthAt + 4 + oldLength);
  const value = change.value!;
  if (keysEqual(oldValue, value)) return undefined;
  const prevChangedAt = readU64(blob, recordAt);
  const tail = valueLengthAt + 4 + oldLength;
  const out = Buffer.allocUnsafe(blob.length - oldLength + value.length);
  out.set(blob.subarray(0, valueLengthAt), 0);
  out.set(change.vh ?? sha256(value), HEADER_SIZE + index * PAIR_SIZE + HASH_SIZE);
  writeU64(out, recordAt, version);
  writeU32(out, valueLengthAt, value.length);
  out.set(value, valueLengthAt + 4);
  out.set(blob.subarray(tail), valueLengthAt + 4 + value.length);
  return {
    data: BucketData.fromBlob(out),
    diff: [{ key: blob.subarray(recordAt + 12, recordAt + 12 + keyLength), prevValue: oldValue, prevChangedAt }],
    created: [],
    deleted: [],
  };
}

/**
 * Apply a block's changes to one bucket. Unchanged entries are copied byte-for-byte from the old
 * blob (no per-entry objects), so the cost is dominated by the new value's hash and one
 * allocation. Tombstones deleted at or below `gcAtOrBelow` (the earliest retained version) are
 * dropped. Returns undefined when nothing changes (e.g. a value rewritten unchanged).
 */
export function applyBucketChanges(old: BucketData, changes: readonly BucketChange[], version: number, gcAtOrBelow: number): BucketUpdate | undefined {
  const blob = old.encode();
  if (changes.length === 1 && changes[0]!.value !== undefined && readU32(blob, 4) === 0) {
    const fast = overwriteInPlace(blob, changes[0]!, version);
    if (fast !== false) return fast;
  }
  const nLive = readU32(blob, 0);
  const nDead = readU32(blob, 4);
  // Record boundaries of the old live entries, then of the old tombstones.
  const recordStart: number[] = new Array(nLive + 1);
  let pos = HEADER_SIZE + nLive * PAIR_SIZE;
  for (let i = 0; i < nLive; i++) {
    recordStart[i] = pos;
    pos += 8;
    pos += 4 + readU32(blob, pos);
    pos += 4 + readU32(blob, pos);
  }
  recordStart[nLive] = pos;
  let changed = false;
  const deadSlots: (number | DeadEntry)[] = [];
  for (let k = 0; k < nDead; k++) {
    const length = readU32(blob, pos + 8);
    if (readU64(blob, pos) > gcAtOrBelow) deadSlots.push(pos);
    else changed = true;
    pos += 12 + length;
  }
  const slots: (number | NewLive)[] = new Array(nLive);
  for (let i = 0; i < nLive; i++) slots[i] = i;

  const khOf = (slot: number | NewLive): Uint8Array | number => (typeof slot === 'number' ? HEADER_SIZE + slot * PAIR_SIZE : slot.kh);
  const compareSlot = (slot: number | NewLive, kh: Uint8Array): number => {
    const at = khOf(slot);
    return typeof at === 'number' ? compareKhAt(blob, at, kh) : compareHash(at, kh);
  };
  const slotValue = (slot: number | NewLive): Uint8Array => {
    if (typeof slot !== 'number') return slot.value;
    let at = recordStart[slot]! + 8;
    at += 4 + readU32(blob, at);
    return blob.subarray(at + 4, at + 4 + readU32(blob, at));
  };
  const slotKey = (slot: number | NewLive): Uint8Array => {
    if (typeof slot !== 'number') return slot.key;
    const at = recordStart[slot]! + 8;
    return blob.subarray(at + 4, at + 4 + readU32(blob, at));
  };
  const slotChangedAt = (slot: number | NewLive): number => (typeof slot === 'number' ? readU64(blob, recordStart[slot]!) : slot.changedAt);
  const deadKey = (slot: number | DeadEntry): Uint8Array => (typeof slot === 'number' ? blob.subarray(slot + 12, slot + 12 + readU32(blob, slot + 8)) : slot.key);
  const deadAt = (slot: number | DeadEntry): number => (typeof slot === 'number' ? readU64(blob, slot) : slot.deletedAt);

  const diff: DiffRecord[] = [];
  const created: Uint8Array[] = [];
  const deleted: Uint8Array[] = [];
  for (const change of changes) {
    // Position of the key hash among the live slots (sorted by kh).
    let lo = 0;
    let hi = slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareSlot(slots[mid]!, change.kh) < 0) lo = mid + 1;
      else hi = mid;
    }
    const found = lo < slots.length && compareSlot(slots[lo]!, change.kh) === 0;
    if (change.value !== undefined) {
      if (found) {
        const slot = slots[lo]!;
        const prevValue = slotValue(slot);
        if (keysEqual(prevValue, change.value)) continue;
        diff.push({ key: change.key, prevValue, prevChangedAt: slotChangedAt(slot) });
        slots[lo] = { kh: change.kh, vh: change.vh ?? sha256(change.value), key: change.key, value: change.value, changedAt: version };
      } else {
        let prevChangedAt = 0;
        for (let k = 0; k < deadSlots.length; k++) {
          if (keysEqual(deadKey(deadSlots[k]!), change.key)) {
            prevChangedAt = deadAt(deadSlots[k]!);
            deadSlots.splice(k, 1);
            break;
          }
        }
        diff.push({ key: change.key, prevValue: undefined, prevChangedAt });
        slots.splice(lo, 0, { kh: change.kh, vh: change.vh ?? sha256(change.value), key: change.key, value: change.value, changedAt: version });
        created.push(change.key);
      }
      changed = true;
    } else if (found) {
      const slot = slots[lo]!;
      const key = slotKey(slot);
      diff.push({ key, prevValue: slotValue(slot), prevChangedAt: slotChangedAt(slot) });
      slots.splice(lo, 1);
      deadSlots.push({ key, deletedAt: version });
      deleted.push(key);
      changed = true;
    }
  }
  if (!changed) return undefined;

  let size = HEADER_SIZE + slots.length * PAIR_SIZE;
  for (const slot of slots) size += typeof slot === 'number' ? recordStart[slot + 1]! - recordStart[slot]! : 16 + slot.key.length + slot.value.length;
  for (const slot of deadSlots) size += typeof slot === 'number' ? 12 + readU32(blob, slot + 8) : 12 + slot.key.length;
  const out = Buffer.allocUnsafe(size);
  writeU32(out, 0, slots.length);
  writeU32(out, 4, deadSlots.length);
  out[8] = 0;
  let at = HEADER_SIZE;
  for (const slot of slots) {
    if (typeof slot === 'number') copyBytes(blob, HEADER_SIZE + slot * PAIR_SIZE, out, at, PAIR_SIZE);
    else {
      copyBytes(slot.kh, 0, out, at, HASH_SIZE);
      copyBytes(slot.vh, 0, out, at + HASH_SIZE, HASH_SIZE);
    }
    at += PAIR_SIZE;
  }
  for (const slot of slots) {
    if (typeof slot === 'number') {
      const length = recordStart[slot + 1]! - recordStart[slot]!;
      copyBytes(blob, recordStart[slot]!, out, at, length);
      at += length;
    } else {
      writeU64(out, at, slot.changedAt);
      writeU32(out, at + 8, slot.key.length);
      copyBytes(slot.key, 0, out, at + 12, slot.key.length);
      at += 12 + slot.key.length;
      writeU32(out, at, slot.value.length);
      copyBytes(slot.value, 0, out, at + 4, slot.value.length);
      at += 4 + slot.value.length;
    }
  }
  for (const slot of deadSlots) {
    if (typeof slot === 'number') {
      const length = 12 + readU32(blob, slot + 8);
      copyBytes(blob, slot, out, at, length);
      at += length;
    } else {
      writeU64(out, at, slot.deletedAt);
      writeU32(out, at + 8, slot.key.length);
      copyBytes(slot.key, 0, out, at + 12, slot.key.length);
      at += 12 + slot.key.length;
    }
  }
  return { data: BucketData.fromBlob(out), diff, created, deleted };
}
