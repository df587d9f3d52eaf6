/**
 * The SDK's commitment above the IAVL trees, and ICS23 proofs of both levels.
 *
 * App hash (rootmulti commitInfo hash): CometBFT's simple Merkle root (leaf = sha256(0x00 ‖
 * item), inner = sha256(0x01 ‖ left ‖ right), split at the largest power of two below n; the
 * empty list hashes to sha256("")) over the stores sorted by name, item = uvarint(len name) ‖
 * name ‖ uvarint(32) ‖ sha256(store root).
 *
 * A proof of key K in store S at version v is two ProofOps, as the SDK's rootmulti returns them:
 *   1. type `ics23:iavl`, key K: a CommitmentProof with an ExistenceProof (K, value, leaf op with
 *      prefix zz(0) ‖ zz(1) ‖ zz(leaf version), inner ops from the leaf up: prefix zz(height) ‖
 *      zz(size) ‖ zz(version) then 0x20 ‖ left hash ‖ 0x20 when the path comes from the right,
 *      or prefix … ‖ 0x20 with suffix 0x20 ‖ right hash when it comes from the left) or a
 *      NonExistenceProof (existence proofs of the neighbours at index-1 and index).
 *   2. type `ics23:simple`, key S: an ExistenceProof of (S → store root) in the simple Merkle tree
 *      (leaf prefix 0x00, prehash value sha256, VAR_PROTO lengths; inner prefix 0x01 ‖ left or
 *      0x01 with suffix right).
 * Verified with @confio/ics23's iavlSpec then tendermintSpec against the app hash in header v+1.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import {
  CommitmentProofSchema,
  ExistenceProofSchema,
  HashOp,
  InnerOpSchema,
  LeafOpSchema,
  LengthOp,
  NonExistenceProofSchema,
  type ExistenceProof,
  type InnerOp,
} from '../../../gen/cosmos/ics23/v1/proofs_pb.js';
import { concatBytes, uvarint } from '../bytes.js';
import { sha256 } from '../hash.js';
import type { ProofOp } from '../interface.js';
import { zigZagBytes, type NodeView } from './tree.js';

export const PROOF_OP_IAVL = 'ics23:iavl';
export const PROOF_OP_SIMPLE = 'ics23:simple';
const HASH_SIZE = 32;
const encoder = new TextEncoder();

// ------------------------------------------------------------------ multistore

function splitPoint(length: number): number {
  let k = 1;
  while (k * 2 < length) k *= 2;
  return k;
}

function simpleLeaf(item: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(0), item));
}

function simpleInner(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(1), left, right));
}

function storeItem(name: string, root: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name);
  return concatBytes(uvarint(nameBytes.length), nameBytes, uvarint(HASH_SIZE), sha256(root));
}

function simpleRoot(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array(0));
  if (items.length === 1) return simpleLeaf(items[0]!);
  const k = splitPoint(items.length);
  return simpleInner(simpleRoot(items.slice(0, k)), simpleRoot(items.slice(k)));
}

function sorted(roots: ReadonlyArray<readonly [string, Uint8Array]>): (readonly [string, Uint8Array])[] {
  return [...roots].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The app hash over (store name → store root), as the SDK's CommitInfo.Hash(). */
export function appHashOf(roots: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  return simpleRoot(sorted(roots).map(([name, root]) => storeItem(name, root)));
}

/** Inner ops from the item at `index` up to the root (deepest first). */
function simplePath(items: readonly Uint8Array[], index: number): InnerOp[] {
  if (items.length <= 1) return [];
  const k = splitPoint(items.length);
  if (index < k) {
    return [...simplePath(items.slice(0, k), index), create(InnerOpSchema, { hash: HashOp.SHA256, prefix: Uint8Array.of(1), suffix: simpleRoot(items.slice(k)) })];
  }
  return [...simplePath(items.slice(k), index - k), create(InnerOpSchema, { hash: HashOp.SHA256, prefix: concatBytes(Uint8Array.of(1), simpleRoot(items.slice(0, k))) })];
}

/** The `ics23:simple` op proving `store → root` against the app hash of `roots`. */
export function simpleProofOp(roots: ReadonlyArray<readonly [string, Uint8Array]>, store: string): ProofOp {
  const ordered = sorted(roots);
  const index = ordered.findIndex(([name]) => name === store);
  if (index < 0) throw new Error(`store ${store} is not part of this commit`);
  const items = ordered.map(([name, root]) => storeItem(name, root));
  const exist = create(ExistenceProofSchema, {
    key: encoder.encode(store),
    value: ordered[index]![1],
    leaf: create(LeafOpSchema, { hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix: Uint8Array.of(0) }),
    path: simplePath(items, index),
  });
  const proof = create(CommitmentProofSchema, { proof: { case: 'exist', value: exist } });
  return { type: PROOF_OP_SIMPLE, key: encoder.encode(store), data: toBinary(CommitmentProofSchema, proof) };
}

// ------------------------------------------------------------------ IAVL

function compare(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** (number of keys < key, whether key is present), as IAVL's GetWithIndex. */
export function indexOfKey(root: NodeView, key: Uint8Array): { index: number; found: boolean } {
  let node = root;
  let index = 0;
  while (!node.isLeaf) {
    if (compare(key, node.key) < 0) node = node.left();
    else {
      index += node.left().size;
      node = node.right();
    }
  }
  const order = compare(node.key, key);
  if (order === 0) return { index, found: true };
  return { index: order < 0 ? index + 1 : index, found: false };
}

/** The key at `index` in key order, or undefined past the end. */
export function keyAtIndex(root: NodeView, index: number): Uint8Array | undefined {
  if (index < 0 || index >= root.size) return undefined;
  let node = root;
  let i = index;
  while (!node.isLeaf) {
    const left = node.left();
    if (i < left.size) node = left;
    else {
      i -= left.size;
      node = node.right();
    }
  }
  return node.key;
}

function existence(root: NodeView, key: Uint8Array, value: Uint8Array): ExistenceProof {
  const steps: { node: NodeView; sibling: Uint8Array; fromRight: boolean }[] = [];
  let node = root;
  while (!node.isLeaf) {
    if (compare(key, node.key) < 0) {
      steps.push({ node, sibling: node.right().hash, fromRight: false });
      node = node.left();
    } else {
      steps.push({ node, sibling: node.left().hash, fromRight: true });
      node = node.right();
    }
  }
  if (compare(node.key, key) !== 0) throw new Error('key not in tree');
  const path: InnerOp[] = [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const { node: inner, sibling, fromRight } = steps[i]!;
    const head = concatBytes(zigZagBytes(inner.height), zigZagBytes(inner.size), zigZagBytes(inner.version));
    path.push(
      fromRight
        ? create(InnerOpSchema, { hash: HashOp.SHA256, prefix: concatBytes(head, Uint8Array.of(HASH_SIZE), sibling, Uint8Array.of(HASH_SIZE)) })
        : create(InnerOpSchema, { hash: HashOp.SHA256, prefix: concatBytes(head, Uint8Array.of(HASH_SIZE)), suffix: concatBytes(Uint8Array.of(HASH_SIZE), sibling) }),
    );
  }
  return create(ExistenceProofSchema, {
    key,
    value,
    leaf: create(LeafOpSchema, {
      hash: HashOp.SHA256,
      prehashKey: HashOp.NO_HASH,
      prehashValue: HashOp.SHA256,
      length: LengthOp.VAR_PROTO,
      prefix: concatBytes(zigZagBytes(0), zigZagBytes(1), zigZagBytes(node.version)),
    }),
    path,
  });
}

/**
 * The `ics23:iavl` op for `key` in the tree under `root`: existence when `value` is defined,
 * else non-existence through the neighbours (`valueOf` reads their values at the same version).
 */
export function iavlProofOp(root: NodeView, key: Uint8Array, value: Uint8Array | undefined, valueOf: (key: Uint8Array) => Uint8Array): ProofOp {
  let proof;
  if (value !== undefined) {
    proof = create(CommitmentProofSchema, { proof: { case: 'exist', value: existence(root, key, value) } });
  } else {
    const { index, found } = indexOfKey(root, key);
    if (found) throw new Error('key is in the tree but no value was given');
    const leftKey = keyAtIndex(root, index - 1);
    const rightKey = keyAtIndex(root, index);
    const nonexist = create(NonExistenceProofSchema, {
      key,
      left: leftKey === undefined ? undefined : existence(root, leftKey, valueOf(leftKey)),
      right: rightKey === undefined ? undefined : existence(root, rightKey, valueOf(rightKey)),
    });
    proof = create(CommitmentProofSchema, { proof: { case: 'nonexist', value: nonexist } });
  }
  return { type: PROOF_OP_IAVL, key, data: toBinary(CommitmentProofSchema, proof) };
}
