/**
 * The block store (store/store.go): blocks, metas, commits and the base/height range, in the
 * consensus buckets of the node database. Reads are synchronous (`getSync`); every write of a
 * height is one atomic batch.
 */
import type { BatchOp, Database } from '../../store/db/database.js';
import { Bucket, bucketKey } from '../../store/db/buckets.js';
import { ConsensusError } from '../errors.js';
import {
  decodeBlock,
  decodeBlockMeta,
  decodeCommit,
  encodeBlockMeta,
  encodeCommit,
  hashBlock,
  type Block,
  type BlockId,
  type BlockMeta,
  type Commit,
} from '../types/block.js';
import { EMPTY_BYTES, readUint64BE, uint64BE } from '../types/bytes.js';

/** What the RPC layer reads. */
export interface BlockStoreReader {
  /** Lowest stored height (0 when empty). */
  base(): number;
  /** Highest stored height (0 when empty). */
  height(): number;
  loadBlock(height: number): Block | undefined;
  loadBlockByHash(hash: Uint8Array): Block | undefined;
  loadBlockMeta(height: number): BlockMeta | undefined;
  loadBlockMetaByHash(hash: Uint8Array): BlockMeta | undefined;
  /** Raw tendermint.types.Block protobuf of a height. */
  loadBlockBytes(height: number): Uint8Array | undefined;
  /** The canonical commit for `height` (from block height+1). */
  loadBlockCommit(height: number): Commit | undefined;
  /** The commit this node saw for `height` (only kept for the latest height). */
  loadSeenCommit(height: number): Commit | undefined;
}

const STATE_KEY = bucketKey(Bucket.consensusBlockStoreState, EMPTY_BYTES);

function heightKey(bucket: Bucket, height: number): Uint8Array {
  return bucketKey(bucket, uint64BE(height));
}

export class BlockStore implements BlockStoreReader {
  private baseHeight = 0;
  private topHeight = 0;

  constructor(private readonly db: Database) {
    const raw = db.getSync(STATE_KEY);
    if (raw && raw.length === 16) {
      this.baseHeight = readUint64BE(raw, 0);
      this.topHeight = readUint64BE(raw, 8);
    }
  }

  base(): number {
    return this.baseHeight;
  }

  height(): number {
    return this.topHeight;
  }

  size(): number {
    return this.topHeight === 0 ? 0 : this.topHeight - this.baseHeight + 1;
  }

  loadBlockBytes(height: number): Uint8Array | undefined {
    return this.db.getSync(heightKey(Bucket.consensusBlock, height));
  }

  loadBlock(height: number): Block | undefined {
    const raw = this.loadBlockBytes(height);
    return raw ? decodeBlock(raw) : undefined;
  }

  private heightOfHash(hash: Uint8Array): number | undefined {
    const raw = this.db.getSync(bucketKey(Bucket.consensusBlockHash, hash));
    return raw ? readUint64BE(raw) : undefined;
  }

  loadBlockByHash(hash: Uint8Array): Block | undefined {
    const h = this.heightOfHash(hash);
    return h === undefined ? undefined : this.loadBlock(h);
  }

  loadBlockMeta(height: number): BlockMeta | undefined {
    const raw = this.db.getSync(heightKey(Bucket.consensusBlockMeta, height));
    return raw ? decodeBlockMeta(raw) : undefined;
  }

  loadBlockMetaByHash(hash: Uint8Array): BlockMeta | undefined {
    const h = this.heightOfHash(hash);
    return h === undefined ? undefined : this.loadBlockMeta(h);
  }

  loadBlockCommit(height: number): Commit | undefined {
    const raw = this.db.getSync(heightKey(Bucket.consensusBlockCommit, height));
    return raw ? decodeCommit(raw) : undefined;
  }

  loadSeenCommit(height: number): Commit | undefined {
    const raw = this.db.getSync(heightKey(Bucket.consensusSeenCommit, height));
    return raw ? decodeCommit(raw) : undefined;
  }

  private stateValue(base: number, height: number): Uint8Array {
    const out = new Uint8Array(16);
    out.set(uint64BE(base), 0);
    out.set(uint64BE(height), 8);
    return out;
  }

  /**
   * Save a decided block with its encoding, ID and the commit we saw, atomically (SaveBlock).
   * Heights must be contiguous.
   */
  async saveBlock(block: Block, blockBytes: Uint8Array, blockId: BlockId, seenCommit: Commit): Promise<void> {
    const height = block.header.height;
    if (this.topHeight > 0 && height !== this.topHeight + 1) {
      throw new ConsensusError('STORE', `BlockStore can only save contiguous blocks. Wanted ${this.topHeight + 1}, got ${height}`);
    }
    const meta: BlockMeta = { blockId, blockSize: blockBytes.length, header: block.header, numTxs: block.data.txs.length };
    const ops: BatchOp[] = [
      { type: 'put', key: heightKey(Bucket.consensusBlockMeta, height), value: encodeBlockMeta(meta) },
      { type: 'put', key: heightKey(Bucket.consensusBlock, height), value: blockBytes },
      { type: 'put', key: bucketKey(Bucket.consensusBlockHash, hashBlock(block)), value: uint64BE(height) },
      { type: 'put', key: heightKey(Bucket.consensusSeenCommit, height), value: encodeCommit(seenCommit) },
    ];
    if (block.lastCommit.height > 0) {
      ops.push({ type: 'put', key: heightKey(Bucket.consensusBlockCommit, height - 1), value: encodeCommit(block.lastCommit) });
      ops.push({ type: 'del', key: heightKey(Bucket.consensusSeenCommit, height - 1) });
    }
    const base = this.baseHeight === 0 ? height : this.baseHeight;
    ops.push({ type: 'put', key: STATE_KEY, value: this.stateValue(base, height) });
    await this.db.batch(ops, { sync: true });
    this.baseHeight = base;
    this.topHeight = height;
  }

  /** Store the commit of a height whose block we do not have (state sync: the snapshot height). */
  async saveSeenCommit(height: number, commit: Commit): Promise<void> {
    await this.db.batch([{ type: 'put', key: heightKey(Bucket.consensusSeenCommit, height), value: encodeCommit(commit) }], { sync: true });
  }

  /** Delete blocks below `retainHeight`; returns how many were pruned (PruneBlocks). */
  async pruneBlocks(retainHeight: number): Promise<number> {
    if (retainHeight <= 0) throw new ConsensusError('STORE', `height must be greater than 0`);
    if (retainHeight > this.topHeight) throw new ConsensusError('STORE', `cannot prune beyond the latest height ${this.topHeight}`);
    if (retainHeight <= this.baseHeight) return 0;
    const ops: BatchOp[] = [];
    let pruned = 0;
    const flush = async (newBase: number): Promise<void> => {
      ops.push({ type: 'put', key: STATE_KEY, value: this.stateValue(newBase, this.topHeight) });
      await this.db.batch(ops.splice(0));
      this.baseHeight = newBase;
    };
    for (let h = this.baseHeight; h < retainHeight; h++) {
      const meta = this.loadBlockMeta(h);
      if (meta) ops.push({ type: 'del', key: bucketKey(Bucket.consensusBlockHash, meta.blockId.hash) });
      for (const bucket of [Bucket.consensusBlockMeta, Bucket.consensusBlock, Bucket.consensusBlockCommit, Bucket.consensusSeenCommit]) {
        ops.push({ type: 'del', key: heightKey(bucket, h) });
      }
      pruned++;
      if (ops.length >= 1000) await flush(h + 1);
    }
    await flush(retainHeight);
    return pruned;
  }
}
