/** Indexer options: CometBFT config.toml [tx_index] names and defaults. */

export type IndexerKind = 'kv' | 'null';

export interface IndexerOptions {
  /**
   * tx_index.indexer: "kv" indexes txs and blocks in the node database; "null" disables both
   * (tx, tx_search and block_search then answer "… indexing is disabled").
   */
  indexer: IndexerKind;
  /**
   * Attribute counters (one per indexed event value seen more than once) kept in memory by each of
   * the tx and block indexers, least recently used dropped first. CometBFT has no such cache (its
   * kv indexer scans), so no config.toml name; 0 disables it.
   */
  countCacheSize: number;
}

export const defaultIndexerOptions: Readonly<IndexerOptions> = Object.freeze({
  indexer: 'kv',
  countCacheSize: 20_000,
});
