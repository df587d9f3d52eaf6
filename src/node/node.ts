/**
 * The node's composition root: builds database → app → consensus → indexer → servers in order,
 * hands each a child logger, and tears them down in reverse with one `stop()`.
 *
 * One LevelDB database (`<home>/data/tokend.db`) holds every subsystem's buckets (see
 * store/db/buckets.ts); opening it takes the lock, so a second node on the same home fails with
 * "a node is already running with home …".
 */
import { join } from 'node:path';
import { TokendError } from '../util/errors.js';
import { dataDir } from './config/home.js';
import { homePath, loadAppConfig, loadNodeConfig, type AppConfig, type NodeConfig } from './config/node.js';
import { createLogger, type Logger, type NodeLogLevel, type LogFormat } from './logger.js';
import { childLogger } from './logger.js';
import { openDatabase, type Database } from './store/db/database.js';
import { loadGenesisFile } from './consensus/types/genesis.js';
import { FilePV, loadNodeKey } from './consensus/privval.js';
import { createConsensus, type Consensus } from './consensus/index.js';
import { BlockStore } from './consensus/store/blockStore.js';
import { StateStore } from './consensus/store/stateStore.js';
import { rollbackState } from './consensus/rollback.js';
import { IndexerService } from './indexer/index.js';
import { EthRpcServer, type EthRpcAddress } from './ethrpc/server.js';
import { RpcServer, rpcEnvironment, unsafeNetRoutes, type NodeInfo as RpcNodeInfo, type RpcAddress } from './rpc/index.js';
import { P2PNode, type NodeInfo as P2PNodeInfo } from './p2p/index.js';
import { openApp, type OpenedApp } from './app/open.js';
import { App } from './app/app.js';
import { resolveAppOptions } from './app/options.js';
import { SnapshotManager } from './snapshots/manager.js';
import { createQueryRouter, withNodeQueries, type QueryRouter } from './services/index.js';
import { ApiServer, type ApiAddress } from './api/index.js';
import { GrpcServer, type GrpcAddress } from './grpc/index.js';
import { pruningFromAppToml } from './store/options.js';
import { appVersion } from './version/version.js';
import { COMPAT_COMETBFT_VERSION } from './version/version.js';

export const DATABASE_DIRNAME = 'tokend.db';

export interface NodeOverrides {
  logLevel?: NodeLogLevel;
  logFormat?: LogFormat;
  logger?: Logger;
  /** --rpc.laddr */
  rpcLaddr?: string;
  /** --api.address ("" = keep app.toml); --api.enable=false via appConfig. */
  apiAddress?: string;
  /** --grpc.address */
  grpcAddress?: string;
  /** --json-rpc.enable */
  jsonRpcEnable?: boolean;
  /** --json-rpc.address */
  jsonRpcAddress?: string;
  /** --json-rpc.ws-address */
  jsonRpcWsAddress?: string;
  minimumGasPrices?: string;
  haltHeight?: number;
  /** --p2p.laddr */
  p2pLaddr?: string;
  /** --p2p.persistent_peers */
  persistentPeers?: string;
  /** --p2p.seeds */
  seeds?: string;
  /** Mutate the loaded config.toml values (tests: short timeouts). */
  nodeConfig?: (config: NodeConfig) => void;
  appConfig?: (config: AppConfig) => void;
}

export interface RunningNode {
  readonly consensus: Consensus;
  readonly p2p: P2PNode;
  readonly rpcAddress: RpcAddress;
  /** Undefined when [api] enable = false. */
  readonly apiAddress: ApiAddress | undefined;
  /** Undefined when [grpc] enable = false. */
  readonly grpcAddress: GrpcAddress | undefined;
  /** The Ethereum JSON-RPC; undefined when [json-rpc] enable = false. */
  readonly jsonRpcAddress: EthRpcAddress | undefined;
  readonly logger: Logger;
  /** Resolves (with the reason) when the node stops by itself: halt height, consensus failure. */
  readonly stopped: Promise<string>;
  stop(): Promise<void>;
}

export function databasePath(home: string): string {
  return join(dataDir(home), DATABASE_DIRNAME);
}

export async function openNodeDatabase(home: string): Promise<Database> {
  return openDatabase(databasePath(home), { ownerHint: home });
}

function appOptionsFrom(appConfig: AppConfig, chainId: string, logger: Logger): Parameters<typeof openApp>[1] {
  return {
    chainId,
    minGasPrices: appConfig.minimumGasPrices,
    pruning: pruningFromAppToml(appConfig.pruning, appConfig.pruningKeepRecent, appConfig.pruningInterval),
    haltHeight: appConfig.haltHeight,
    indexEvents: appConfig.indexEvents,
    version: appVersion(),
    logger: childLogger(logger, { module: 'app' }),
  };
}

/** Start a node from its home. Throws one clear error when the home is not usable. */
export async function startNode(home: string, overrides: NodeOverrides = {}): Promise<RunningNode> {
  const nodeConfig = loadNodeConfig(home);
  const appConfig = loadAppConfig(home);
  overrides.nodeConfig?.(nodeConfig);
  overrides.appConfig?.(appConfig);
  if (overrides.rpcLaddr) nodeConfig.rpc.laddr = overrides.rpcLaddr;
  if (overrides.p2pLaddr) nodeConfig.p2p.laddr = overrides.p2pLaddr;
  if (overrides.persistentPeers !== undefined) nodeConfig.p2p.persistentPeers = overrides.persistentPeers;
  if (overrides.seeds !== undefined) nodeConfig.p2p.seeds = overrides.seeds;
  if (overrides.apiAddress) appConfig.api.address = overrides.apiAddress;
  if (overrides.grpcAddress) appConfig.grpc.address = overrides.grpcAddress;
  if (overrides.jsonRpcEnable !== undefined) appConfig.jsonRpc.enable = overrides.jsonRpcEnable;
  if (overrides.jsonRpcAddress) appConfig.jsonRpc.address = overrides.jsonRpcAddress;
  if (overrides.jsonRpcWsAddress) appConfig.jsonRpc.wsAddress = overrides.jsonRpcWsAddress;
  if (overrides.minimumGasPrices !== undefined) appConfig.minimumGasPrices = overrides.minimumGasPrices;
  if (overrides.haltHeight !== undefined) appConfig.haltHeight = overrides.haltHeight;
  const logger =
    overrides.logger ??
    createLogger({ level: overrides.logLevel ?? (nodeConfig.logLevel as NodeLogLevel), format: overrides.logFormat ?? nodeConfig.logFormat });

  const genesis = await loadGenesisFile(homePath(home, nodeConfig.genesisFile)).catch((err: Error) => {
    throw new TokendError('INVALID_GENESIS', err.message, { hint: 'check it with `tokend validate-genesis`', cause: err });
  });
  const privValidator = FilePV.load(homePath(home, nodeConfig.privValidatorKeyFile), homePath(home, nodeConfig.privValidatorStateFile));
  const nodeKey = loadNodeKey(homePath(home, nodeConfig.nodeKeyFile));
  // Built before anything is opened: a malformed address in [p2p] refuses the start.
  const p2p = new P2PNode({
    nodeKey,
    network: genesis.chainId,
    moniker: nodeConfig.moniker,
    version: COMPAT_COMETBFT_VERSION,
    options: nodeConfig.p2p,
    home,
    txIndex: nodeConfig.txIndex.indexer === 'null' ? 'off' : 'on',
    rpcAddress: nodeConfig.rpc.laddr,
    logger: childLogger(logger, { module: 'p2p' }),
  });
  const db = await openNodeDatabase(home);
  const cleanups: (() => Promise<void>)[] = [() => db.close()];
  const cleanup = async (): Promise<void> => {
    for (const fn of cleanups.reverse()) await fn().catch((err: Error) => logger.error('shutdown step failed', { err: err.message }));
  };
  try {
    let resolveStopped!: (reason: string) => void;
    const stopped = new Promise<string>((resolve) => (resolveStopped = resolve));
    const appOptions = { ...appOptionsFrom(appConfig, genesis.chainId, logger), onHalt: (reason: string) => resolveStopped(`halted: ${reason}`) };
    const opened: OpenedApp = await openApp(db, appOptions);
    // Everyone holds the app through this reference: after a state-sync restore the app is
    // re-opened over the restored store (it reads its params and caches at construction).
    let currentApp: App = opened.app;
    const app = new Proxy(opened.app, {
      get(_target, prop): unknown {
        const value: unknown = Reflect.get(currentApp, prop, currentApp);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(currentApp) : value;
      },
    });
    cleanups.push(async () => {
      await currentApp.close();
      await opened.store.close();
    });
    const snapshots = new SnapshotManager(
      opened.store,
      { dir: join(dataDir(home), 'snapshots'), interval: appConfig.stateSync.snapshotInterval, keepRecent: appConfig.stateSync.snapshotKeepRecent },
      childLogger(logger, { module: 'snapshots' }),
      async () => {
        const previous = currentApp;
        currentApp = new App(opened.store, resolveAppOptions(appOptions));
        await currentApp.ready();
        await previous.close();
      },
    );
    const consensus = await createConsensus({
      db,
      app,
      snapshots,
      stateSync: nodeConfig.stateSync,
      genesis,
      privValidator,
      nodeKey,
      options: { ...nodeConfig.consensus, walFile: homePath(home, nodeConfig.consensus.walFile ?? 'data/cs.wal/wal') },
      mempoolOptions: nodeConfig.mempool,
      p2p,
      blockSync: nodeConfig.blockSync.enable,
      mempoolBroadcast: nodeConfig.mempool.broadcast,
      logger: childLogger(logger, { module: 'consensus' }),
      onFailure: (err: Error) => {
        logger.error('consensus failed', { err: err.message });
        resolveStopped(`consensus failure: ${err.message}`);
      },
    });
    const indexer = new IndexerService({
      db,
      blockStore: consensus.blockStore,
      stateStore: consensus.stateStore,
      eventBus: consensus.eventBus,
      options: { indexer: nodeConfig.txIndex.indexer },
      logger: childLogger(logger, { module: 'txindex' }),
    });
    await indexer.start();
    cleanups.push(() => indexer.stop());
    // abci_query also answers the node-level services (GetTx, GetBlockWithTxs, tendermint …).
    const routerRef: { current?: QueryRouter } = {};
    const env = rpcEnvironment({
      consensus,
      app: withNodeQueries(app, () => routerRef.current),
      indexer,
      nodeInfo: () => rpcNodeInfo(p2p.nodeInfo(), false),
      netInfo: () => {
        const info = p2p.netInfo();
        return {
          listening: info.listening,
          listeners: info.listeners,
          peers: info.peers.map((peer) => ({ nodeInfo: rpcNodeInfo(peer.nodeInfo, true), isOutbound: peer.isOutbound, remoteIp: peer.remoteIp, connectionStatus: peer.connectionStatus })),
        };
      },
      fetchBlock: (height) => consensus.fetchBlock!(height),
      p2p: {
        dialSeeds: (addresses) => p2p.dial(addresses, { persistent: false, seeds: true }),
        dialPeers: (addresses, opts) => p2p.dial(addresses, { persistent: opts.persistent, seeds: false }),
      },
    });
    const rpc = new RpcServer({
      env,
      options: {
        laddr: nodeConfig.rpc.laddr,
        maxSubscriptionClients: nodeConfig.rpc.maxSubscriptionClients,
        maxSubscriptionsPerClient: nodeConfig.rpc.maxSubscriptionsPerClient,
        timeoutBroadcastTxCommitMs: nodeConfig.rpc.timeoutBroadcastTxCommitMs,
      },
      routes: nodeConfig.rpc.unsafe ? unsafeNetRoutes : [],
      logger: childLogger(logger, { module: 'rpc' }),
    });
    // Bind every port first: a busy port must fail before consensus makes any block.
    const rpcAddress = await rpc.start();
    cleanups.push(() => rpc.stop());
    // One query table for REST and gRPC: the app's Query services plus the node-level services.
    const router = createQueryRouter({
      app,
      node: env,
      options: { rpcAddress: nodeConfig.rpc.laddr, broadcastTimeoutMs: nodeConfig.rpc.timeoutBroadcastTxCommitMs },
    });
    routerRef.current = router;
    let apiAddress: ApiAddress | undefined;
    if (appConfig.api.enable) {
      const api = new ApiServer({ router, options: { address: appConfig.api.address, maxOpenConnections: appConfig.api.maxOpenConnections }, logger: childLogger(logger, { module: 'api' }) });
      apiAddress = await api.start();
      cleanups.push(() => api.stop());
    }
    let grpcAddress: GrpcAddress | undefined;
    if (appConfig.grpc.enable) {
      const grpc = new GrpcServer({ router, options: { address: appConfig.grpc.address }, logger: childLogger(logger, { module: 'grpc' }) });
      grpcAddress = await grpc.start();
      cleanups.push(() => grpc.stop());
    }
    let jsonRpcAddress: EthRpcAddress | undefined;
    if (appConfig.jsonRpc.enable) {
      const ethRpc = new EthRpcServer({ env, address: appConfig.jsonRpc.address, wsAddress: appConfig.jsonRpc.wsAddress, logger: childLogger(logger, { module: 'json-rpc' }) });
      jsonRpcAddress = await ethRpc.start();
      cleanups.push(() => ethRpc.stop());
    }
    // Listen and dial before consensus starts: block sync needs peers, and peers need our channels.
    await p2p.start();
    cleanups.push(() => p2p.stop());
    const offSnapshots = consensus.eventBus.on('NewBlock', (data) => snapshots.maybeSnapshot(data.block.header.height));
    cleanups.push(async () => {
      offSnapshots();
      await snapshots.idle();
    });
    await consensus.start();
    cleanups.push(() => consensus.stop());
    logger.info('node started', {
      chain_id: genesis.chainId,
      moniker: nodeConfig.moniker,
      node_id: nodeKey.id,
      p2p: p2p.nodeInfo().listenAddr,
      rpc: rpcAddress.url,
      api: apiAddress?.url,
      grpc: grpcAddress?.target,
      height: consensus.status().latestBlockHeight,
    });
    let stopping: Promise<void> | undefined;
    return {
      consensus,
      p2p,
      rpcAddress,
      apiAddress,
      grpcAddress,
      jsonRpcAddress,
      logger,
      stopped,
      stop(): Promise<void> {
        stopping ??= cleanup().then(() => resolveStopped('stopped'));
        return stopping;
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * `tendermint bootstrap-state`: consensus state at `height` (default: the app's latest version)
 * from the [statesync] light client. The app's own state must already be there.
 */
export async function bootstrapNodeState(home: string, height: number | undefined): Promise<{ height: number; app_hash: string }> {
  const nodeConfig = loadNodeConfig(home);
  const appConfig = loadAppConfig(home);
  const genesis = await loadGenesisFile(homePath(home, nodeConfig.genesisFile));
  const db = await openNodeDatabase(home);
  try {
    let target = height ?? 0;
    if (target === 0) {
      const opened = await openApp(db, appOptionsFrom(appConfig, genesis.chainId, createLogger({ level: 'error', format: 'plain' })));
      target = opened.store.latestVersion();
      await opened.close();
    }
    const { bootstrapState } = await import('./consensus/statesync/bootstrap.js');
    const ss = nodeConfig.stateSync;
    return await bootstrapState({
      db,
      chainId: genesis.chainId,
      initialHeight: genesis.initialHeight,
      height: target,
      rpcServers: ss.rpcServers,
      trustHeight: ss.trustHeight,
      trustHash: ss.trustHash,
      trustPeriodMs: ss.trustPeriodMs,
    });
  } finally {
    await db.close();
  }
}

/** p2p node info as the RPC renders it (peers keep their own `other`; ours is filled by the RPC). */
function rpcNodeInfo(info: P2PNodeInfo, withOther: boolean): RpcNodeInfo {
  const out: RpcNodeInfo = {
    id: info.id,
    listenAddr: info.listenAddr,
    network: info.network,
    version: info.version,
    channels: Buffer.from(info.channels).toString('hex'),
    moniker: info.moniker,
    protocolVersion: { ...info.protocolVersion },
  };
  if (withOther) out.other = { ...info.other };
  return out;
}

/** Roll app and consensus state back by one height. */
export async function rollbackNode(home: string): Promise<{ height: number; app_hash: string }> {
  const appConfig = loadAppConfig(home);
  const db = await openNodeDatabase(home);
  try {
    const blockStore = new BlockStore(db);
    const stateStore = new StateStore(db);
    const result = await rollbackState(blockStore, stateStore);
    const chainId = stateStore.load()?.chainId ?? '';
    const opened = await openApp(db, appOptionsFrom(appConfig, chainId, createLogger({ level: 'error', format: 'plain' })));
    try {
      let appHeight = opened.store.latestVersion();
      while (appHeight > result.height) {
        await opened.store.rollback();
        appHeight = opened.store.latestVersion();
      }
      const appHash = opened.store.lastCommitId().hash;
      if (Buffer.compare(Buffer.from(appHash), Buffer.from(result.appHash)) !== 0) {
        throw new TokendError('INTERNAL', `app hash after rollback (${Buffer.from(appHash).toString('hex')}) does not match the block's (${Buffer.from(result.appHash).toString('hex')})`);
      }
      return { height: result.height, app_hash: Buffer.from(appHash).toString('hex').toUpperCase() };
    } finally {
      await opened.close();
    }
  } finally {
    await db.close();
  }
}

/**
 * Export the state at `height` (default: the app's latest) as a genesis document that starts a
 * new chain with the same state: app_state from every module, the bonded validators, the
 * consensus params of that height, initial_height = height + 1.
 */
export async function exportGenesis(home: string, height?: number): Promise<Record<string, unknown>> {
  const nodeConfig = loadNodeConfig(home);
  const appConfig = loadAppConfig(home);
  const genesis = await loadGenesisFile(homePath(home, nodeConfig.genesisFile));
  const db = await openNodeDatabase(home);
  try {
    const opened = await openApp(db, appOptionsFrom(appConfig, genesis.chainId, createLogger({ level: 'error', format: 'plain' })));
    try {
      const latest = opened.store.latestVersion();
      const exportHeight = height ?? latest;
      if (exportHeight < 1 || exportHeight > latest) {
        throw new TokendError('INVALID_ARGUMENT', `cannot export height ${exportHeight}: the app has heights ${opened.store.earliestVersion()}–${latest}`);
      }
      const { exportAppState, exportValidators } = await import('./app/genesis.js');
      const { renderConsensusParams } = await import('./consensus/json.js');
      const appState = await exportAppState(opened.store, exportHeight);
      const validators = await exportValidators(opened.store, exportHeight);
      const params = new StateStore(db).loadConsensusParams(exportHeight) ?? genesis.consensusParams;
      const time = genesis.genesisTime;
      return {
        app_name: 'tokend',
        app_version: appVersion(),
        genesis_time: (await import('./consensus/json.js')).renderTime(time),
        chain_id: genesis.chainId,
        initial_height: exportHeight + 1,
        app_hash: null,
        app_state: appState,
        consensus: {
          validators: validators.map((v) => ({
            address: v.address,
            pub_key: { type: v.pubKeyType === 'ed25519' ? 'tendermint/PubKeyEd25519' : 'tendermint/PubKeySecp256k1', value: Buffer.from(v.pubKey).toString('base64') },
            power: v.power.toString(),
            name: v.name,
          })),
          params: renderConsensusParams(params),
        },
      };
    } finally {
      await opened.close();
    }
  } finally {
    await db.close();
  }
}
