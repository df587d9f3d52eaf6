/**
 * The indexer subsystem's entry point for the node's composition root.
 *
 *   const indexer = new IndexerService({ db, blockStore: consensus.blockStore, stateStore: consensus.stateStore,
 *                                        eventBus: consensus.eventBus, options: { indexer: 'kv' }, logger });
 *   await indexer.start();        // before consensus.start(): subscribe, then catch up stored heights
 *   await consensus.start();
 *   … give indexer.txIndexer / indexer.blockIndexer / indexer.eventBus to the RPC …
 *   await indexer.stop();         // after the RPC server stopped
 */
export { IndexerService, type IndexerServiceConfig } from './service.js';
export { KvTxIndexer, NullTxIndexer, type IndexBatch } from './txIndex.js';
export { KvBlockIndexer, NullBlockIndexer } from './blockIndex.js';
export { Query, MAX_QUERY_LENGTH, matchEventConditions, type Condition, type Operator, type Operand } from './query.js';
export { validatePage, validatePerPage, DEFAULT_PER_PAGE, MAX_PER_PAGE, type OrderBy, type SearchOptions, type SearchPage } from './paging.js';
export { IndexerError, isIndexerError, type IndexerErrorReason } from './errors.js';
export { defaultIndexerOptions, type IndexerOptions, type IndexerKind } from './options.js';
export type { BlockIndexer, IndexedRange, IndexedTx, TxIndexer } from './types.js';
