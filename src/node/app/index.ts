/**
 * The application (state machine) behind the ABCI-shaped interface: App, its options, the query
 * registry, genesis helpers and the error registry.
 */
export { App, type AppTimings, type TxOutcome } from './app.js';
export { openApp, type OpenedApp } from './open.js';
export * from './options.js';
export { QueryRegistry, type QueryRoute } from './query.js';
export { APP_MODULES, APP_STORE_KEYS, APP_STORE_NAMES, CONSENSUS_STORE_KEY, MODULE_ORDERS, appRegistry, createModuleManager } from './modules.js';
export * from './genesis.js';
export { decodeTx, signDocBytes, type DecodedTx, type TxMsg } from './tx.js';
export { ANTE_DECORATORS, AnteHandler, AnteRouter, defaultAnteChain, type AnteChain, type AnteDecorator, type AnteHandlerOptions, type FeeGrantKeeper } from './ante/index.js';
export * from './errors.js';
