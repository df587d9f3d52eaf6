/**
 * Key and value encodings of the indexer buckets (layout documented in store/db/buckets.ts).
 * Integers are big-endian so that LevelDB ranges sort numerically.
 */
import type { AbciEvent, ExecTxResult } from '../abci/types.js';
import { Bucket } from '../store/db/buckets.js';
import { IndexerError } from './errors.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

export const HASH_BYTES = 32;
/** A tx position: height u64 ‖ index u32 ‖ hash[32]. */
export const TX_POS_BYTES = 8 + 4 + HASH_BYTES;
export const SEQ_BYTES = 8;

export function writeU32(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value >>> 24;
  out[offset + 1] = (value >>> 16) & 0xff;
  out[offset + 2] = (value >>> 8) & 0xff;
  out[offset + 3] = value & 0xff;
}

export function writeU64(out: Uint8Array, offset: number, value: number): void {
  const hi = Math.floor(value / 0x1_0000_0000);
  writeU32(out, offset, hi);
  writeU32(out, offset + 4, value - hi * 0x1_0000_0000);
}

export function readU32(buf: Uint8Array, offset = 0): number {
  return ((buf[offset]! << 24) >>> 0) + (buf[offset + 1]! << 16) + (buf[offset + 2]! << 8) + buf[offset + 3]!;
}

export function readU64(buf: Uint8Array, offset = 0): number {
  return readU32(buf, offset) * 0x1_0000_0000 + readU32(buf, offset + 4);
}

export function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  writeU64(out, 0, value);
  return out;
}

/** UTF-8 of composite keys ("transfer.recipient"): few distinct, so cached. */
const compositeKeyBytes = new Map<string, Buffer>();

function compositeBytes(compositeKey: string): Buffer {
  let bytes = compositeKeyBytes.get(compositeKey);
  if (!bytes) {
    bytes = Buffer.from(compositeKey, 'utf8');
    if (compositeKeyBytes.size > 10_000) compositeKeyBytes.clear();
    compositeKeyBytes.set(compositeKey, bytes);
  }
  return bytes;
}

/** bucket ‖ u16 len ‖ compositeKey: the prefix of every value of one composite key. */
export function compositePrefix(bucket: Bucket, compositeKey: string): Uint8Array {
  const ck = compositeBytes(compositeKey);
  const out = new Uint8Array(3 + ck.length);
  out[0] = bucket;
  out[1] = (ck.length >>> 8) & 0xff;
  out[2] = ck.length & 0xff;
  out.set(ck, 3);
  return out;
}

/** bucket ‖ attrKey(compositeKey, value) (+ `extra` zero bytes reserved at the end for a seq). */
export function attrKey(bucket: Bucket, compositeKey: string, value: string, extra = 0): Uint8Array {
  const ck = compositeBytes(compositeKey);
  const valueLength = Buffer.byteLength(value, 'utf8');
  const out = Buffer.alloc(7 + ck.length + valueLength + extra);
  out[0] = bucket;
  out[1] = (ck.length >>> 8) & 0xff;
  out[2] = ck.length & 0xff;
  ck.copy(out, 3);
  writeU32(out, 3 + ck.length, valueLength);
  out.write(value, 7 + ck.length, valueLength, 'utf8');
  return out;
}

/** Re-bucket an attr key (same attribute, another bucket) into a fresh array with `extra` trailing bytes. */
export function rebucket(key: Uint8Array, bucket: Bucket, extra = 0): Uint8Array {
  const out = new Uint8Array(key.length + extra);
  out.set(key, 0);
  out[0] = bucket;
  return out;
}

/** The attribute value of a key that starts with compositePrefix(…) (count-bucket keys). */
export function valueOfAttrKey(key: Uint8Array): string {
  const ckLen = (key[1]! << 8) | key[2]!;
  const valLen = readU32(key, 3 + ckLen);
  return utf8Decoder.decode(key.subarray(7 + ckLen, 7 + ckLen + valLen));
}

/** attrKey ‖ seq: the event-entry key for sequence number `seq`. */
export function seqKey(base: Uint8Array, seq: number): Uint8Array {
  const out = new Uint8Array(base.length + SEQ_BYTES);
  out.set(base, 0);
  writeU64(out, base.length, seq);
  return out;
}

/** The entry key for `seq` from a count key (same attribute): event bucket ‖ attrKey ‖ seq. */
export function entryKeyFromCountKey(countKey: Uint8Array, eventBucket: Bucket, seq: number): Uint8Array {
  const out = new Uint8Array(countKey.length + SEQ_BYTES);
  out.set(countKey, 0);
  out[0] = eventBucket;
  writeU64(out, countKey.length, seq);
  return out;
}

/** The smallest key greater than every key starting with `prefix`. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const out = prefix.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]!++;
      return out.subarray(0, i + 1);
    }
  }
  return Uint8Array.of(0xff, 0xff, 0xff, 0xff);
}

export function metaKey(name: 'tx' | 'block'): Uint8Array {
  const n = utf8.encode(name);
  const out = new Uint8Array(1 + n.length);
  out[0] = Bucket.indexMeta;
  out.set(n, 1);
  return out;
}

export interface IndexMeta {
  /** Lowest indexed height (0 when nothing is indexed). */
  earliest: number;
  /** Highest indexed height (0 when nothing is indexed). */
  latest: number;
  /** Number of txs (tx index) or blocks (block index) indexed. */
  count: number;
}

export function encodeMeta(m: IndexMeta): Uint8Array {
  const out = new Uint8Array(24);
  writeU64(out, 0, m.earliest);
  writeU64(out, 8, m.latest);
  writeU64(out, 16, m.count);
  return out;
}

export function decodeMeta(raw: Uint8Array | undefined): IndexMeta {
  if (!raw || raw.length !== 24) return { earliest: 0, latest: 0, count: 0 };
  return { earliest: readU64(raw, 0), latest: readU64(raw, 8), count: readU64(raw, 16) };
}

/** height u64 ‖ index u32 ‖ hash. */
export function txPos(height: number, index: number, hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(TX_POS_BYTES);
  writeU64(out, 0, height);
  writeU32(out, 8, index);
  out.set(hash, 12);
  return out;
}

export function txHeightKey(height: number, index: number): Uint8Array {
  const out = new Uint8Array(13);
  out[0] = Bucket.txIndexByHeight;
  writeU64(out, 1, height);
  writeU32(out, 9, index);
  return out;
}

export function bucketHeightKey(bucket: Bucket, height: number): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = bucket;
  writeU64(out, 1, height);
  return out;
}

export function txHashKey(hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + hash.length);
  out[0] = Bucket.txIndexByHash;
  out.set(hash, 1);
  return out;
}

// ---- records ----

interface StoredEvent {
  t: string;
  a: [string, string, 0 | 1][];
}

function encodeEvents(events: readonly AbciEvent[]): StoredEvent[] {
  return events.map((e) => ({ t: e.type, a: e.attributes.map((a) => [a.key, a.value, a.index ? 1 : 0] as [string, string, 0 | 1]) }));
}

function decodeEvents(events: StoredEvent[]): AbciEvent[] {
  return events.map((e) => ({ type: e.t, attributes: e.a.map(([key, value, index]) => ({ key, value, index: index === 1 })) }));
}

interface StoredResult {
  c: number;
  d: string;
  l: string;
  i: string;
  w: string;
  u: string;
  e: StoredEvent[];
  s: string;
}

export interface TxRecord {
  height: number;
  index: number;
  tx: Uint8Array;
  result: ExecTxResult;
}

/** height u64 ‖ index u32 ‖ tx length u32 ‖ tx ‖ JSON of the ExecTxResult. */
export function encodeTxRecord(r: TxRecord): Uint8Array {
  const stored: StoredResult = {
    c: r.result.code,
    d: Buffer.from(r.result.data.buffer, r.result.data.byteOffset, r.result.data.byteLength).toString('base64'),
    l: r.result.log,
    i: r.result.info,
    w: r.result.gasWanted.toString(),
    u: r.result.gasUsed.toString(),
    e: encodeEvents(r.result.events),
    s: r.result.codespace,
  };
  const json = utf8.encode(JSON.stringify(stored));
  const out = new Uint8Array(16 + r.tx.length + json.length);
  writeU64(out, 0, r.height);
  writeU32(out, 8, r.index);
  writeU32(out, 12, r.tx.length);
  out.set(r.tx, 16);
  out.set(json, 16 + r.tx.length);
  return out;
}

export function decodeTxRecord(raw: Uint8Array): TxRecord {
  try {
    const height = readU64(raw, 0);
    const index = readU32(raw, 8);
    const txLen = readU32(raw, 12);
    const tx = raw.slice(16, 16 + txLen);
    const s = JSON.parse(utf8Decoder.decode(raw.subarray(16 + txLen))) as StoredResult;
    return {
      height,
      index,
      tx,
      result: {
        code: s.c,
        data: new Uint8Array(Buffer.from(s.d, 'base64')),
        log: s.l,
        info: s.i,
        gasWanted: BigInt(s.w),
        gasUsed: BigInt(s.u),
        events: decodeEvents(s.e),
        codespace: s.s,
      },
    };
  } catch (err) {
    throw new IndexerError('CORRUPT', `corrupt tx index record: ${(err as Error).message}`, { cause: err });
  }
}

/** Only the events of a stored tx record (for query verification without building the whole result). */
export function decodeTxRecordEvents(raw: Uint8Array): AbciEvent[] {
  const txLen = readU32(raw, 12);
  const s = JSON.parse(utf8Decoder.decode(raw.subarray(16 + txLen))) as StoredResult;
  return decodeEvents(s.e);
}

export function encodeBlockEvents(events: readonly AbciEvent[]): Uint8Array {
  return utf8.encode(JSON.stringify(encodeEvents(events)));
}

export function decodeBlockEvents(raw: Uint8Array): AbciEvent[] {
  try {
    return decodeEvents(JSON.parse(utf8Decoder.decode(raw)) as StoredEvent[]);
  } catch (err) {
    throw new IndexerError('CORRUPT', `corrupt block index record: ${(err as Error).message}`, { cause: err });
  }
}
