/**
 * The in-memory commitment tree of one store: a 16-ary Merkle tree of depth 5 over the 2^20
 * bucket hashes (depth 5 = buckets, depth 0 = the store root).
 *
 *   node = all 16 children zero ? 0^32 : sha256(0x01 ‖ child₀ ‖ … ‖ child₁₅)
 *
 * Empty subtrees are zero, so a store with few keys costs few hashes and little memory: levels
 * are kept in chunks of 16 sibling nodes (512 B) allocated on first non-zero write. A full store
 * (every bucket non-empty) takes 2^20 × 32 B = 32 MB for the buckets plus ~2.2 MB above them.
 *
 * Updates are staged: `stage()` hashes the paths above the dirty buckets into overlay maps
 * without touching the live arrays, so `workingHash()` can run before `commit()` and a failed
 * write leaves the tree as it was; `apply()` copies the overlays in once the batch is durable.
 *
 * With U dirty buckets a commit hashes U buckets + ≈U(1−e^(−U/65536)) depth-4 nodes + ≤4369
 * nodes above: ≈50k hashes for U = 25k, independent of the store size. A binary sparse Merkle
 * tree over the same keys needs ≈210k hashes at 3M keys (measured ~4× slower, see README.md).
 */
import { HASH_SIZE, ZERO_HASH, sha256 } from './hash.js';
import { ByteReader, ByteWriter } from './bytes.js';

export const TREE_DEPTH = 5;
export const ARITY = 16;
/** Depth whose nodes are persisted per version for historical proofs (16^3 = 4096 nodes). */
export const RECORDED_DEPTH = 3;
/** Depth-5 chunks per snapshot record: 256 × 16 buckets; 256 records cover a store. */
export const SNAPSHOT_GROUP_CHUNKS = 256;
export const SNAPSHOT_GROUPS = nodeCount(TREE_DEPTH) / ARITY / SNAPSHOT_GROUP_CHUNKS;
const CHILDREN_SIZE = ARITY * HASH_SIZE;
const ZERO_CHILDREN = new Uint8Array(CHILDREN_SIZE);

export function nodeCount(depth: number): number {
  return 16 ** depth;
}

/** Hashes 16 children with the node tag; reuses one scratch buffer. */
export class NodeHasher {
  private readonly scratch = new Uint8Array(4 + CHILDREN_SIZE);
  private readonly words = new Uint32Array(this.scratch.buffer, 4, CHILDREN_SIZE / 4);
  /** The 512-byte children area to fill before `hash()`. */
  readonly children = this.scratch.subarray(4);

  constructor() {
    this.scratch[3] = 0x01;
  }

  hash(): Uint8Array {
    const words = this.words;
    for (let i = 0; i < words.length; i++) {
      if (words[i] !== 0) return sha256(this.scratch.subarray(3));
    }
    return ZERO_HASH;
  }
}

export interface StagedTree {
  /** overlays[d]: node index → new hash at depth d (d = 5: the dirty buckets). */
  overlays: Map<number, Uint8Array>[];
  root: Uint8Array;
}

export class BucketTree {
  /**
   * levels[d][c] = the 16 nodes of depth d whose index >>> 4 is c (512 bytes), allocated on the
   * first non-zero write: exactly the children of one parent, so `children()` needs no copy.
   * Depth 0 (the root) is a single 32-byte chunk.
   */
  private readonly levels: (Uint8Array | undefined)[][] = [];
  private readonly hasher = new NodeHasher();

  constructor() {
    for (let d = 0; d <= TREE_DEPTH; d++) this.levels.push(new Array(d === 0 ? 1 : nodeCount(d - 1)));
  }

  node(depth: number, index: number): Uint8Array {
    const chunk = this.levels[depth]![index >>> 4];
    if (chunk === undefined) return ZERO_HASH;
    const at = (index & 15) * HASH_SIZE;
    return chunk.subarray(at, at + HASH_SIZE);
  }

  /** Whether node (depth, index) equals `hash`, without allocating a view. */
  nodeEquals(depth: number, index: number, hash: Uint8Array): boolean {
    const chunk = this.levels[depth]![index >>> 4];
    if (chunk === undefined) return isZero(hash);
    const at = (index & 15) * HASH_SIZE;
    for (let i = 0; i < HASH_SIZE; i++) if (chunk[at + i] !== hash[i]) return false;
    return true;
  }

  setNode(depth: number, index: number, hash: Uint8Array): void {
    const chunks = this.levels[depth]!;
    const c = index >>> 4;
    let chunk = chunks[c];
    if (chunk === undefined) {
      if (hash === ZERO_HASH || isZero(hash)) return;
      chunk = Buffer.allocUnsafe(depth === 0 ? HASH_SIZE : CHILDREN_SIZE).fill(0);
      chunks[c] = chunk;
    }
    chunk.set(hash, (index & 15) * HASH_SIZE);
  }

  /** The 16 children (512 bytes) of node `parent` at depth `depth`. */
  children(depth: number, parent: number): Uint8Array {
    return this.levels[depth + 1]![parent] ?? ZERO_CHILDREN;
  }

  root(): Uint8Array {
    return this.node(0, 0);
  }

  /** Hash the paths above `dirtyBuckets` (bucket → new hash) without changing the tree. */
  stage(dirtyBuckets: Map<number, Uint8Array>): StagedTree {
    const overlays: Map<number, Uint8Array>[] = new Array(TREE_DEPTH + 1);
    overlays[TREE_DEPTH] = dirtyBuckets;
    let current = dirtyBuckets;
    const hasher = this.hasher;
    for (let d = TREE_DEPTH; d >= 1; d--) {
      const byParent = new Map<number, number[]>();
      for (const index of current.keys()) {
        const parent = index >>> 4;
        const list = byParent.get(parent);
        if (list === undefined) byParent.set(parent, [index]);
        else list.push(index);
      }
      const next = new Map<number, Uint8Array>();
      for (const [parent, kids] of byParent) {
        hasher.children.set(this.children(d - 1, parent));
        for (const index of kids) hasher.children.set(current.get(index)!, (index & 15) * HASH_SIZE);
        next.set(parent, hasher.hash());
      }
      overlays[d - 1] = next;
      current = next;
    }
    return { overlays, root: overlays[0]!.get(0) ?? this.root() };
  }

  /** A node as it would be after `staged` is applied. */
  stagedNode(staged: StagedTree | undefined, depth: number, index: number): Uint8Array {
    return staged?.overlays[depth]?.get(index) ?? this.node(depth, index);
  }

  apply(staged: StagedTree): void {
    for (let d = 0; d <= TREE_DEPTH; d++) {
      const overlay = staged.overlays[d];
      if (overlay === undefined) continue;
      for (const [index, hash] of overlay) this.setNode(d, index, hash);
    }
  }

  /** Recompute every level above the buckets (after loading bucket hashes at open). */
  rebuildAboveBuckets(): void {
    const hasher = this.hasher;
    for (let d = TREE_DEPTH - 1; d >= 0; d--) {
      const children = this.levels[d + 1]!;
      this.levels[d]!.fill(undefined);
      for (let parent = 0; parent < children.length; parent++) {
        const chunk = children[parent];
        if (chunk === undefined) continue;
        hasher.children.set(chunk);
        this.setNode(d, parent, hasher.hash());
      }
    }
  }

  /** The non-zero nodes of `RECORDED_DEPTH` after `staged`, encoded (u16 count, (u16 index ‖ hash)…). */
  encodeRecordedLevel(staged: StagedTree | undefined): Uint8Array {
    const writer = new ByteWriter(1024);
    const count = nodeCount(RECORDED_DEPTH);
    const entries: [number, Uint8Array][] = [];
    for (let i = 0; i < count; i++) {
      const hash = this.stagedNode(staged, RECORDED_DEPTH, i);
      if (!isZero(hash)) entries.push([i, hash]);
    }
    writer.u16(entries.length === count ? 0xffff : entries.length);
    if (entries.length === count) {
      for (const [, hash] of entries) writer.bytes(hash);
    } else {
      for (const [i, hash] of entries) writer.u16(i).bytes(hash);
    }
    return writer.finish();
  }

  /**
   * Bucket hashes of one snapshot group (256 chunks of 16 buckets): bitmap[32] ‖ the present
   * chunks, or undefined when the group is empty.
   */
  exportBucketGroup(group: number): Uint8Array | undefined {
    const chunks = this.levels[TREE_DEPTH]!;
    const present: Uint8Array[] = [];
    const bitmap = new Uint8Array(32);
    for (let i = 0; i < SNAPSHOT_GROUP_CHUNKS; i++) {
      const chunk = chunks[group * SNAPSHOT_GROUP_CHUNKS + i];
      if (chunk === undefined) continue;
      bitmap[i >>> 3]! |= 1 << (i & 7);
      present.push(chunk);
    }
    if (present.length === 0) return undefined;
    const out = new Uint8Array(32 + present.length * CHILDREN_SIZE);
    out.set(bitmap);
    present.forEach((chunk, i) => out.set(chunk, 32 + i * CHILDREN_SIZE));
    return out;
  }

  importBucketGroup(group: number, stored: Uint8Array): void {
    const chunks = this.levels[TREE_DEPTH]!;
    // One private copy: the chunks are views into it and are written by later commits.
    const record = Uint8Array.from(stored);
    let at = 32;
    for (let i = 0; i < SNAPSHOT_GROUP_CHUNKS; i++) {
      if ((record[i >>> 3]! & (1 << (i & 7))) === 0) continue;
      if (at + CHILDREN_SIZE > record.length) throw new RangeError('truncated tree snapshot');
      chunks[group * SNAPSHOT_GROUP_CHUNKS + i] = record.subarray(at, at + CHILDREN_SIZE);
      at += CHILDREN_SIZE;
    }
  }

  /** Forget every node (before a full rebuild). */
  clear(): void {
    for (const level of this.levels) level.fill(undefined);
  }

  /** Memory held by the tree's arrays, in bytes. */
  memoryBytes(): number {
    let total = 0;
    for (const level of this.levels) for (const chunk of level) if (chunk !== undefined) total += chunk.length;
    return total;
  }
}

/**
 * The top of a store's tree at an old version, rebuilt from its recorded depth-3 nodes:
 * depths 0–3 exact, used to produce the upper half of a historical proof.
 */
export class RecordedTop {
  private readonly levels: Uint8Array[] = [];

  constructor(record: Uint8Array) {
    const count = nodeCount(RECORDED_DEPTH);
    const level3 = new Uint8Array(count * HASH_SIZE);
    const reader = new ByteReader(record);
    const n = reader.u16();
    if (n === 0xffff) {
      level3.set(reader.bytes(count * HASH_SIZE));
    } else {
      for (let i = 0; i < n; i++) {
        const index = reader.u16();
        level3.set(reader.bytes(HASH_SIZE), index * HASH_SIZE);
      }
    }
    this.levels[RECORDED_DEPTH] = level3;
    const hasher = new NodeHasher();
    for (let d = RECORDED_DEPTH - 1; d >= 0; d--) {
      const below = this.levels[d + 1]!;
      const level = new Uint8Array(nodeCount(d) * HASH_SIZE);
      for (let p = 0; p < nodeCount(d); p++) {
        hasher.children.set(below.subarray(p * CHILDREN_SIZE, (p + 1) * CHILDREN_SIZE));
        level.set(hasher.hash(), p * HASH_SIZE);
      }
      this.levels[d] = level;
    }
  }

  node(depth: number, index: number): Uint8Array {
    return this.levels[depth]!.subarray(index * HASH_SIZE, (index + 1) * HASH_SIZE);
  }

  children(depth: number, parent: number): Uint8Array {
    return this.levels[depth + 1]!.subarray(parent * CHILDREN_SIZE, (parent + 1) * CHILDREN_SIZE);
  }

  root(): Uint8Array {
    return this.node(0, 0);
  }
}

export function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
