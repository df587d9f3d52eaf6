/**
 * An IAVL tree (cosmos/iavl v1 semantics) held in typed-array arenas.
 *
 * Shape and hashes are those of the Go implementation: the same Set/Remove calls at the same
 * versions give the same root. What is IAVL's, restated here as facts:
 *
 *  - leaf hash  = sha256(zz(0) ‖ zz(1) ‖ zz(version) ‖ uvarint(len key) ‖ key ‖ 0x20 ‖ sha256(value))
 *  - inner hash = sha256(zz(height) ‖ zz(size) ‖ zz(version) ‖ 0x20 ‖ left hash ‖ 0x20 ‖ right hash)
 *    (zz = zig-zag signed varint); the empty tree hashes to sha256("").
 *  - an inner node's key is the smallest key of its right subtree; a key < node.key goes left.
 *  - Set: an existing key gets a new leaf (new version) and every node on its path is re-created
 *    with the working version, no rebalancing; a new key splits the leaf it reaches into an
 *    inner node of height 1 and the path is re-created, recomputed and AVL-balanced bottom-up
 *    (balance > 1: left-left → rotate right, left-right → rotate left then right; mirrored).
 *  - Remove: the removed leaf's sibling takes its parent's place; a removal on the left passes
 *    the parent's key up as the new leftmost key of that subtree, which the first ancestor
 *    reached from its right side adopts; the path is recomputed and balanced.
 *  - A node's version is the version that created it. Nodes of committed versions are never
 *    modified: writing through one creates a copy (the old slot becomes an orphan, freed after
 *    the next commit); nodes created in the working version are updated in place.
 *
 * Storage: one slot per node in parallel typed arrays (≈60 bytes a node plus the key bytes in
 * one growing key arena), so a tree of millions of nodes is a handful of large objects for the
 * garbage collector. A slot may be a *stub*: only its address (version, index in that version's
 * node record) is known and the rest is loaded from a `NodeSource` on first use — opening a
 * store needs only its root's address.
 */
import { sha256 } from '../../../util/hash.js';
import { runToEnd } from '../../../util/slices.js';
import { sha256Input, sha256OfInput, sha256OfPrefixAndTwoHashes } from '../../../util/sha256.js';

export const NONE = -1;
const HASH_SIZE = 32;
const WORDS_PER_HASH = HASH_SIZE / 4;
const INITIAL_SLOTS = 1024;
const INITIAL_KEY_BYTES = 64 * 1024;
const MAX_VERSION = 0xffff_ffff;

/** A node as stored on disk (see nodes.ts). Children are addresses (version, index). */
export interface StoredNode {
  height: number;
  size: number;
  key: Uint8Array;
  hash: Uint8Array;
  leftVersion: number;
  leftIndex: number;
  rightVersion: number;
  rightIndex: number;
}

/** Receives nodes to persist (nodes.ts NodeChunkEncoder). */
export interface NodeSink {
  add(height: number, size: number, keyBytes: Uint8Array, keyStart: number, keyLength: number, hashBytes: Uint8Array, hashStart: number, leftVersion: number, leftIndex: number, rightVersion: number, rightIndex: number): void;
}

export interface NodeSource {
  /**
   * The node created at `version` with index `index` in that version's record, and (inner
   * nodes) its children as stored. Throws if missing or damaged.
   */
  load(version: number, index: number): { node: StoredNode; left?: StoredNode; right?: StoredNode };
}

/** Slot states: only the address is known; height, size and hash too; everything. */
const ADDRESS_ONLY = 0;
const FULL = 1;
const META = 2;
/** A released slot (warm-up skips it). */
const FREE = 3;

/** Read-only view of one node, shared by the live tree and historical (on-disk) trees. */
export interface NodeView {
  readonly isLeaf: boolean;
  readonly height: number;
  readonly size: number;
  readonly version: number;
  readonly key: Uint8Array;
  readonly hash: Uint8Array;
  left(): NodeView;
  right(): NodeView;
}

/** Zig-zag signed varint (Go's binary.PutVarint) of a safe integer (the tree's are never negative). */
export function writeZigZag(out: Uint8Array, offset: number, value: number): number {
  if (value >= 0 && value < 0x8000_0000) {
    // Integer arithmetic while 2 × value fits in 32 bits (heights, sizes, versions in practice).
    let u = (value * 2) >>> 0;
    while (u > 0x7f) {
      out[offset++] = (u & 0x7f) | 0x80;
      u >>>= 7;
    }
    out[offset++] = u;
    return offset;
  }
  let v = value < 0 ? -2 * value - 1 : value * 2;
  while (v >= 0x80) {
    out[offset++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[offset++] = v;
  return offset;
}

export function writeUvarint(out: Uint8Array, offset: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[offset++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[offset++] = v;
  return offset;
}

export function zigZagBytes(value: number): Uint8Array {
  const out = new Uint8Array(10);
  return out.slice(0, writeZigZag(out, 0, value));
}

/** IAVL leaf hash of (key, sha256(value)) created at `version`, written to out[offset, offset + 32). */
export function leafHashInto(key: Uint8Array, valueHash: Uint8Array, version: number, out: Uint8Array, offset: number): void {
  // The input is built straight in the hasher's input buffer (keys are far below its 32 KiB).
  let input = sha256Input();
  const need = 2 + 10 + 10 + key.length + 1 + HASH_SIZE;
  if (need > input.length) input = new Uint8Array(need);
  input[0] = 0;
  input[1] = 2;
  let o = writeZigZag(input, 2, version);
  o = writeUvarint(input, o, key.length);
  for (let i = 0; i < key.length; i++) input[o++] = key[i]!;
  input[o++] = HASH_SIZE;
  for (let i = 0; i < HASH_SIZE; i++) input[o++] = valueHash[i]!;
  if (input === sha256Input()) sha256OfInput(o, out, offset);
  else out.set(sha256(input.subarray(0, o)), offset);
}

/** IAVL leaf hash of (key, sha256(value)) created at `version`. */
export function leafHash(key: Uint8Array, valueHash: Uint8Array, version: number): Uint8Array {
  const out = new Uint8Array(HASH_SIZE);
  leafHashInto(key, valueHash, version, out, 0);
  return out;
}

export const EMPTY_TREE_HASH: Uint8Array = sha256(new Uint8Array(0));

/** A stack of slot numbers in one growing Int32Array (kept across blocks: no per-block arrays to grow). */
class SlotStack {
  items = new Int32Array(256);
  length = 0;

  push(slot: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = slot;
  }

  /** The top slot, removed; NONE when empty. */
  pop(): number {
    return this.length === 0 ? NONE : this.items[--this.length]!;
  }

  clear(): void {
    this.length = 0;
  }
}

export class IavlTree {
  private capacity = 0;
  private leftOf = new Int32Array(0);
  private rightOf = new Int32Array(0);
  private heightOf = new Uint8Array(0);
  private sizeOf = new Uint32Array(0);
  private versionOf = new Uint32Array(0);
  /** Index of the node in its version's node record (its address with versionOf). */
  private indexOf = new Uint32Array(0);
  /** 1 when the slot's fields are present, 0 for a stub. */
  private loaded = new Uint8Array(0);
  /** 1 when hashes[slot] is up to date. */
  private hashed = new Uint8Array(0);
  private hashes = new Uint8Array(0);
  /** The same arena as 32-bit words (eight per hash), for the inner-node hash input. */
  private hashWords = new Int32Array(0);
  private keyOffset = new Uint32Array(0);
  private keyLength = new Uint32Array(0);
  private keyBytes = new Uint8Array(INITIAL_KEY_BYTES);
  private keyUsed = 0;
  private readonly freeSlots = new SlotStack();
  private used = 0;

  /** Root of the last committed version. */
  private committedRoot = NONE;
  /** Root of the working tree (committed root plus the writes applied since). */
  private root = NONE;
  /** 1 for a slot created in the working version (persisted at commit, freed on discard). */
  private isWorking = new Uint8Array(0);
  /**
   * Slots marked in isWorking, in creation order; may also hold slots dropped (and maybe
   * re-used) since: isWorking decides, and each slot is handled once.
   */
  private readonly workingList = new SlotStack();
  /** Committed slots replaced in the working version (freed after commit). */
  private readonly orphans = new SlotStack();

  constructor(
    private readonly source: NodeSource | undefined,
    /** The version the next commit creates. */
    public workingVersion: number,
  ) {
    this.grow(INITIAL_SLOTS);
  }

  // ------------------------------------------------------------------ arena

  private grow(min: number): void {
    let next = Math.max(this.capacity * 2, INITIAL_SLOTS);
    while (next < min) next *= 2;
    const copy = <T extends Int32Array | Uint32Array | Uint8Array>(old: T, make: (n: number) => T, width = 1): T => {
      const out = make(next * width);
      out.set(old);
      return out;
    };
    this.leftOf = copy(this.leftOf, (n) => new Int32Array(n));
    this.rightOf = copy(this.rightOf, (n) => new Int32Array(n));
    this.heightOf = copy(this.heightOf, (n) => new Uint8Array(n));
    this.sizeOf = copy(this.sizeOf, (n) => new Uint32Array(n));
    this.versionOf = copy(this.versionOf, (n) => new Uint32Array(n));
    this.indexOf = copy(this.indexOf, (n) => new Uint32Array(n));
    this.loaded = copy(this.loaded, (n) => new Uint8Array(n));
    this.hashed = copy(this.hashed, (n) => new Uint8Array(n));
    this.isWorking = copy(this.isWorking, (n) => new Uint8Array(n));
    this.hashes = copy(this.hashes, (n) => new Uint8Array(n), HASH_SIZE);
    this.hashWords = new Int32Array(this.hashes.buffer, this.hashes.byteOffset, this.hashes.length >>> 2);
    this.keyOffset = copy(this.keyOffset, (n) => new Uint32Array(n));
    this.keyLength = copy(this.keyLength, (n) => new Uint32Array(n));
    this.capacity = next;
  }

  private alloc(): number {
    const reused = this.freeSlots.pop();
    if (reused !== NONE) return reused;
    if (this.used >= this.capacity) this.grow(this.used + 1);
    return this.used++;
  }

  private release(slot: number): void {
    this.loaded[slot] = FREE;
    this.isWorking[slot] = 0;
    this.hashed[slot] = 0;
    this.freeSlots.push(slot);
  }

  private storeKey(slot: number, key: Uint8Array): void {
    if (this.keyUsed + key.length > this.keyBytes.length) {
      let next = this.keyBytes.length * 2;
      while (next < this.keyUsed + key.length) next *= 2;
      const grown = new Uint8Array(next);
      grown.set(this.keyBytes.subarray(0, this.keyUsed));
      this.keyBytes = grown;
    }
    this.keyBytes.set(key, this.keyUsed);
    this.keyOffset[slot] = this.keyUsed;
    this.keyLength[slot] = key.length;
    this.keyUsed += key.length;
  }

  /**
   * A stub for the node at (version, index); with `meta` (the node as its parent's load decoded
   * it) its height, size and hash are known too, which is all hashing and balancing need of a
   * sibling — only nodes a write goes through are loaded in full.
   */
  private stub(version: number, index: number, meta?: StoredNode): number {
    const slot = this.alloc();
    this.versionOf[slot] = version;
    this.indexOf[slot] = index;
    if (meta === undefined) {
      this.loaded[slot] = ADDRESS_ONLY;
      this.hashed[slot] = 0;
    } else {
      this.loaded[slot] = META;
      this.heightOf[slot] = meta.height;
      this.sizeOf[slot] = meta.size;
      this.hashes.set(meta.hash, slot * HASH_SIZE);
      this.hashed[slot] = 1;
    }
    return slot;
  }

  private ensure(slot: number): void {
    if (this.loaded[slot] === FULL) return;
    if (this.source === undefined) throw new Error('IAVL node is not loaded and the tree has no node source');
    const { node, left, right } = this.source.load(this.versionOf[slot]!, this.indexOf[slot]!);
    this.heightOf[slot] = node.height;
    this.sizeOf[slot] = node.size;
    this.storeKey(slot, node.key);
    this.hashes.set(node.hash, slot * HASH_SIZE);
    this.hashed[slot] = 1;
    if (node.height > 0) {
      const leftSlot = this.stub(node.leftVersion, node.leftIndex, left);
      const rightSlot = this.stub(node.rightVersion, node.rightIndex, right);
      this.leftOf[slot] = leftSlot;
      this.rightOf[slot] = rightSlot;
    } else {
      this.leftOf[slot] = NONE;
      this.rightOf[slot] = NONE;
    }
    this.loaded[slot] = FULL;
  }

  private ensureMeta(slot: number): void {
    if (this.loaded[slot] === ADDRESS_ONLY) this.ensure(slot);
  }

  /** Bytes of the key arena and slots in use (benchmarks, metrics). */
  memoryBytes(): number {
    return this.capacity * (4 * 7 + 4 + HASH_SIZE) + this.keyBytes.length;
  }

  get nodeCount(): number {
    return this.used - this.freeSlots.length;
  }

  // ------------------------------------------------------------------ keys

  /** compare(key, key of slot) */
  private compareKey(key: Uint8Array, slot: number): number {
    const off = this.keyOffset[slot]!;
    const len = this.keyLength[slot]!;
    const bytes = this.keyBytes;
    const n = key.length < len ? key.length : len;
    for (let i = 0; i < n; i++) {
      const d = key[i]! - bytes[off + i]!;
      if (d !== 0) return d;
    }
    return key.length - len;
  }

  keyOf(slot: number): Uint8Array {
    this.ensure(slot);
    const off = this.keyOffset[slot]!;
    return this.keyBytes.slice(off, off + this.keyLength[slot]!);
  }

  private copyKey(to: number, from: number): void {
    this.keyOffset[to] = this.keyOffset[from]!;
    this.keyLength[to] = this.keyLength[from]!;
  }

  // ------------------------------------------------------------------ nodes

  private newLeaf(key: Uint8Array, valueHash: Uint8Array, keySlot: number): number {
    const slot = this.alloc();
    this.leftOf[slot] = NONE;
    this.rightOf[slot] = NONE;
    this.heightOf[slot] = 0;
    this.sizeOf[slot] = 1;
    this.versionOf[slot] = this.workingVersion;
    this.loaded[slot] = 1;
    if (keySlot === NONE) this.storeKey(slot, key);
    else this.copyKey(slot, keySlot);
    leafHashInto(key, valueHash, this.workingVersion, this.hashes, slot * HASH_SIZE);
    this.hashed[slot] = 1;
    this.markWorking(slot);
    return slot;
  }

  private markWorking(slot: number): void {
    this.isWorking[slot] = 1;
    this.workingList.push(slot);
  }

  /** The node itself if it is new in the working version, else a working copy of it. */
  private writable(slot: number): number {
    this.ensure(slot);
    if (this.isWorking[slot] === 1) return slot;
    const copy = this.alloc();
    this.leftOf[copy] = this.leftOf[slot]!;
    this.rightOf[copy] = this.rightOf[slot]!;
    this.heightOf[copy] = this.heightOf[slot]!;
    this.sizeOf[copy] = this.sizeOf[slot]!;
    this.versionOf[copy] = this.workingVersion;
    this.loaded[copy] = 1;
    this.hashed[copy] = 0;
    this.copyKey(copy, slot);
    this.markWorking(copy);
    this.orphans.push(slot);
    return copy;
  }

  /** Drop a node that is no longer part of the working tree. */
  private drop(slot: number): void {
    if (this.isWorking[slot] === 1) this.release(slot);
    else this.orphans.push(slot);
  }

  private height(slot: number): number {
    this.ensureMeta(slot);
    return this.heightOf[slot]!;
  }

  private size(slot: number): number {
    this.ensureMeta(slot);
    return this.sizeOf[slot]!;
  }

  private recalc(slot: number): void {
    const l = this.leftOf[slot]!;
    const r = this.rightOf[slot]!;
    const hl = this.height(l);
    const hr = this.height(r);
    this.heightOf[slot] = (hl > hr ? hl : hr) + 1;
    this.sizeOf[slot] = this.size(l) + this.size(r);
    this.hashed[slot] = 0;
  }

  private balanceOf(slot: number): number {
    this.ensure(slot);
    return this.height(this.leftOf[slot]!) - this.height(this.rightOf[slot]!);
  }

  private rotateRight(slot: number): number {
    const node = this.writable(slot);
    const top = this.writable(this.leftOf[node]!);
    this.leftOf[node] = this.rightOf[top]!;
    this.rightOf[top] = node;
    this.recalc(node);
    this.recalc(top);
    return top;
  }

  private rotateLeft(slot: number): number {
    const node = this.writable(slot);
    const top = this.writable(this.rightOf[node]!);
    this.rightOf[node] = this.leftOf[top]!;
    this.leftOf[top] = node;
    this.recalc(node);
    this.recalc(top);
    return top;
  }

  private balance(node: number): number {
    const balance = this.balanceOf(node);
    if (balance > 1) {
      if (this.balanceOf(this.leftOf[node]!) >= 0) return this.rotateRight(node);
      const rotated = this.rotateLeft(this.leftOf[node]!);
      this.leftOf[node] = rotated;
      return this.rotateRight(node);
    }
    if (balance < -1) {
      if (this.balanceOf(this.rightOf[node]!) <= 0) return this.rotateLeft(node);
      const rotated = this.rotateRight(this.rightOf[node]!);
      this.rightOf[node] = rotated;
      return this.rotateLeft(node);
    }
    return node;
  }

  // ------------------------------------------------------------------ writes

  private pathSlots = new Int32Array(128);
  private pathLeft = new Uint8Array(128);

  /**
   * Walk from the root to the leaf `key` routes to, making every inner node on the way writable
   * (IAVL clones the path top-down). Returns the depth; the path is in pathSlots/pathLeft and
   * the leaf slot in `this.leafAtEnd`.
   */
  private writablePath(key: Uint8Array): number {
    let slot = this.root;
    let depth = 0;
    for (;;) {
      this.ensure(slot);
      if (this.heightOf[slot] === 0) break;
      const node = this.writable(slot);
      this.hashed[node] = 0;
      if (depth >= this.pathSlots.length) {
        const slots = new Int32Array(depth * 2);
        slots.set(this.pathSlots);
        this.pathSlots = slots;
        const left = new Uint8Array(depth * 2);
        left.set(this.pathLeft);
        this.pathLeft = left;
      }
      const goLeft = this.compareKey(key, node) < 0;
      this.pathSlots[depth] = node;
      this.pathLeft[depth] = goLeft ? 1 : 0;
      depth++;
      slot = goLeft ? this.leftOf[node]! : this.rightOf[node]!;
    }
    this.leafAtEnd = slot;
    return depth;
  }

  private leafAtEnd = NONE;

  /** Set `key` to a value whose sha256 is `valueHash`. Returns true when the key existed. */
  set(key: Uint8Array, valueHash: Uint8Array): boolean {
    if (this.workingVersion > MAX_VERSION) throw new Error(`IAVL version ${this.workingVersion} exceeds ${MAX_VERSION}`);
    if (this.root === NONE) {
      this.root = this.newLeaf(key, valueHash, NONE);
      return false;
    }
    const depth = this.writablePath(key);
    const leaf = this.leafAtEnd;
    const order = this.compareKey(key, leaf);
    let child: number;
    const updated = order === 0;
    if (updated) {
      child = this.newLeaf(key, valueHash, leaf);
      this.drop(leaf);
    } else {
      const fresh = this.newLeaf(key, valueHash, NONE);
      const inner = this.alloc();
      this.heightOf[inner] = 1;
      this.sizeOf[inner] = 2;
      this.versionOf[inner] = this.workingVersion;
      this.loaded[inner] = 1;
      this.hashed[inner] = 0;
      this.markWorking(inner);
      if (order < 0) {
        this.leftOf[inner] = fresh;
        this.rightOf[inner] = leaf;
        this.copyKey(inner, leaf);
      } else {
        this.leftOf[inner] = leaf;
        this.rightOf[inner] = fresh;
        this.copyKey(inner, fresh);
      }
      child = inner;
    }
    for (let i = depth - 1; i >= 0; i--) {
      const node = this.pathSlots[i]!;
      if (this.pathLeft[i] === 1) this.leftOf[node] = child;
      else this.rightOf[node] = child;
      if (updated) child = node;
      else {
        this.recalc(node);
        child = this.balance(node);
      }
    }
    this.root = child;
    return updated;
  }

  /** Remove `key`. Returns true when it existed. */
  remove(key: Uint8Array): boolean {
    if (this.root === NONE) return false;
    if (!this.has(key)) return false;
    const depth = this.writablePath(key);
    this.drop(this.leafAtEnd);
    let child = NONE;
    // The key that becomes the leftmost of a subtree whose leftmost leaf was removed (-1: none);
    // the first ancestor reached from its right side adopts it.
    let newKeyOffset = -1;
    let newKeyLength = 0;
    for (let i = depth - 1; i >= 0; i--) {
      const node = this.pathSlots[i]!;
      if (this.pathLeft[i] === 1) {
        if (child === NONE) {
          child = this.rightOf[node]!;
          newKeyOffset = this.keyOffset[node]!;
          newKeyLength = this.keyLength[node]!;
          this.drop(node);
          continue;
        }
        this.leftOf[node] = child;
        this.recalc(node);
        child = this.balance(node);
      } else {
        if (child === NONE) {
          child = this.leftOf[node]!;
          newKeyOffset = -1;
          this.drop(node);
          continue;
        }
        this.rightOf[node] = child;
        if (newKeyOffset >= 0) {
          this.keyOffset[node] = newKeyOffset;
          this.keyLength[node] = newKeyLength;
        }
        newKeyOffset = -1;
        this.recalc(node);
        child = this.balance(node);
      }
    }
    this.root = child;
    return true;
  }

  has(key: Uint8Array): boolean {
    let slot = this.root;
    if (slot === NONE) return false;
    for (;;) {
      this.ensure(slot);
      if (this.heightOf[slot] === 0) return this.compareKey(key, slot) === 0;
      slot = this.compareKey(key, slot) < 0 ? this.leftOf[slot]! : this.rightOf[slot]!;
    }
  }

  // ------------------------------------------------------------------ hashing

  private hashSlot(slot: number): void {
    const l = this.leftOf[slot]!;
    const r = this.rightOf[slot]!;
    if (this.hashed[l] === 0) {
      if (this.loaded[l] === ADDRESS_ONLY) this.ensure(l);
      else this.hashSlot(l);
    }
    if (this.hashed[r] === 0) {
      if (this.loaded[r] === ADDRESS_ONLY) this.ensure(r);
      else this.hashSlot(r);
    }
    const input = sha256Input();
    let o = writeZigZag(input, 0, this.heightOf[slot]!);
    o = writeZigZag(input, o, this.sizeOf[slot]!);
    o = writeZigZag(input, o, this.versionOf[slot]!);
    // ‖ 0x20 ‖ left hash ‖ 0x20 ‖ right hash, the hashes moved as words.
    sha256OfPrefixAndTwoHashes(o, this.hashWords, l * WORDS_PER_HASH, r * WORDS_PER_HASH, slot * WORDS_PER_HASH);
    this.hashed[slot] = 1;
  }

  private hashOf(slot: number): Uint8Array {
    this.ensureMeta(slot);
    if (this.hashed[slot] === 0) this.hashSlot(slot);
    return this.hashes.slice(slot * HASH_SIZE, slot * HASH_SIZE + HASH_SIZE);
  }

  /** Root hash of the working tree (sha256("") when empty). */
  workingHash(): Uint8Array {
    return this.root === NONE ? EMPTY_TREE_HASH : this.hashOf(this.root);
  }

  /** Root hash of the last committed version. */
  committedHash(): Uint8Array {
    return this.committedRoot === NONE ? EMPTY_TREE_HASH : this.hashOf(this.committedRoot);
  }

  get isEmpty(): boolean {
    return this.committedRoot === NONE;
  }

  get workingIsEmpty(): boolean {
    return this.root === NONE;
  }

  /** Whether any write changed the working tree since the last commit. */
  get changed(): boolean {
    return this.root !== this.committedRoot;
  }

  // ------------------------------------------------------------------ versions

  /**
   * The slots created in the working version, children before parents (the order they are
   * persisted in); each one's index (its address with the version) is its position. Hashes are
   * computed first.
   */
  newNodes(): number[] {
    const out: number[] = [];
    this.indexNewNodes((slot) => out.push(slot));
    return out;
  }

  /**
   * Number the working version's nodes in post order (children before parents; each one's index
   * is its position), calling `each` on a node right after it gets its index. Returns the count.
   */
  private indexNewNodes(each: (slot: number) => void): number {
    if (this.root === NONE || this.isWorking[this.root] !== 1) return 0;
    this.workingHash();
    let count = 0;
    const isWorking = this.isWorking;
    const visit = (slot: number): void => {
      if (isWorking[slot] !== 1) return;
      if (this.heightOf[slot]! > 0) {
        visit(this.leftOf[slot]!);
        visit(this.rightOf[slot]!);
      }
      this.indexOf[slot] = count++;
      each(slot);
    };
    visit(this.root);
    return count;
  }

  versionOfSlot(slot: number): number {
    return this.versionOf[slot]!;
  }

  /** Set a working slot's index (import groups nodes by version itself). */
  setIndex(slot: number, index: number): void {
    this.indexOf[slot] = index;
  }

  /** Feed slots (in the given order) to a record encoder; children by address. */
  encodeNodes(slots: readonly number[], add: NodeSink): void {
    for (const slot of slots) this.encodeNode(slot, add);
  }

  private encodeNode(slot: number, add: NodeSink): void {
    this.ensure(slot);
    if (this.hashed[slot] === 0) this.hashSlot(slot);
    const height = this.heightOf[slot]!;
    let lv = 0;
    let li = 0;
    let rv = 0;
    let ri = 0;
    if (height > 0) {
      const l = this.leftOf[slot]!;
      const r = this.rightOf[slot]!;
      lv = this.versionOf[l]!;
      li = this.indexOf[l]!;
      rv = this.versionOf[r]!;
      ri = this.indexOf[r]!;
    }
    add.add(height, this.sizeOf[slot]!, this.keyBytes, this.keyOffset[slot]!, this.keyLength[slot]!, this.hashes, slot * HASH_SIZE, lv, li, rv, ri);
  }

  /**
   * `workingHash()`, `newNodes()` and `encodeNodes()` in one post-order pass: each new node is
   * hashed (its children come first), given its index and encoded right away, while its fields
   * are still in the CPU cache; same hashes, same records, same order. `workingHash()` is then
   * free. Returns the number of nodes created in the working version.
   */
  encodeNewNodes(add: NodeSink): number {
    return runToEnd(this.encodeNewNodesSteps(add, 0));
  }

  /**
   * `encodeNewNodes` as steps: a pause point after every `every` nodes (0 = none), for a caller
   * that runs it in time slices. The tree must not change, and no other walk of it start, until it ends.
   */
  *encodeNewNodesSteps(add: NodeSink, every: number): Generator<void, number, void> {
    const root = this.root;
    if (root === NONE || this.isWorking[root] !== 1) return 0;
    // Iterative post-order over the working nodes (an explicit stack: no closure call per node).
    const isWorking = this.isWorking;
    const heightOf = this.heightOf;
    const leftOf = this.leftOf;
    const rightOf = this.rightOf;
    let stack = this.walkStack;
    let expanded = this.walkExpanded;
    let sp = 0;
    let count = 0;
    stack[sp] = root;
    expanded[sp++] = 0;
    while (sp > 0) {
      const slot = stack[sp - 1]!;
      if (expanded[sp - 1] === 0 && heightOf[slot]! > 0) {
        expanded[sp - 1] = 1;
        if (sp + 2 > stack.length) {
          const grownStack = new Int32Array(stack.length * 2);
          grownStack.set(stack);
          const grownExpanded = new Uint8Array(stack.length * 2);
          grownExpanded.set(expanded);
          this.walkStack = stack = grownStack;
          this.walkExpanded = expanded = grownExpanded;
        }
        const r = rightOf[slot]!;
        const l = leftOf[slot]!;
        if (isWorking[r] === 1) {
          stack[sp] = r;
          expanded[sp++] = 0;
        }
        if (isWorking[l] === 1) {
          stack[sp] = l;
          expanded[sp++] = 0;
        }
        continue;
      }
      sp--;
      this.indexOf[slot] = count++;
      this.encodeNode(slot, add);
      if (every > 0 && count % every === 0) yield;
    }
    return count;
  }

  private walkStack = new Int32Array(128);
  private walkExpanded = new Uint8Array(128);

  /**
   * Addresses of the committed nodes the working version replaced (before commit()), as the
   * orphan record stores them (uvarint version ‖ uvarint index each; nodes.ts decodeAddresses),
   * straight from the arenas; undefined when there are none.
   */
  encodedOrphanAddresses(): Uint8Array | undefined {
    const { items, length } = this.orphans;
    if (length === 0) return undefined;
    // Versions and indexes are uint32 in the arenas: at most 5 varint bytes each.
    const out = new Uint8Array(length * 10);
    let o = 0;
    for (let i = 0; i < length; i++) {
      const slot = items[i]!;
      let v = this.versionOf[slot]!;
      while (v > 0x7f) {
        out[o++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[o++] = v;
      v = this.indexOf[slot]!;
      while (v > 0x7f) {
        out[o++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[o++] = v;
    }
    return out.slice(0, o);
  }

  /** The root's address once the working version is committed (after newNodes(); undefined: empty). */
  workingRootAddress(): { version: number; index: number } | undefined {
    if (this.root === NONE) return undefined;
    return { version: this.versionOf[this.root]!, index: this.indexOf[this.root]! };
  }

  /** Make the working tree the committed one (after newNodes() gave the new nodes their index). */
  commit(): void {
    const orphans = this.orphans.items;
    for (let i = 0, n = this.orphans.length; i < n; i++) this.release(orphans[i]!);
    this.orphans.clear();
    const working = this.workingList.items;
    for (let i = 0, n = this.workingList.length; i < n; i++) this.isWorking[working[i]!] = 0;
    this.workingList.clear();
    this.committedRoot = this.root;
    this.workingVersion++;
  }

  /** Forget every write since the last commit. */
  discardWorking(): void {
    const working = this.workingList.items;
    for (let i = 0, n = this.workingList.length; i < n; i++) if (this.isWorking[working[i]!] === 1) this.release(working[i]!);
    this.workingList.clear();
    this.orphans.clear();
    this.root = this.committedRoot;
  }

  /** Drop every node from memory and start from a root address (open, rollback, import). */
  reset(root: { version: number; index: number } | undefined, workingVersion: number): void {
    this.warmStack = [];
    this.warmLoadedThisPass = 0;
    this.warmPassActive = false;
    this.freeSlots.clear();
    this.used = 0;
    this.keyUsed = 0;
    this.isWorking.fill(0);
    this.workingList.clear();
    this.orphans.clear();
    this.workingVersion = workingVersion;
    this.committedRoot = root === undefined ? NONE : this.stub(root.version, root.index);
    this.root = this.committedRoot;
  }

  /**
   * Load up to `maxNodes` nodes of the committed tree breadth-first (the levels every write
   * goes through), so the first blocks after an open read only the lower levels from disk.
   */
  preload(maxNodes: number): number {
    if (this.committedRoot === NONE) return 0;
    let queue = [this.committedRoot];
    let loaded = 0;
    while (queue.length > 0 && loaded < maxNodes) {
      const next: number[] = [];
      for (const slot of queue) {
        if (loaded >= maxNodes) break;
        this.ensure(slot);
        loaded++;
        if (this.heightOf[slot]! > 0) next.push(this.leftOf[slot]!, this.rightOf[slot]!);
      }
      queue = next;
    }
    return loaded;
  }

  private warmStack: number[] = [];
  private warmLoadedThisPass = 0;

  /**
   * Background loading of the committed tree's nodes that are not in memory yet: visits at most
   * `budget` nodes per call, depth-first, keeping its place between calls (slots freed since are
   * skipped); a pass that ends having loaded something starts another from the root, for nodes
   * that commits linked in meanwhile. Returns false once a pass finds nothing left to load.
   */
  warmUp(budget: number): boolean {
    if (this.committedRoot === NONE) return false;
    let visited = 0;
    for (;;) {
      if (this.warmStack.length === 0) {
        if (this.warmPassActive) {
          this.warmPassActive = false;
          if (this.warmLoadedThisPass === 0) return false;
        }
        this.warmStack.push(this.committedRoot);
        this.warmLoadedThisPass = 0;
        this.warmPassActive = true;
      }
      while (this.warmStack.length > 0) {
        if (visited >= budget) return true;
        const slot = this.warmStack.pop()!;
        visited++;
        if (this.loaded[slot] === FREE) continue;
        if (this.loaded[slot] !== FULL) {
          this.ensure(slot);
          this.warmLoadedThisPass++;
        }
        if (this.heightOf[slot]! > 0) this.warmStack.push(this.rightOf[slot]!, this.leftOf[slot]!);
      }
    }
  }

  private warmPassActive = false;

  // ------------------------------------------------------------------ views

  /** A view of the committed tree's root (undefined when empty). */
  committedView(): NodeView | undefined {
    return this.committedRoot === NONE ? undefined : this.view(this.committedRoot);
  }

  /** A view of the working tree's root (tests, import). */
  workingView(): NodeView | undefined {
    return this.root === NONE ? undefined : this.view(this.root);
  }

  private view(slot: number): NodeView {
    this.ensure(slot);
    const keyOf = (): Uint8Array => this.keyOf(slot);
    const hashOf = (): Uint8Array => this.hashOf(slot);
    return {
      isLeaf: this.heightOf[slot] === 0,
      height: this.heightOf[slot]!,
      size: this.sizeOf[slot]!,
      version: this.versionOf[slot]!,
      get key() {
        return keyOf();
      },
      get hash() {
        return hashOf();
      },
      left: () => this.view(this.leftOf[slot]!),
      right: () => this.view(this.rightOf[slot]!),
    };
  }

  // ------------------------------------------------------------------ import

  /**
   * Build the working tree from nodes in post-order (state-sync import): `push` each node with
   * its height, key, version and (leaves) value hash. Returns the root hash via workingHash().
   */
  importer(): { push(height: number, key: Uint8Array, version: number, valueHash: Uint8Array | undefined): void; finish(): void } {
    const stack: number[] = [];
    return {
      push: (height, key, version, valueHash) => {
        const slot = this.alloc();
        this.versionOf[slot] = version;
        this.loaded[slot] = 1;
        this.heightOf[slot] = height;
        this.storeKey(slot, key);
        this.markWorking(slot);
        if (height === 0) {
          if (valueHash === undefined) throw new Error('leaf without a value');
          this.leftOf[slot] = NONE;
          this.rightOf[slot] = NONE;
          this.sizeOf[slot] = 1;
          leafHashInto(key, valueHash, version, this.hashes, slot * HASH_SIZE);
          this.hashed[slot] = 1;
        } else {
          const right = stack.pop();
          const left = stack.pop();
          if (left === undefined || right === undefined || this.heightOf[left]! >= height || this.heightOf[right]! >= height) {
            throw new Error(`inner node of height ${height} without two lower children before it`);
          }
          this.leftOf[slot] = left;
          this.rightOf[slot] = right;
          this.sizeOf[slot] = this.sizeOf[left]! + this.sizeOf[right]!;
          this.hashed[slot] = 0;
        }
        stack.push(slot);
      },
      finish: () => {
        if (stack.length > 1) throw new Error(`import ended with ${stack.length} unattached subtrees`);
        this.root = stack.length === 0 ? NONE : stack[0]!;
      },
    };
  }
}
