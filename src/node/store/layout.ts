/**
 * LevelDB keys of the state store (buckets 0x01–0x07 of db/buckets.ts). Integers big-endian so
 * that versions and bucket numbers sort numerically.
 */
import { Bucket } from './db/buckets.js';
import { concatBytes, prefixEnd, writeU64 } from './bytes.js';

const encoder = new TextEncoder();

export function metaKey(name: string): Uint8Array {
  return concatBytes(Uint8Array.of(Bucket.stateMeta), encoder.encode(name));
}

export const META_LATEST = metaKey('latest');
export const META_EARLIEST = metaKey('earliest');
export const META_PRUNED_BELOW = metaKey('pruned-below');
export const META_FIRST = metaKey('first');
export const META_STORE_PREFIX = metaKey('store:');

function versionKey(bucket: Bucket, version: number): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = bucket;
  writeU64(out, 1, version);
  return out;
}

export function commitInfoKey(version: number): Uint8Array {
  return versionKey(Bucket.stateCommitInfo, version);
}

export function changesetKey(version: number): Uint8Array {
  return versionKey(Bucket.stateChangeset, version);
}

export function bucketKey(storeId: number, bucket: number): Uint8Array {
  return Uint8Array.of(Bucket.stateBucket, storeId, bucket >>> 16, (bucket >>> 8) & 0xff, bucket & 0xff);
}

export function bucketRangeOfStore(storeId: number): { gte: Uint8Array; lt: Uint8Array } {
  const gte = Uint8Array.of(Bucket.stateBucket, storeId);
  return { gte, lt: prefixEnd(gte)! };
}

export function bucketNumberOfKey(key: Uint8Array): number {
  return (key[2]! << 16) | (key[3]! << 8) | key[4]!;
}

export function historyKey(storeId: number, bucket: number, version: number): Uint8Array {
  const out = new Uint8Array(13);
  out[0] = Bucket.stateBucketHistory;
  out[1] = storeId;
  out[2] = bucket >>> 16;
  out[3] = (bucket >>> 8) & 0xff;
  out[4] = bucket & 0xff;
  writeU64(out, 5, version);
  return out;
}

export function keyIndexPrefix(storeId: number): Uint8Array {
  return Uint8Array.of(Bucket.stateKeyIndex, storeId);
}

/**
 * The key index's value for a key (`keyIndexKey`):
 *  - empty: live, value not kept here (values above INDEX_VALUE_MAX, and data written before
 *    values were kept in the index) — an iteration reads it from the key's bucket;
 *  - 8 bytes: a tombstone, u64 the version that deleted the key (kept while history needs it);
 *  - 0x01 ‖ u64 changedAt ‖ value: live, with its value as of the version that last wrote it, so
 *    that an ordered iteration is one sequential scan instead of a bucket read per key.
 */
export const INDEX_LIVE_WITH_VALUE = 0x01;
/** Values up to this size are kept in the key index; larger ones (contract code) are not. */
export const INDEX_VALUE_MAX = 1024;

export function indexLiveMarker(changedAt: number, value: Uint8Array): Uint8Array {
  if (value.length > INDEX_VALUE_MAX) return new Uint8Array(0);
  // A plain view of pool-backed memory (Buffer.allocUnsafe; every byte is written below): a fresh
  // Uint8Array of over 64 bytes is an off-heap ArrayBuffer each, and a commit makes one marker
  // per written key — in a profile of a 2,000-send block these allocations were the largest
  // single cost of the commit.
  const pooled = Buffer.allocUnsafe(9 + value.length);
  const out = new Uint8Array(pooled.buffer, pooled.byteOffset, pooled.byteLength);
  out[0] = INDEX_LIVE_WITH_VALUE;
  writeU64(out, 1, changedAt);
  out.set(value, 9);
  return out;
}

export function keyIndexKey(storeId: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 2);
  out[0] = Bucket.stateKeyIndex;
  out[1] = storeId;
  out.set(key, 2);
  return out;
}
