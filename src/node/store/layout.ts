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

export function keyIndexKey(storeId: number, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 2);
  out[0] = Bucket.stateKeyIndex;
  out[1] = storeId;
  out.set(key, 2);
  return out;
}
