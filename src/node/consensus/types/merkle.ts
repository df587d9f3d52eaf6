/**
 * RFC 6962-style Merkle trees as CometBFT builds them (crypto/merkle):
 * leaf = SHA-256(0x00‖item), inner = SHA-256(0x01‖left‖right), empty = SHA-256(""),
 * and a list of n > 1 items splits at k = the largest power of two below n.
 */
import { bytesEqual, sha256 } from './bytes.js';

export const EMPTY_HASH: Uint8Array = sha256(new Uint8Array(0));

/** Scratch buffers for prefix‖data (hashing is synchronous, so one shared buffer is safe). */
let scratch = new Uint8Array(1024);
const inner = new Uint8Array(65);
inner[0] = 1;

export function leafHash(item: Uint8Array): Uint8Array {
  if (item.length + 1 > scratch.length) scratch = new Uint8Array(Math.max(item.length + 1, scratch.length * 2));
  scratch[0] = 0;
  scratch.set(item, 1);
  return sha256(scratch.subarray(0, item.length + 1));
}

export function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === 32 && right.length === 32) {
    inner.set(left, 1);
    inner.set(right, 33);
    return sha256(inner);
  }
  const buf = new Uint8Array(1 + left.length + right.length);
  buf[0] = 1;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return sha256(buf);
}

/** Largest power of two strictly less than n (n ≥ 2). */
export function splitPoint(n: number): number {
  if (n < 1) throw new Error('cannot split an empty tree');
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function rootOf(leaves: Uint8Array[], start: number, end: number): Uint8Array {
  const n = end - start;
  if (n === 1) return leaves[start]!;
  const k = splitPoint(n);
  return innerHash(rootOf(leaves, start, start + k), rootOf(leaves, start + k, end));
}

/** Merkle root of `items` (merkle.HashFromByteSlices). */
export function merkleRoot(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return EMPTY_HASH;
  const leaves = items.map(leafHash);
  return rootOf(leaves, 0, leaves.length);
}

/** Merkle root from already-computed leaf hashes. */
export function merkleRootFromLeafHashes(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_HASH;
  return rootOf(leaves, 0, leaves.length);
}

export interface MerkleProof {
  total: number;
  index: number;
  leafHash: Uint8Array;
  /** Sibling hashes from the leaf's sibling up to the root's child. */
  aunts: Uint8Array[];
}

/** Root and one proof per item (merkle.ProofsFromByteSlices). */
export function merkleProofs(items: readonly Uint8Array[]): { root: Uint8Array; proofs: MerkleProof[] } {
  const leaves = items.map(leafHash);
  const trails: Uint8Array[][] = leaves.map(() => []);
  const build = (start: number, end: number): Uint8Array => {
    const n = end - start;
    if (n === 0) return EMPTY_HASH;
    if (n === 1) return leaves[start]!;
    const k = splitPoint(n);
    const left = build(start, start + k);
    const right = build(start + k, end);
    for (let i = start; i < start + k; i++) trails[i]!.push(right);
    for (let i = start + k; i < end; i++) trails[i]!.push(left);
    return innerHash(left, right);
  };
  const root = build(0, leaves.length);
  const proofs = leaves.map((leaf, index) => ({ total: leaves.length, index, leafHash: leaf, aunts: trails[index]! }));
  return { root, proofs };
}

/** Proof of one item (cheaper than all proofs when only one is needed). */
export function merkleProof(items: readonly Uint8Array[], index: number): { root: Uint8Array; proof: MerkleProof } {
  if (index < 0 || index >= items.length) throw new RangeError(`proof index ${index} out of range [0, ${items.length})`);
  const leaves = items.map(leafHash);
  const aunts: Uint8Array[] = [];
  const build = (start: number, end: number): Uint8Array => {
    const n = end - start;
    if (n === 1) return leaves[start]!;
    const k = splitPoint(n);
    const left = build(start, start + k);
    const right = build(start + k, end);
    if (index >= start && index < start + k) aunts.push(right);
    else if (index >= start + k && index < end) aunts.push(left);
    return innerHash(left, right);
  };
  const root = build(0, leaves.length);
  return { root, proof: { total: leaves.length, index, leafHash: leaves[index]!, aunts } };
}

function computeHashFromAunts(index: number, total: number, leaf: Uint8Array, aunts: Uint8Array[]): Uint8Array | undefined {
  if (index >= total || index < 0 || total <= 0) return undefined;
  if (total === 1) return aunts.length === 0 ? leaf : undefined;
  if (aunts.length === 0) return undefined;
  const numLeft = splitPoint(total);
  const last = aunts[aunts.length - 1]!;
  const rest = aunts.slice(0, -1);
  if (index < numLeft) {
    const left = computeHashFromAunts(index, numLeft, leaf, rest);
    return left && innerHash(left, last);
  }
  const right = computeHashFromAunts(index - numLeft, total - numLeft, leaf, rest);
  return right && innerHash(last, right);
}

/** True when `proof` proves `item` under `root`. */
export function verifyMerkleProof(proof: MerkleProof, root: Uint8Array, item: Uint8Array): boolean {
  if (proof.aunts.length > 100) return false;
  if (!bytesEqual(proof.leafHash, leafHash(item))) return false;
  const computed = computeHashFromAunts(proof.index, proof.total, proof.leafHash, proof.aunts);
  return computed !== undefined && bytesEqual(computed, root);
}
