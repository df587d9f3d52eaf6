/** Indexer options: CometBFT config.toml [tx_index] names and defaults. */

export type IndexerKind = 'kv' | 'null';

export interface IndexerOptions {
  /**
   * tx_index.indexer: "kv" indexes txs and blocks in the node database; "null" disables both
   * (tx, tx_search and block_search then answer "… indexing is disabled").
   */
  indexer: IndexerKind;
}

export const defaultIndexerOptions: Readonly<IndexerOptions> = Object.freeze({
  indexer: 'kv',
});
