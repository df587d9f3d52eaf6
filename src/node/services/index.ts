/**
 * Node-level protobuf services and the query table the REST gateway and gRPC server share.
 *
 *   const router = createQueryRouter({ app, node: rpcEnv, options: { rpcAddress } });
 *
 * See types.ts for the QueryRouter contract and README.md for the decisions.
 */
export * from './types.js';
export { appQueryError, appQueryRouter, grpcCodeOfAbci, type AppQueryBackend } from './appRouter.js';
export { composeQueryRouter, createQueryRouter, defaultNodeServicesOptions, nodeQueryEntries, type NodeServicesOptions, type QueryRouterConfig } from './router.js';
export { DEFAULT_PAGE_LIMIT, DEFAULT_PAGE_LIMITS, MAX_PAGE_LIMIT, offsetPage, type PageLimits } from './paging.js';
export { nodeServiceEntries, type NodeServiceImpl } from './define.js';
export { tendermintServiceEntries, sdkBlock, loadProtoBlock } from './tendermint.js';
export { txServiceEntries, eventCondition, txsEventQuery, txsEventPage } from './tx.js';
export { decodeTx, pubKeyAny, rfc3339Seconds } from './convert.js';
export { protoEvents, txResponse } from '../codec/txResponse.js';
export { withNodeQueries } from './abci.js';
