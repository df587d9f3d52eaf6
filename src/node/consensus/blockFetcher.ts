/**
 * Blocks this node does not have (pruned, or before a state-sync snapshot), fetched from peers
 * for the RPC, as the spec's full node does: "if it lacks a queried block on disk, it fetches it
 * from the network". A fetched block is trusted only through the stored header chain: walking
 * down from our lowest stored block, each fetched block must hash to the last_block_id of the
 * block above it. Verified blocks are kept in a small in-memory cache; nothing is written.
 */
import type { BlocksyncReactor } from './blocksync/reactor.js';
import { ConsensusError } from './errors.js';
import type { BlockStore } from './store/blockStore.js';
import { bytesEqual, toHexUpper } from './types/bytes.js';
import { blockIdsEqual, hashBlock, type Block, type BlockId } from './types/block.js';
import { makePartSet } from './state/execution.js';

/** How far below the lowest stored block a read may reach (each height is one peer round trip). */
export const MAX_FETCH_DEPTH = 1000;
const REQUEST_TIMEOUT_MS = 5000;
const CACHE_BLOCKS = 256;

export class BlockFetcher {
  private readonly cache = new Map<number, { block: Block; blockId: BlockId }>();

  constructor(
    private readonly blockStore: BlockStore,
    private readonly blocksync: BlocksyncReactor,
  ) {}

  private remember(height: number, entry: { block: Block; blockId: BlockId }): void {
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(height, entry);
  }

  private async fetchOne(height: number): Promise<Block> {
    for (const peer of this.blocksync.peersWithHeight(height)) {
      const block = await this.blocksync.requestBlock(peer, height, REQUEST_TIMEOUT_MS);
      if (block && block.header.height === height) return block;
    }
    throw new ConsensusError('STORE', `height ${height} is not available locally and no peer served it`);
  }

  /** The block at `height` below our base, verified against the stored header chain. */
  async fetch(height: number): Promise<{ block: Block; blockId: BlockId }> {
    const cached = this.cache.get(height);
    if (cached) return cached;
    const base = this.blockStore.base();
    if (base === 0 || height >= base) throw new ConsensusError('STORE', `height ${height} is stored locally`);
    if (base - height > MAX_FETCH_DEPTH) {
      throw new ConsensusError('STORE', `height ${height} is ${base - height} blocks below the lowest stored height ${base}; at most ${MAX_FETCH_DEPTH} are fetched from peers`);
    }
    const top = this.blockStore.loadBlockMeta(base);
    if (!top) throw new ConsensusError('STORE', `block meta ${base} missing`);
    let expected = top.header.lastBlockId;
    for (let h = base - 1; h >= height; h--) {
      let entry = this.cache.get(h);
      if (!entry) {
        const block = await this.fetchOne(h);
        const blockId = makePartSet(block).blockId;
        if (!bytesEqual(hashBlock(block), expected.hash) || !blockIdsEqual(blockId, expected)) {
          throw new ConsensusError('INVALID_BLOCK', `block ${h} from a peer hashes to ${toHexUpper(blockId.hash)}, but block ${h + 1} links to ${toHexUpper(expected.hash)}`);
        }
        entry = { block, blockId };
        this.remember(h, entry);
      }
      expected = entry.block.header.lastBlockId;
    }
    return this.cache.get(height)!;
  }
}
