/**
 * Persisted IAVL nodes: every commit writes, per store, the nodes that version created, in
 * post-order, in records of `NODES_PER_CHUNK` nodes under `0x09 ‖ storeId ‖ version ‖ chunk`.
 * A node's address is (version that created it, position in that version's list), so a child
 * reference is two varints and any retained version's tree can be walked from its root's
 * address (kept in the commit info) with one synchronous get per chunk.
 *
 * Chunk = u16 count ‖ count × u32 offset (from the first record) ‖ records.
 * Record = u8 kind (0 leaf, 1 inner) ‖ inner: u8 height ‖ uvarint size ‖
 *          uvarint len(key) ‖ key ‖ hash[32] ‖ inner: uvarint leftVersion ‖ uvarint leftIndex ‖
 *          uvarint rightVersion ‖ uvarint rightIndex
 * (An inner node's key is the smallest key of its right subtree, as in IAVL. Leaf values live in
 * the flat index, not here.)
 */
import type { BatchOp, Database } from '../db/database.js';
import { Bucket } from '../db/buckets.js';
import { StoreError } from '../errors.js';
import { sha256 } from '../hash.js';
import { writeUvarint, writeZigZag, type NodeSource, type NodeView, type StoredNode } from './tree.js';

export const NODES_PER_CHUNK = 128;
const HASH_SIZE = 32;
const CHUNK_CACHE = 1024;
const SLAB_BYTES = 256 * 1024;

/** Big-endian u32 into out[at, at + 4) (no DataView: reading `.buffer` of a small array moves it off the heap). */
function putU32(out: Uint8Array, at: number, value: number): void {
  out[at] = value >>> 24;
  out[at + 1] = value >>> 16;
  out[at + 2] = value >>> 8;
  out[at + 3] = value;
}

export function nodeChunkKey(storeId: number, version: number, chunk: number): Uint8Array {
  const out = new Uint8Array(14);
  out[0] = Bucket.stateNode;
  out[1] = storeId;
  putU32(out, 2, Math.floor(version / 2 ** 32));
  putU32(out, 6, version >>> 0);
  putU32(out, 10, chunk >>> 0);
  return out;
}

/** [gte, lt) of every chunk of `version` in a store. */
export function nodeVersionRange(storeId: number, version: number): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: nodeChunkKey(storeId, version, 0), lt: nodeChunkKey(storeId, version + 1, 0) };
}

function versionKey(bucket: Bucket, storeId: number, version: number, extra = 0): Uint8Array {
  const out = new Uint8Array(10 + extra);
  out[0] = bucket;
  out[1] = storeId;
  putU32(out, 2, Math.floor(version / 2 ** 32));
  putU32(out, 6, version >>> 0);
  return out;
}

/** Addresses of the nodes `version` orphaned in a store (applied when that version is pruned). */
export function orphansKey(storeId: number, version: number): Uint8Array {
  return versionKey(Bucket.stateNodeOrphans, storeId, version);
}

/** Dead-node counter of one chunk. */
export function deadCountKey(storeId: number, version: number, chunk: number): Uint8Array {
  const out = versionKey(Bucket.stateNodeDead, storeId, version, 4);
  putU32(out, 10, chunk >>> 0);
  return out;
}

export function decodeAddresses(bytes: Uint8Array): { version: number; index: number }[] {
  const out: { version: number; index: number }[] = [];
  cursor = 0;
  while (cursor < bytes.length) {
    const version = readUvarint(bytes);
    out.push({ version, index: readUvarint(bytes) });
  }
  return out;
}

/** Number of nodes in a stored chunk (its header). */
export function chunkNodeCount(chunk: Uint8Array): number {
  return (chunk[0]! << 8) | chunk[1]!;
}

export function chunkCount(nodes: number): number {
  return Math.ceil(nodes / NODES_PER_CHUNK);
}

/** writeUvarint in integer arithmetic for values below 2^32 (sizes, versions, indexes: the tree's arenas hold them as uint32); exact above too. */
function writeU32Varint(out: Uint8Array, offset: number, value: number): number {
  if (value > 0xffff_ffff) return writeUvarint(out, offset, value);
  let v = value >>> 0;
  while (v > 0x7f) {
    out[offset++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[offset++] = v;
  return offset;
}

/**
 * The records of the chunk being built and their offsets: one pair for every encoder (encoders
 * run one after the other on one thread, and `flush` copies a chunk out before the next starts).
 */
let recordBuffer = new Uint8Array(16 * 1024);
const recordOffsets = new Uint32Array(NODES_PER_CHUNK);
/**
 * Chunk values are views into shared slabs, handed out front to back and never written again, so
 * one slab serves every store and block until it is full (one ArrayBuffer per ~25 chunks).
 */
let slab = new Uint8Array(0);
let slabUsed = 0;

function take(size: number): Uint8Array {
  if (slabUsed + size > slab.length) {
    slab = new Uint8Array(Math.max(SLAB_BYTES, size));
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += size;
  return out;
}

/** Builds chunk records node by node, straight from the tree's arenas (no per-node objects). */
export class NodeChunkEncoder {
  private readonly ops: BatchOp[] = [];
  private count = 0;
  private used = 0;
  private chunk = 0;

  constructor(
    private readonly storeId: number,
    private readonly version: number,
  ) {}

  add(height: number, size: number, keyBytes: Uint8Array, keyStart: number, keyLength: number, hashBytes: Uint8Array, hashStart: number, leftVersion: number, leftIndex: number, rightVersion: number, rightIndex: number): void {
    const need = this.used + 1 + 1 + 10 + 10 + keyLength + HASH_SIZE + 40;
    if (need > recordBuffer.length) {
      const grown = new Uint8Array(need * 2);
      grown.set(recordBuffer.subarray(0, this.used));
      recordBuffer = grown;
    }
    const out = recordBuffer;
    recordOffsets[this.count++] = this.used;
    let o = this.used;
    if (height === 0) out[o++] = 0;
    else {
      out[o++] = 1;
      out[o++] = height;
      o = writeU32Varint(out, o, size);
    }
    o = writeU32Varint(out, o, keyLength);
    for (let i = 0; i < keyLength; i++) out[o++] = keyBytes[keyStart + i]!;
    for (let i = 0; i < HASH_SIZE; i++) out[o++] = hashBytes[hashStart + i]!;
    if (height > 0) {
      o = writeU32Varint(out, o, leftVersion);
      o = writeU32Varint(out, o, leftIndex);
      o = writeU32Varint(out, o, rightVersion);
      o = writeU32Varint(out, o, rightIndex);
    }
    this.used = o;
    if (this.count === NODES_PER_CHUNK) this.flush();
  }

  private flush(): void {
    if (this.count === 0) return;
    const header = 2 + this.count * 4;
    const value = take(header + this.used);
    value[0] = this.count >>> 8;
    value[1] = this.count;
    for (let i = 0; i < this.count; i++) putU32(value, 2 + i * 4, recordOffsets[i]!);
    value.set(recordBuffer.subarray(0, this.used), header);
    this.ops.push({ type: 'put', key: nodeChunkKey(this.storeId, this.version, this.chunk++), value });
    this.count = 0;
    this.used = 0;
  }

  finish(): BatchOp[] {
    this.flush();
    return this.ops;
  }
}

/** Read position shared by the decoders below (single-threaded, never re-entered). */
let cursor = 0;

function readUvarint(bytes: Uint8Array): number {
  let result = 0;
  let scale = 1;
  for (;;) {
    if (cursor >= bytes.length) throw new Error('truncated varint');
    const b = bytes[cursor++]!;
    result += (b & 0x7f) * scale;
    if (b < 0x80) return result;
    scale *= 0x80;
    if (scale > 2 ** 56) throw new Error('varint too long');
  }
}

function decodeRecord(chunk: Uint8Array, index: number): StoredNode {
  const count = (chunk[0]! << 8) | chunk[1]!;
  if (index >= count) throw new Error(`node ${index} not in a chunk of ${count}`);
  const at = 2 + index * 4;
  const offset = ((chunk[at]! << 24) >>> 0) + (chunk[at + 1]! << 16) + (chunk[at + 2]! << 8) + chunk[at + 3]!;
  cursor = 2 + count * 4 + offset;
  const kind = chunk[cursor++];
  let height = 0;
  let size = 1;
  if (kind === 1) {
    height = chunk[cursor++]!;
    size = readUvarint(chunk);
  } else if (kind !== 0) throw new Error(`unknown node kind ${kind}`);
  const keyLength = readUvarint(chunk);
  if (cursor + keyLength + HASH_SIZE > chunk.length) throw new Error('truncated node');
  const key = chunk.subarray(cursor, cursor + keyLength);
  cursor += keyLength;
  const hash = chunk.subarray(cursor, cursor + HASH_SIZE);
  cursor += HASH_SIZE;
  if (kind === 0) return { height, size, key, hash, leftVersion: 0, leftIndex: 0, rightVersion: 0, rightIndex: 0 };
  const leftVersion = readUvarint(chunk);
  const leftIndex = readUvarint(chunk);
  const rightVersion = readUvarint(chunk);
  const rightIndex = readUvarint(chunk);
  return { height, size, key, hash, leftVersion, leftIndex, rightVersion, rightIndex };
}

/** Inner hash of a stored node from its children's stored hashes (integrity check). */
const innerInput = new Uint8Array(30 + 2 * (HASH_SIZE + 1));

export function innerHashOf(height: number, size: number, version: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = innerInput;
  let o = writeZigZag(input, 0, height);
  o = writeZigZag(input, o, size);
  o = writeZigZag(input, o, version);
  input[o++] = HASH_SIZE;
  input.set(left, o);
  o += HASH_SIZE;
  input[o++] = HASH_SIZE;
  input.set(right, o);
  o += HASH_SIZE;
  return sha256(input.subarray(0, o));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Reads one store's persisted nodes. Every inner node is checked against its children's hashes
 * when it is loaded, so a damaged record is reported (CORRUPTED, naming the store and version)
 * instead of being served in a proof.
 */
export class NodeReader implements NodeSource {
  private readonly cache = new Map<number, Uint8Array>();

  constructor(
    private readonly db: Database,
    readonly storeName: string,
    readonly storeId: number,
  ) {}

  private chunk(version: number, chunk: number): Uint8Array {
    // Unique while a version has fewer than 2^20 chunks (134M nodes) and versions < 2^33.
    const id = version * 0x100000 + chunk;
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const bytes = this.db.getSync(nodeChunkKey(this.storeId, version, chunk));
    if (bytes === undefined) {
      throw new StoreError('CORRUPTED', `store ${this.storeName}: tree nodes of version ${version} are missing`, {
        hint: 'the state database is damaged; restore it from a backup or state sync',
      });
    }
    if (this.cache.size >= CHUNK_CACHE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(id, bytes);
    return bytes;
  }

  private raw(version: number, index: number): StoredNode {
    try {
      return decodeRecord(this.chunk(version, Math.floor(index / NODES_PER_CHUNK)), index % NODES_PER_CHUNK);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError('CORRUPTED', `store ${this.storeName}: tree node ${index} of version ${version} is unreadable: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Nodes decoded as children of a node just loaded: loading them next costs no decode. */
  private readonly decoded = new Map<number, { version: number; index: number; node: StoredNode }>();

  private rawCached(version: number, index: number): StoredNode {
    const id = version * 0x1000000 + index;
    const hit = this.decoded.get(id);
    // The id may collide for huge indexes: the stored address decides.
    if (hit !== undefined && hit.version === version && hit.index === index) {
      this.decoded.delete(id);
      return hit.node;
    }
    return this.raw(version, index);
  }

  load(version: number, index: number): { node: StoredNode; left?: StoredNode; right?: StoredNode } {
    const node = this.rawCached(version, index);
    if (node.height === 0) return { node };
    const left = this.raw(node.leftVersion, node.leftIndex);
    const right = this.raw(node.rightVersion, node.rightIndex);
    if (!equal(innerHashOf(node.height, node.size, version, left.hash, right.hash), node.hash)) {
      throw new StoreError('CORRUPTED', `store ${this.storeName}: tree node ${index} of version ${version} does not match its children's hashes`, {
        hint: 'the state database is damaged; restore it from a backup or state sync',
      });
    }
    if (this.decoded.size > 8192) this.decoded.clear();
    this.decoded.set(node.leftVersion * 0x1000000 + node.leftIndex, { version: node.leftVersion, index: node.leftIndex, node: left });
    this.decoded.set(node.rightVersion * 0x1000000 + node.rightIndex, { version: node.rightVersion, index: node.rightIndex, node: right });
    return { node, left, right };
  }

  /** A read-only view of the node at an address (historical trees: proofs, export). */
  view(version: number, index: number): NodeView {
    const { node } = this.load(version, index);
    return {
      isLeaf: node.height === 0,
      height: node.height,
      size: node.size,
      version,
      key: node.key,
      hash: node.hash,
      left: () => this.view(node.leftVersion, node.leftIndex),
      right: () => this.view(node.rightVersion, node.rightIndex),
    };
  }

  clearCache(): void {
    this.cache.clear();
    this.decoded.clear();
  }
}
