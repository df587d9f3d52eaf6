/**
 * Block parts: the proto-encoded block cut into 65536-byte parts, each with a Merkle proof
 * against the part set hash (types/part_set.go). Blocks are gossiped as parts.
 */
import { ConsensusError } from '../errors.js';
import { BitArray } from './bitArray.js';
import { BLOCK_PART_SIZE_BYTES, decodeBlock, partSetHeadersEqual, type Block, type PartSetHeader } from './block.js';
import { concatBytes } from './bytes.js';
import { merkleProofs, verifyMerkleProof, type MerkleProof } from './merkle.js';
import { ProtoWriter, readMessage } from './proto.js';

export interface Part {
  index: number;
  bytes: Uint8Array;
  proof: MerkleProof;
}

export class PartSet {
  private readonly parts: (Part | undefined)[];
  private count = 0;
  private size = 0;

  private constructor(
    readonly header: PartSetHeader,
    parts: (Part | undefined)[],
  ) {
    this.parts = parts;
  }

  /** Cut `data` into parts of `partSize` bytes (at least one part). */
  static fromData(data: Uint8Array, partSize = BLOCK_PART_SIZE_BYTES): PartSet {
    const total = Math.max(1, Math.ceil(data.length / partSize));
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < total; i++) chunks.push(data.subarray(i * partSize, Math.min(data.length, (i + 1) * partSize)));
    const { root, proofs } = merkleProofs(chunks);
    const set = new PartSet(
      { total, hash: root },
      chunks.map((bytes, index) => ({ index, bytes, proof: proofs[index]! })),
    );
    set.count = total;
    set.size = data.length;
    return set;
  }

  /** An empty set to be filled by `addPart` from gossip. */
  static fromHeader(header: PartSetHeader): PartSet {
    return new PartSet({ total: header.total, hash: header.hash }, new Array<Part | undefined>(header.total).fill(undefined));
  }

  get total(): number {
    return this.header.total;
  }

  get byteSize(): number {
    return this.size;
  }

  get isComplete(): boolean {
    return this.count === this.header.total;
  }

  hasHeader(header: PartSetHeader): boolean {
    return partSetHeadersEqual(this.header, header);
  }

  getPart(index: number): Part | undefined {
    return this.parts[index];
  }

  /** Add a gossiped part. Returns false for a duplicate; throws on a bad index or proof. */
  addPart(part: Part): boolean {
    if (part.index < 0 || part.index >= this.header.total) throw new ConsensusError('INVALID_BLOCK', 'error part set unexpected index');
    if (this.parts[part.index]) return false;
    if (part.proof.total !== this.header.total || part.proof.index !== part.index) {
      throw new ConsensusError('INVALID_BLOCK', 'error part set invalid proof');
    }
    if (!verifyMerkleProof(part.proof, this.header.hash, part.bytes)) throw new ConsensusError('INVALID_BLOCK', 'error part set invalid proof');
    this.parts[part.index] = part;
    this.count++;
    this.size += part.bytes.length;
    return true;
  }

  /** Concatenated bytes of a complete set. */
  bytes(): Uint8Array {
    if (!this.isComplete) throw new ConsensusError('INVALID_BLOCK', 'part set is not complete');
    return concatBytes(...this.parts.map((p) => p!.bytes));
  }

  /** Decode the block of a complete set. */
  toBlock(): Block {
    return decodeBlock(this.bytes());
  }

  /** Which parts we have. */
  bitArray(): BitArray {
    const bits = new BitArray(this.header.total);
    this.parts.forEach((p, i) => {
      if (p) bits.set(i);
    });
    return bits;
  }

  allParts(): Part[] {
    return this.parts.filter((p): p is Part => p !== undefined);
  }
}

/** tendermint.crypto.Proof{total=1, index=2, leaf_hash=3, aunts=4}. */
export function writeProof(w: ProtoWriter, p: MerkleProof): void {
  w.varintField(1, p.total);
  w.varintField(2, p.index);
  w.bytesField(3, p.leafHash);
  for (const aunt of p.aunts) w.bytesAlways(4, aunt);
}

export function readProof(bytes: Uint8Array): MerkleProof {
  const p: MerkleProof = { total: 0, index: 0, leafHash: new Uint8Array(0), aunts: [] };
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) p.total = r.int64Number();
    else if (field === 2 && wire === 0) p.index = r.int64Number();
    else if (field === 3 && wire === 2) p.leafHash = r.bytes().slice();
    else if (field === 4 && wire === 2) p.aunts.push(r.bytes().slice());
    else r.skip(wire);
  });
  return p;
}

/** tendermint.types.Part{index=1, bytes=2, proof=3}. */
export function writePart(w: ProtoWriter, part: Part): void {
  w.varintField(1, part.index);
  w.bytesField(2, part.bytes);
  w.messageAlways(3, (x) => writeProof(x, part.proof));
}

export function readPart(bytes: Uint8Array): Part {
  const part: Part = { index: 0, bytes: new Uint8Array(0), proof: { total: 0, index: 0, leafHash: new Uint8Array(0), aunts: [] } };
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 0) part.index = r.uvarint();
    else if (field === 2 && wire === 2) part.bytes = r.bytes().slice();
    else if (field === 3 && wire === 2) part.proof = readProof(r.bytes());
    else r.skip(wire);
  });
  return part;
}
