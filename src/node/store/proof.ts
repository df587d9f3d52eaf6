/**
 * App hash and proofs.
 *
 * App hash = the RFC-6962 Merkle root CometBFT uses (merkle.HashFromByteSlices: leaf =
 * sha256(0x00 ‖ item), inner = sha256(0x01 ‖ left ‖ right), split at the largest power of two
 * below n) over the stores sorted by name, each item being the SDK's KVPair encoding
 * uvarint(len(name)) ‖ name ‖ uvarint(32) ‖ sha256(storeRoot) — the same shape as the SDK's
 * commitInfo hash, over our own store roots.
 *
 * A query proof is two CometBFT-shaped ProofOps, like the SDK's (iavl/ics23 op, then multistore op):
 *
 *  1. `tokend:bucket` (key = the queried key) proves key → value (or absence) against the store root:
 *       u8 format(1) ‖ u32 bucket ‖ u32 n ‖ n × (kh ‖ vh)        the bucket's live entries
 *       then for depth 4, 3, 2, 1, 0 (bottom-up): u16 mask ‖ popcount(mask) × hash[32]
 *     `mask` has a bit per non-zero sibling among the node's 16 children (never the path's own
 *     child); missing siblings are zero. Absence is proven by showing the whole bucket without
 *     the key's hash.
 *  2. `tokend:multistore` (key = store name) proves store name → store root against the app hash:
 *       u8 format(1) ‖ u32 index ‖ u32 total ‖ u8 nAunts ‖ nAunts × hash[32]
 *
 * These are not ICS23 proofs: IBC light clients cannot verify them. `verifyProof` does.
 */
import { asBuffer, bytesEqual, ByteReader, ByteWriter, concatBytes, uvarint } from './bytes.js';
import { BUCKET_BITS, bucketHashOfPairs, bucketOf, compareHash } from './bucket.js';
import { HASH_SIZE, sha256 } from './hash.js';
import type { ProofOp } from './interface.js';
import { NodeHasher, TREE_DEPTH } from './tree.js';

export const PROOF_OP_BUCKET = 'tokend:bucket';
export const PROOF_OP_MULTISTORE = 'tokend:multistore';
const FORMAT = 1;
const encoder = new TextEncoder();

// ---- multistore (RFC 6962 simple Merkle) ----

function splitPoint(length: number): number {
  let k = 1;
  while (k * 2 < length) k *= 2;
  return k;
}

function leafHash(item: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(0), item));
}

function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(1), left, right));
}

export function storeLeafItem(name: string, root: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name);
  return concatBytes(uvarint(nameBytes.length), nameBytes, uvarint(HASH_SIZE), sha256(root));
}

function merkleRoot(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array(0));
  if (items.length === 1) return leafHash(items[0]!);
  const k = splitPoint(items.length);
  return innerHash(merkleRoot(items.slice(0, k)), merkleRoot(items.slice(k)));
}

function merkleAunts(items: Uint8Array[], index: number): Uint8Array[] {
  if (items.length <= 1) return [];
  const k = splitPoint(items.length);
  if (index < k) return [...merkleAunts(items.slice(0, k), index), merkleRoot(items.slice(k))];
  return [...merkleAunts(items.slice(k), index - k), merkleRoot(items.slice(0, k))];
}

function rootFromAunts(index: number, total: number, leaf: Uint8Array, aunts: Uint8Array[]): Uint8Array | undefined {
  if (index >= total || index < 0 || total <= 0) return undefined;
  if (total === 1) return aunts.length === 0 ? leaf : undefined;
  if (aunts.length === 0) return undefined;
  const k = splitPoint(total);
  const last = aunts[aunts.length - 1]!;
  const rest = aunts.slice(0, -1);
  if (index < k) {
    const left = rootFromAunts(index, k, leaf, rest);
    return left === undefined ? undefined : innerHash(left, last);
  }
  const right = rootFromAunts(index - k, total - k, leaf, rest);
  return right === undefined ? undefined : innerHash(last, right);
}

/** Sorted (name, root) pairs → app hash. */
export function appHashOf(roots: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  return merkleRoot(sortedRoots(roots).map(([name, root]) => storeLeafItem(name, root)));
}

function sortedRoots(roots: ReadonlyArray<readonly [string, Uint8Array]>): (readonly [string, Uint8Array])[] {
  return [...roots].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export function multistoreProofOp(roots: ReadonlyArray<readonly [string, Uint8Array]>, store: string): ProofOp {
  const sorted = sortedRoots(roots);
  const index = sorted.findIndex(([name]) => name === store);
  if (index < 0) throw new RangeError(`store ${store} is not in the commit`);
  const aunts = merkleAunts(
    sorted.map(([name, root]) => storeLeafItem(name, root)),
    index,
  );
  const writer = new ByteWriter(16 + aunts.length * HASH_SIZE).u8(FORMAT).u32(index).u32(sorted.length).u8(aunts.length);
  for (const aunt of aunts) writer.bytes(aunt);
  return { type: PROOF_OP_MULTISTORE, key: encoder.encode(store), data: writer.finish() };
}

// ---- store level (bucket tree) ----

export interface BucketProofInput {
  bucket: number;
  /** The bucket's live (kh ‖ vh) pairs at the proven version. */
  pairs: Uint8Array;
  /** For depth 4..0 (bottom-up): the 16 children (512 bytes) of the path's node at that depth. */
  childrenByDepth: Uint8Array[];
}

export function bucketProofOp(key: Uint8Array, input: BucketProofInput): ProofOp {
  const writer = new ByteWriter(64 + input.pairs.length + TREE_DEPTH * 15 * HASH_SIZE);
  writer.u8(FORMAT).u32(input.bucket).u32(input.pairs.length / (2 * HASH_SIZE)).bytes(input.pairs);
  let index = input.bucket;
  for (let d = TREE_DEPTH - 1; d >= 0; d--) {
    const children = input.childrenByDepth[TREE_DEPTH - 1 - d]!;
    const own = index & 15;
    let mask = 0;
    const siblings: Uint8Array[] = [];
    for (let c = 0; c < 16; c++) {
      if (c === own) continue;
      const child = children.subarray(c * HASH_SIZE, (c + 1) * HASH_SIZE);
      if (child.some((byte) => byte !== 0)) {
        mask |= 1 << c;
        siblings.push(child);
      }
    }
    writer.u16(mask);
    for (const sibling of siblings) writer.bytes(sibling);
    index >>>= 4;
  }
  return { type: PROOF_OP_BUCKET, key, data: writer.finish() };
}

/** Store root implied by a `tokend:bucket` op for (key, value|absent), or undefined if malformed/inconsistent. */
export function rootFromBucketOp(op: ProofOp, key: Uint8Array, value: Uint8Array | undefined): Uint8Array | undefined {
  if (op.type !== PROOF_OP_BUCKET || !bytesEqual(op.key, key)) return undefined;
  try {
    const reader = new ByteReader(op.data);
    if (reader.u8() !== FORMAT) return undefined;
    const bucket = reader.u32();
    const n = reader.u32();
    const pairs = reader.bytes(n * 2 * HASH_SIZE);
    const kh = sha256(key);
    if (bucket !== bucketOf(kh) || bucket >= 1 << BUCKET_BITS) return undefined;
    let found: Uint8Array | undefined;
    for (let i = 0; i < n; i++) {
      const pairKh = pairs.subarray(i * 64, i * 64 + 32);
      if (i > 0 && compareHash(pairs.subarray((i - 1) * 64, (i - 1) * 64 + 32), pairKh) >= 0) return undefined; // not strictly sorted
      if (bucketOf(pairKh) !== bucket) return undefined;
      if (compareHash(pairKh, kh) === 0) found = pairs.subarray(i * 64 + 32, i * 64 + 64);
    }
    if (value === undefined ? found !== undefined : found === undefined || !bytesEqual(found, sha256(value))) return undefined;
    let hash = bucketHashOfPairs(pairs);
    const hasher = new NodeHasher();
    let index = bucket;
    for (let d = TREE_DEPTH - 1; d >= 0; d--) {
      const mask = reader.u16();
      const own = index & 15;
      if (mask & (1 << own)) return undefined;
      hasher.children.fill(0);
      for (let c = 0; c < 16; c++) if (mask & (1 << c)) hasher.children.set(reader.bytes(HASH_SIZE), c * HASH_SIZE);
      hasher.children.set(hash, own * HASH_SIZE);
      hash = hasher.hash();
      index >>>= 4;
    }
    if (reader.remaining !== 0) return undefined;
    return hash;
  } catch {
    return undefined;
  }
}

/** App hash implied by a `tokend:multistore` op for (store, storeRoot). */
export function appHashFromMultistoreOp(op: ProofOp, store: string, storeRoot: Uint8Array): Uint8Array | undefined {
  if (op.type !== PROOF_OP_MULTISTORE || asBuffer(op.key).toString('utf8') !== store) return undefined;
  try {
    const reader = new ByteReader(op.data);
    if (reader.u8() !== FORMAT) return undefined;
    const index = reader.u32();
    const total = reader.u32();
    const nAunts = reader.u8();
    const aunts: Uint8Array[] = [];
    for (let i = 0; i < nAunts; i++) aunts.push(reader.bytes(HASH_SIZE));
    if (reader.remaining !== 0) return undefined;
    return rootFromAunts(index, total, leafHash(storeLeafItem(store, storeRoot)), aunts);
  } catch {
    return undefined;
  }
}

/**
 * Check a query proof: `ops` must show that, in the state whose app hash is `appHash`, store
 * `store` maps `key` to `value` (or has no `key` when `value` is undefined).
 */
export function verifyProof(ops: readonly ProofOp[], appHash: Uint8Array, store: string, key: Uint8Array, value: Uint8Array | undefined): boolean {
  if (ops.length !== 2) return false;
  const storeRoot = rootFromBucketOp(ops[0]!, key, value);
  if (storeRoot === undefined) return false;
  const computed = appHashFromMultistoreOp(ops[1]!, store, storeRoot);
  return computed !== undefined && bytesEqual(computed, appHash);
}
