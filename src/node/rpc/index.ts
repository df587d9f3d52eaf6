/**
 * The CometBFT-compatible RPC subsystem's entry point for the node's composition root.
 *
 *   const indexer = new IndexerService({ db, blockStore, stateStore, eventBus: consensus.eventBus });
 *   await indexer.start();
 *   const rpc = new RpcServer({ env: rpcEnvironment(consensus, app, indexer, nodeInfo), options: { laddr }, logger });
 *   await consensus.start();
 *   await rpc.start();
 *   …
 *   await rpc.stop(); await consensus.stop(); await indexer.stop();
 */
export { RpcServer, type RpcServerConfig, type RpcAddress } from './server.js';
export { defaultRpcOptions, parseListenAddress, type RpcOptions } from './options.js';
export type { RpcEnvironment, RpcApp, NodeInfo, NetInfo, PeerInfo, P2PControl } from './environment.js';
export { RpcError, ParamError, PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR, SERVER_ERROR, type RpcErrorObject } from './errors.js';
export { ROUTES, routeTable } from './routes.js';
export { defineRoute, RawJson, type Route, type RouteContext, type JsonRpcId } from './route.js';
export type { ParamSpec, ParamType } from './params.js';
export { rpcEnvironment } from './wiring.js';
export { unsafeNetRoutes } from './core/net.js';
