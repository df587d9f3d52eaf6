/**
 * ICS-23 membership verification of a chained Merkle proof (ibc-go's MerkleProof.VerifyMembership
 * over cosmos/ics23's ExistenceProof.Verify): the first proof shows key → value in a module store
 * (IAVL spec), the next shows store name → that store's root in the app hash (Tendermint spec),
 * and the last root must be the consensus state's commitment root. Each existence proof is
 * checked against its spec (leaf and inner-node shapes, depth) before its root is computed.
 */
import { createHash } from 'node:crypto';
import { HashOp, LengthOp, type CommitmentProof, type ExistenceProof, type InnerOp, type InnerSpec, type LeafOp, type NonExistenceProof, type ProofSpec } from '../../../../../gen/cosmos/ics23/v1/proofs_pb.js';
import { toHexUpper } from '../../../../consensus/types/bytes.js';
import { CommitmentErrors } from './errors.js';

function digest(op: HashOp, data: Uint8Array): Uint8Array {
  switch (op) {
    case HashOp.NO_HASH:
      return data;
    case HashOp.SHA256:
      return new Uint8Array(createHash('sha256').update(data).digest());
    case HashOp.SHA512:
      return new Uint8Array(createHash('sha512').update(data).digest());
    case HashOp.RIPEMD160:
      return new Uint8Array(createHash('ripemd160').update(data).digest());
    default:
      throw new Error(`unsupported hashop: ${HashOp[op] ?? op}`);
  }
}

function uvarint(n: number): Uint8Array {
  const out: number[] = [];
  let value = n;
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return Uint8Array.from(out);
}

function lengthPrefixed(op: LengthOp, data: Uint8Array): Uint8Array {
  switch (op) {
    case LengthOp.NO_PREFIX:
      return data;
    case LengthOp.VAR_PROTO:
      return concat(uvarint(data.length), data);
    case LengthOp.REQUIRE_32_BYTES:
      if (data.length !== 32) throw new Error(`data was ${data.length} bytes, not 32`);
      return data;
    case LengthOp.REQUIRE_64_BYTES:
      if (data.length !== 64) throw new Error(`data was ${data.length} bytes, not 64`);
      return data;
    default:
      throw new Error(`unsupported lengthop: ${LengthOp[op] ?? op}`);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && startsWith(a, b);
}

function applyLeaf(op: LeafOp, key: Uint8Array, value: Uint8Array): Uint8Array {
  if (key.length === 0) throw new Error('leaf op needs key');
  if (value.length === 0) throw new Error('leaf op needs value');
  const preparedKey = lengthPrefixed(op.length, digest(op.prehashKey, key));
  const preparedValue = lengthPrefixed(op.length, digest(op.prehashValue, value));
  return digest(op.hash, concat(op.prefix, preparedKey, preparedValue));
}

function applyInner(op: InnerOp, child: Uint8Array): Uint8Array {
  if (child.length === 0) throw new Error('inner op needs child value');
  return digest(op.hash, concat(op.prefix, child, op.suffix));
}

/** The root an existence proof computes to (ExistenceProof.Calculate). */
export function calculateExistenceRoot(proof: ExistenceProof): Uint8Array {
  if (proof.leaf === undefined) throw new Error('existence proof must start with a leaf operation');
  let node = applyLeaf(proof.leaf, proof.key, proof.value);
  for (const inner of proof.path) node = applyInner(inner, node);
  return node;
}

/** ExistenceProof.CheckAgainstSpec. */
function checkAgainstSpec(proof: ExistenceProof, spec: ProofSpec): void {
  const leaf = proof.leaf;
  const leafSpec = spec.leafSpec;
  const innerSpec = spec.innerSpec;
  if (leaf === undefined) throw new Error('existence proof must start with a leaf operation');
  if (leafSpec === undefined || innerSpec === undefined) throw new Error('proof spec has no leaf or inner spec');
  if (leaf.hash !== leafSpec.hash) throw new Error(`unexpected HashOp: ${leaf.hash}`);
  if (leaf.prehashKey !== leafSpec.prehashKey) throw new Error(`unexpected PrehashKey: ${leaf.prehashKey}`);
  if (leaf.prehashValue !== leafSpec.prehashValue) throw new Error(`unexpected PrehashValue: ${leaf.prehashValue}`);
  if (leaf.length !== leafSpec.length) throw new Error(`unexpected LengthOp: ${leaf.length}`);
  if (!startsWith(leaf.prefix, leafSpec.prefix)) throw new Error(`leaf prefix doesn't start with ${toHexUpper(leafSpec.prefix)}`);
  if (spec.minDepth > 0 && proof.path.length < spec.minDepth) throw new Error(`innerOps depth too short: ${proof.path.length}`);
  if (spec.maxDepth > 0 && proof.path.length > spec.maxDepth) throw new Error(`innerOps depth too long: ${proof.path.length}`);
  const maxLeftChildBytes = (innerSpec.childOrder.length - 1) * innerSpec.childSize;
  for (const inner of proof.path) {
    if (inner.hash !== innerSpec.hash) throw new Error(`unexpected HashOp: ${inner.hash}`);
    if (startsWith(inner.prefix, leafSpec.prefix)) throw new Error(`inner prefix starts with ${toHexUpper(leafSpec.prefix)}`);
    if (inner.prefix.length < innerSpec.minPrefixLength) throw new Error(`inner prefix too short: ${inner.prefix.length}`);
    if (inner.prefix.length > innerSpec.maxPrefixLength + maxLeftChildBytes) throw new Error(`inner prefix too long: ${inner.prefix.length}`);
    if (innerSpec.childSize <= 0 || inner.suffix.length % innerSpec.childSize !== 0) throw new Error(`inner suffix length ${inner.suffix.length} is not a multiple of the child size ${innerSpec.childSize}`);
  }
}

// ------------------------------------------------------------------ non-existence (cosmos/ics23)

/** getPadding: the prefix and suffix lengths an inner op has when its child is at `branch`. */
function padding(spec: InnerSpec, branch: number): { minPrefix: number; maxPrefix: number; suffix: number } {
  const idx = spec.childOrder.indexOf(branch);
  if (idx < 0) throw new Error(`branch ${branch} not found in child order`);
  const prefix = idx * spec.childSize;
  return { minPrefix: prefix + spec.minPrefixLength, maxPrefix: prefix + spec.maxPrefixLength, suffix: (spec.childOrder.length - 1 - idx) * spec.childSize };
}

function hasPadding(op: InnerOp, pad: { minPrefix: number; maxPrefix: number; suffix: number }): boolean {
  return op.prefix.length >= pad.minPrefix && op.prefix.length <= pad.maxPrefix && op.suffix.length === pad.suffix;
}

/** orderFromPadding: which branch an inner op's child is on (undefined: none fits). */
function branchOf(spec: InnerSpec, op: InnerOp): number | undefined {
  for (let branch = 0; branch < spec.childOrder.length; branch++) if (hasPadding(op, padding(spec, branch))) return branch;
  return undefined;
}

/** leftBranchesAreEmpty: every child left of the op's own is the spec's empty child. */
function leftBranchesAreEmpty(spec: InnerSpec, op: InnerOp): boolean {
  const idx = branchOf(spec, op);
  if (idx === undefined || idx === 0 || spec.emptyChild.length === 0) return false;
  const actualPrefix = op.prefix.length - idx * spec.childSize;
  if (actualPrefix < 0) return false;
  for (let i = 0; i < idx; i++) {
    const from = actualPrefix + spec.childOrder.indexOf(i) * spec.childSize;
    if (!equal(spec.emptyChild, op.prefix.subarray(from, from + spec.childSize))) return false;
  }
  return true;
}

/** rightBranchesAreEmpty: every child right of the op's own is the spec's empty child. */
function rightBranchesAreEmpty(spec: InnerSpec, op: InnerOp): boolean {
  const idx = branchOf(spec, op);
  const last = spec.childOrder.length - 1;
  if (idx === undefined || idx === last || spec.emptyChild.length === 0) return false;
  const rightBranches = last - idx;
  if (op.suffix.length !== spec.childSize * rightBranches) return false;
  for (let i = 0; i < rightBranches; i++) {
    const from = i * spec.childSize;
    if (!equal(spec.emptyChild, op.suffix.subarray(from, from + spec.childSize))) return false;
  }
  return true;
}

function isLeftMost(spec: InnerSpec, path: readonly InnerOp[]): boolean {
  const pad = padding(spec, 0);
  return path.every((op) => hasPadding(op, pad) || rightBranchesAreEmpty(spec, op));
}

function isRightMost(spec: InnerSpec, path: readonly InnerOp[]): boolean {
  const pad = padding(spec, spec.childOrder.length - 1);
  return path.every((op) => hasPadding(op, pad) || leftBranchesAreEmpty(spec, op));
}

/** IsLeftNeighbor: the two paths split at one node, left going right-most below it, right left-most. */
function isLeftNeighbor(spec: InnerSpec, left: readonly InnerOp[], right: readonly InnerOp[]): boolean {
  let l = left.length - 1;
  let r = right.length - 1;
  while (l >= 0 && r >= 0 && equal(left[l]!.prefix, right[r]!.prefix) && equal(left[l]!.suffix, right[r]!.suffix)) {
    l--;
    r--;
  }
  if (l < 0 || r < 0) return false;
  const leftBranch = branchOf(spec, left[l]!);
  const rightBranch = branchOf(spec, right[r]!);
  if (leftBranch === undefined || rightBranch === undefined || rightBranch !== leftBranch + 1) return false;
  return isRightMost(spec, left.slice(0, l)) && isLeftMost(spec, right.slice(0, r));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** ExistenceProof.Verify against a spec and root (the neighbours of a non-existence proof). */
function verifyExistence(proof: ExistenceProof, spec: ProofSpec, root: Uint8Array): void {
  checkAgainstSpec(proof, spec);
  if (!equal(calculateExistenceRoot(proof), root)) throw new Error('calculated root does not match the given root');
}

/** NonExistenceProof.Verify: `key` lies strictly between two adjacent leaves (or beyond the last / before the first). */
function verifyNonExistence(proof: NonExistenceProof, spec: ProofSpec, root: Uint8Array, key: Uint8Array): void {
  const innerSpec = spec.innerSpec;
  if (innerSpec === undefined) throw new Error('proof spec has no inner spec');
  if (proof.left === undefined && proof.right === undefined) throw new Error('both left and right proofs are missing');
  if (proof.left !== undefined) {
    verifyExistence(proof.left, spec, root);
    if (compareBytes(key, proof.left.key) <= 0) throw new Error('key is not right of the left proof');
  }
  if (proof.right !== undefined) {
    verifyExistence(proof.right, spec, root);
    if (compareBytes(key, proof.right.key) >= 0) throw new Error('key is not left of the right proof');
  }
  if (proof.left === undefined) {
    if (!isLeftMost(innerSpec, proof.right!.path)) throw new Error('left proof missing, right proof must be left-most');
  } else if (proof.right === undefined) {
    if (!isRightMost(innerSpec, proof.left.path)) throw new Error('right proof missing, left proof must be right-most');
  } else if (!isLeftNeighbor(innerSpec, proof.left.path, proof.right.path)) {
    throw new Error('right proof is not the left neighbor of the left proof');
  }
}

/**
 * VerifyNonMembership of a chained proof (ibc-go MerkleProof.VerifyNonMembership): the first proof
 * shows the key absent from the module store, the rest prove that store's root up to `root`.
 */
export function verifyChainedNonMembership(specs: readonly ProofSpec[], root: Uint8Array, path: readonly string[], proofs: readonly CommitmentProof[]): void {
  if (proofs.length === 0) throw CommitmentErrors.InvalidMerkleProof.wrap('proof cannot be empty');
  if (root.length === 0) throw CommitmentErrors.InvalidProof.wrap('root cannot be empty');
  if (specs.length !== proofs.length) throw CommitmentErrors.InvalidMerkleProof.wrap(`length of specs: ${specs.length} not equal to length of proof: ${proofs.length}`);
  if (path.length !== proofs.length) throw CommitmentErrors.InvalidProof.wrap(`path length ${path.length} not same as proof ${proofs.length}`);
  const first = proofs[0]!.proof;
  if (first.case !== 'nonexist') throw CommitmentErrors.InvalidProof.wrap(`expected proof type: *ics23.CommitmentProof_Nonexist, got: ${first.case ?? 'nil'}`);
  const nonexist = first.value;
  const neighbour = nonexist.left ?? nonexist.right;
  let subroot: Uint8Array;
  try {
    if (neighbour === undefined) throw new Error('nonexistence proof has empty Left and Right proof');
    subroot = calculateExistenceRoot(neighbour);
  } catch (err) {
    throw CommitmentErrors.InvalidProof.wrap(`could not calculate root for proof index 0, merkle tree is likely empty. ${(err as Error).message}`);
  }
  const keyText = decodeURIComponent(path[path.length - 1]!);
  try {
    verifyNonExistence(nonexist, specs[0]!, subroot, new TextEncoder().encode(keyText));
  } catch {
    throw CommitmentErrors.InvalidProof.wrap(`could not verify absence of key ${keyText}. Please ensure that the path is correct.`);
  }
  verifyChainedMembership(specs.slice(1), root, path.slice(0, path.length - 1), proofs.slice(1), subroot);
}

/**
 * VerifyMembership of a chained proof: `proofs` leaf first, `path` root first (store name, key),
 * `specs` one per proof. Throws commitment/2 (invalid proof) or /4 (invalid merkle proof).
 */
export function verifyChainedMembership(specs: readonly ProofSpec[], root: Uint8Array, path: readonly string[], proofs: readonly CommitmentProof[], value: Uint8Array): void {
  if (proofs.length === 0) throw CommitmentErrors.InvalidMerkleProof.wrap('proof cannot be empty');
  if (root.length === 0) throw CommitmentErrors.InvalidProof.wrap('root cannot be empty');
  if (specs.length !== proofs.length) throw CommitmentErrors.InvalidMerkleProof.wrap(`length of specs: ${specs.length} not equal to length of proof: ${proofs.length}`);
  if (path.length !== proofs.length) throw CommitmentErrors.InvalidProof.wrap(`path length ${path.length} not same as proof ${proofs.length}`);
  let current = value;
  let subroot = value;
  for (let i = 0; i < proofs.length; i++) {
    const proof = proofs[i]!.proof;
    if (proof.case !== 'exist') {
      throw CommitmentErrors.InvalidProof.wrap(`chained membership proof contains nonexistence proof at index ${i}. If this is unexpected, please ensure that proof was queried from a height that contained the value in store and was queried with the correct key. The key used: ${path[path.length - 1 - i]}`);
    }
    const exist = proof.value;
    try {
      subroot = calculateExistenceRoot(exist);
    } catch (err) {
      throw CommitmentErrors.InvalidProof.wrap(`could not calculate proof root at index ${i}, merkle tree may be empty. ${(err as Error).message}`);
    }
    const key = new TextEncoder().encode(decodeURIComponent(path[path.length - 1 - i]!));
    let ok = equal(exist.key, key) && equal(exist.value, current);
    if (ok) {
      try {
        checkAgainstSpec(exist, specs[i]!);
      } catch {
        ok = false;
      }
    }
    if (!ok) {
      throw CommitmentErrors.InvalidProof.wrap(`chained membership proof failed to verify membership of value: ${toHexUpper(current)} in subroot ${toHexUpper(subroot)} at index ${i}. Please ensure the path and value are both correct.`);
    }
    current = subroot;
  }
  if (!equal(root, subroot)) {
    throw CommitmentErrors.InvalidProof.wrap(`proof did not commit to expected root: ${toHexUpper(root)}, got: ${toHexUpper(subroot)}. Please ensure proof was submitted with correct proofHeight and to the correct chain.`);
  }
}
