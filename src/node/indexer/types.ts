/**
 * What the RPC layer (and the REST gateway) read from the indexers. Implementations: the LevelDB
 * ("kv") indexers and the null indexers of `tx_index.indexer = "null"`.
 */
import type { ExecTxResult } from '../abci/types.js';
import type { SearchOptions, SearchPage } from './paging.js';
import type { Query } from './query.js';

export interface IndexedTx {
  /** sha256 of the tx bytes. */
  hash: Uint8Array;
  height: number;
  index: number;
  tx: Uint8Array;
  result: ExecTxResult;
}

/** Which heights an indexer covers (all 0 when it has indexed nothing). */
export interface IndexedRange {
  earliest: number;
  latest: number;
  /** Txs (tx indexer) or blocks (block indexer) indexed. */
  count: number;
}

export interface TxIndexer {
  /** False for the null indexer: `tx` and `tx_search` answer "transaction indexing is disabled". */
  readonly enabled: boolean;
  indexedRange(): IndexedRange;
  /** A tx by hash, or undefined. */
  get(hash: Uint8Array): IndexedTx | undefined;
  /** Txs matching `query`, one page in (height, index) order; throws PAGE_OUT_OF_RANGE like CometBFT. */
  search(query: Query, options: SearchOptions): Promise<SearchPage<IndexedTx>>;
}

export interface BlockIndexer {
  /** False for the null indexer: `block_search` answers "block indexing is disabled". */
  readonly enabled: boolean;
  indexedRange(): IndexedRange;
  has(height: number): boolean;
  /** Heights whose finalize_block_events match `query`, one page in height order. */
  search(query: Query, options: SearchOptions): Promise<SearchPage<number>>;
}
