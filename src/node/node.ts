/**
 * The node's composition root: builds database → app → consensus → indexer → servers in order,
 * hands each a child logger, and tears them down in reverse with one `stop()`.
 *
 * One LevelDB database (`<home>/data/tokend.db`) holds every subsystem's buckets (see
 * store/db/buckets.ts); opening it takes the lock, so a second node on the same home fails with
 * "a node is already running with home …".
 */
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { describeStorageFault, storageFaultOf } from '../util/storageFault.js';
import { NodeHealth, type HealthReport } from './health.js';
import { descriptorLimit, planDescriptors } from './limits/descriptors.js';
import { NodeMetrics } from './metrics/index.js';
import { MemoryReleaser } from './memory/release.js';
import type { ConnectionStats } from './limits/connections.js';
import { TokendError } from '../util/errors.js';
import { dataDir } from './config/home.js';
import { homePath, loadAppConfig, loadNodeConfig, parseJsonRpcApi, type AppConfig, type NodeConfig } from './config/node.js';
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
import { EthRpcServer, SERVED_NAMESPACES, UNSERVED_NAMESPACES, type EthRpcAddress } from './ethrpc/server.js';
import { RpcServer, rpcEnvironment, unsafeNetRoutes, type NodeInfo as RpcNodeInfo, type RpcAddress } from './rpc/index.js';
import { P2PNode, type NodeInfo as P2PNodeInfo } from './p2p/index.js';
import { openApp, type OpenedApp } from './app/open.js';
import { App } from './app/app.js';
import { resolveAppOptions, type AppOptions } from './app/options.js';
import type { UpgradeHandlerEntry } from './platform/upgrades.js';
import { SnapshotManager } from './snapshots/manager.js';
import { createQueryRouter, withNodeQueries, type QueryRouter } from './services/index.js';
import { ApiServer, type ApiAddress } from './api/index.js';
import { GrpcServer, type GrpcAddress } from './grpc/index.js';
import { pruningFromAppToml } from './store/options.js';
import { appVersion } from './version/version.js';
import { COMPAT_COMETBFT_VERSION } from './version/version.js';
import { CLIENT_CONFIG_DEFAULTS, readClientConfigFile } from './config/client.js';
import { parseKeyringBackend } from '../keyring/open.js';
import type { KeyringBackendName } from '../keyring/types.js';
import { frontHosts } from './threads/frontHost.js';

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
  /** --json-rpc.api (comma-separated namespaces) */
  jsonRpcApi?: string;
  /** `--keyring-backend`: the keyring behind the personal JSON-RPC namespace (default: client.toml's). */
  keyringBackend?: string;
  minimumGasPrices?: string;
  haltHeight?: number;
  /** --unsafe-skip-upgrades: heights at which a due upgrade plan is skipped (cleared) instead of stopping the node. */
  unsafeSkipUpgrades?: readonly number[];
  /** Upgrade handlers instead of src/node/app/upgrades.ts (a program embedding the node library). */
  upgradeHandlers?: readonly UpgradeHandlerEntry[];
  /** Another module list than the app's (tools, tests): AppOptions.moduleSet. */
  moduleSet?: AppOptions['moduleSet'];
  /** --p2p.laddr */
  p2pLaddr?: string;
  /** --p2p.persistent_peers */
  persistentPeers?: string;
  /** --p2p.seeds */
  seeds?: string;
  /** The descriptor limit to plan with (default: this process's, from /proc/self/limits). */
  descriptorLimit?: number;
  /** Wrap the opened database (tests inject storage faults here). */
  wrapDatabase?: (db: Database) => Database;
  /**
   * Give memory back to the system after a load (app.toml [memory] release-idle-seconds). It acts
   * on the whole process — forced full collections of its heap, malloc_trim of its C heap — so only
   * the commands whose process runs nothing but the node turn it on (`start`, `devnet`, the first
   * node of `testnet start`); a program embedding the node library (the tests) has it off.
   */
  releaseMemory?: boolean;
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
  /** The Prometheus endpoint (…/metrics); undefined when [instrumentation] prometheus = false. */
  readonly metricsAddress: { url: string } | undefined;
  /** The Ethereum JSON-RPC; undefined when [json-rpc] enable = false. */
  readonly jsonRpcAddress: EthRpcAddress | undefined;
  readonly logger: Logger;
  /**
   * Resolves (with the reason) when the node stops by itself: halt height, consensus failure
   * ("consensus failure: …"), storage fault ("storage failure: …").
   */
  readonly stopped: Promise<string>;
  /** healthy / ready and why (the RPC's /health and /ready answer from this). */
  health(): HealthReport;
  /** Each server's open connections against its cap (after fitting the descriptor limit). */
  connections(): Record<string, ConnectionStats>;
  stop(): Promise<void>;
}

/**
 * The personal namespace's keyring backend, as the Go node's client context picks it:
 * `--keyring-backend`, else client.toml's `keyring-backend`, else the default (os).
 */
function personalKeyringBackend(home: string, flag: string | undefined): KeyringBackendName {
  if (flag !== undefined) return parseKeyringBackend(flag);
  return readClientConfigFile(home)['keyring-backend'] ?? CLIENT_CONFIG_DEFAULTS['keyring-backend'];
}

export function databasePath(home: string): string {
  return join(dataDir(home), DATABASE_DIRNAME);
}

export async function openNodeDatabase(home: string, maxOpenFiles?: number): Promise<Database> {
  return openDatabase(databasePath(home), { ownerHint: home, ...(maxOpenFiles !== undefined ? { maxOpenFiles } : {}) });
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
  // app.toml [memory] heap-growing-percent: V8 reads it whenever it sets the next heap limit.
  if (appConfig.memory.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${appConfig.memory.heapGrowingPercent}`);
  if (overrides.jsonRpcApi !== undefined) appConfig.jsonRpc.api = parseJsonRpcApi(overrides.jsonRpcApi, '--json-rpc.api');
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
  probeWritable(dataDir(home));
  // Descriptor budget: the database, files and peers first; the servers' caps fit in the rest.
  const fdLimit = overrides.descriptorLimit ?? descriptorLimit();
  const serverCaps: Record<string, number> = { rpc: nodeConfig.rpc.maxOpenConnections };
  if (appConfig.api.enable) serverCaps['api'] = appConfig.api.maxOpenConnections;
  if (appConfig.grpc.enable) serverCaps['grpc'] = appConfig.grpc.maxOpenConnections;
  if (appConfig.jsonRpc.enable) serverCaps['json-rpc'] = appConfig.jsonRpc.maxOpenConnections;
  const fdPlan = planDescriptors(fdLimit, serverCaps, nodeConfig.p2p.maxNumInboundPeers + nodeConfig.p2p.maxNumOutboundPeers + 10);
  for (const warning of fdPlan.warnings) logger.warn(warning);
  const maxTxJson = Math.ceil(nodeConfig.mempool.maxTxBytes / 3) * 4 + 200;
  if (nodeConfig.rpc.maxBodyBytes > 0 && nodeConfig.rpc.maxBodyBytes < maxTxJson) {
    logger.warn('config.toml rpc.max_body_bytes is below what broadcast_tx_* needs for the largest tx the mempool takes', {
      max_body_bytes: nodeConfig.rpc.maxBodyBytes,
      max_tx_bytes: nodeConfig.mempool.maxTxBytes,
      needed: maxTxJson,
    });
  }
  const opened0 = await openNodeDatabase(home, fdPlan.databaseFiles);
  const db = overrides.wrapDatabase ? overrides.wrapDatabase(opened0) : opened0;
  const cleanups: (() => Promise<void>)[] = [() => db.close()];
  /** The servers' starts under way: a failure waits for them before the cleanups stop them. */
  const starting: Promise<unknown>[] = [];
  const cleanup = async (): Promise<void> => {
    for (const fn of cleanups.reverse()) await fn().catch((err: Error) => logger.error('shutdown step failed', { err: err.message }));
  };
  try {
    let resolveStopped!: (reason: string) => void;
    const stopped = new Promise<string>((resolve) => (resolveStopped = resolve));
    // A storage fault anywhere (database, WAL, signer state) is fatal: unhealthy at once, new txs
    // refused, one fatal line, and the process stops with a non-zero exit for its supervisor.
    const ref: { consensus?: Consensus } = {};
    const health = new NodeHealth(() => {
      const status = ref.consensus?.status();
      const failure = ref.consensus?.failure;
      return { height: status?.latestBlockHeight ?? 0, catchingUp: status?.catchingUp ?? false, ...(failure ? { consensusFailure: `consensus failure: ${failure.message}` } : {}) };
    });
    let fatalReason: string | undefined;
    /** Unhealthy, new txs refused, one error line, and the node stops (once, for the first cause). */
    const stopWith = (reason: string, stopReason: string, line: string, ctx: Record<string, unknown>): void => {
      if (fatalReason !== undefined) return;
      fatalReason = reason;
      health.fail(reason);
      ref.consensus?.refuseNewTxs(reason);
      logger.error(line, ctx);
      resolveStopped(stopReason);
    };
    const fatal = (reason: string): void => stopWith(reason, `storage failure: ${reason}`, 'FATAL: the node cannot commit; stopping (restart it once the cause is fixed)', { reason });
    const offFault = db.onStorageFault?.((source, fault) => fatal(`${source}: ${describeStorageFault(fault)}`));
    if (offFault) cleanups.push(async () => offFault());
    // The decoded-tx and verified-signature caches hold what lies between CheckTx and FinalizeBlock:
    // sized from the mempool's size (CometBFT's [mempool] size), a pool and a block in flight.
    const txCacheSize = Math.max(1000, 2 * nodeConfig.mempool.size);
    const appOptions = {
      ...appOptionsFrom(appConfig, genesis.chainId, logger),
      txCacheSize,
      onHalt: (reason: string) => resolveStopped(`halted: ${reason}`),
      upgrades: { skipHeights: overrides.unsafeSkipUpgrades ?? [], homeDir: home, ...(overrides.upgradeHandlers ? { handlers: overrides.upgradeHandlers } : {}) },
      ...(overrides.moduleSet ? { moduleSet: overrides.moduleSet } : {}),
    };
    // app.toml [cache] store-buckets: decoded state buckets kept per module store.
    const opened: OpenedApp = await openApp(db, appOptions, { bucketCacheSize: appConfig.cache.storeBuckets });
    // Everyone holds the app through this reference: after a state-sync restore the app is
    // re-opened over the restored store (it reads its params and caches at construction).
    let currentApp: App = opened.app;
    // [instrumentation] prometheus: the app's calls are timed/counted at this one seam.
    const metricsRef: { current?: NodeMetrics } = {};
    const app = new Proxy(opened.app, {
      get(_target, prop): unknown {
        const value: unknown = Reflect.get(currentApp, prop, currentApp);
        if (typeof value !== 'function') return value;
        const fn = (value as (...a: unknown[]) => unknown).bind(currentApp);
        const metrics = metricsRef.current;
        return metrics ? instrumentAppCall(metrics, prop, fn) : fn;
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
      durableMempool: nodeConfig.mempool.durable,
      recentBlockResults: appConfig.cache.recentBlockResults,
      logger: childLogger(logger, { module: 'consensus' }),
      onFailure: (err: Error) => {
        const fault = storageFaultOf(err);
        if (fault) {
          fatal(`consensus: ${describeStorageFault(fault)}`);
          return;
        }
        stopWith(`consensus failure: ${err.message}`, `consensus failure: ${err.message}`, 'consensus failed', { err: err.message });
      },
    });
    ref.consensus = consensus;
    if (nodeConfig.instrumentation.prometheus) {
      const metrics = new NodeMetrics(
        {
          chainId: genesis.chainId,
          height: () => consensus.status().latestBlockHeight,
          round: () => consensus.roundState()?.round ?? 0,
          validators: () => {
            const set = consensus.chainState().validators;
            return { count: set.size, power: set.totalVotingPower() };
          },
          mempool: () => ({ size: consensus.mempool.size(), bytes: consensus.mempool.sizeBytes() }),
          peers: () => p2p.peerIds().length,
          syncing: () => consensus.syncInfo().syncing,
          health: () => health.report(),
          storeDir: databasePath(home),
          connections: () => connectionsOf(servers),
        },
        childLogger(logger, { module: 'metrics' }),
      );
      metricsRef.current = metrics;
      const offMetrics = consensus.eventBus.on('NewBlock', (data) => {
        const height = data.block.header.height;
        const previous = height > 1 ? consensus.stateStore.loadValidators(height - 1) : undefined;
        metrics.observeBlock(data.block, data.resultFinalizeBlock, consensus.blockStore.loadBlockMeta(height)?.blockSize ?? 0, previous?.validators.map((v) => v.votingPower) ?? []);
      });
      cleanups.push(async () => offMetrics());
    }
    const indexer = new IndexerService({
      db,
      blockStore: consensus.blockStore,
      stateStore: consensus.stateStore,
      eventBus: consensus.eventBus,
      options: { indexer: nodeConfig.txIndex.indexer, countCacheSize: appConfig.cache.indexCounters },
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
      health: () => health.report(),
      p2p: {
        dialSeeds: (addresses) => p2p.dial(addresses, { persistent: false, seeds: true }),
        dialPeers: (addresses, opts) => p2p.dial(addresses, { persistent: opts.persistent, seeds: false }),
      },
    });
    // One query table for REST and gRPC: the app's Query services plus the node-level services.
    const router = createQueryRouter({
      app,
      node: env,
      options: { rpcAddress: nodeConfig.rpc.laddr, broadcastTimeoutMs: nodeConfig.rpc.timeoutBroadcastTxCommitMs },
    });
    routerRef.current = router;
    // REST and gRPC query latency by route (the ABCI path is timed at the app seam).
    const servedRouter = metricsRef.current ? metricsRef.current.instrumentRouter(router) : router;
    // The app's committed state height, which the servers' kept answers are checked against.
    const stateHeight = servedRouter.stateHeight !== undefined && servedRouter.watchStateHeight !== undefined
      ? { stateHeight: () => servedRouter.stateHeight!(), watchStateHeight: (listener: (height: number) => void) => servedRouter.watchStateHeight!(listener) }
      : {};
    const rpc = new RpcServer({
      env,
      thread: nodeConfig.rpc.httpThread,
      answerCacheEntries: appConfig.cache.rpcResponses,
      ...stateHeight,
      options: {
        laddr: nodeConfig.rpc.laddr,
        corsAllowedOrigins: nodeConfig.rpc.corsAllowedOrigins,
        corsAllowedMethods: nodeConfig.rpc.corsAllowedMethods,
        corsAllowedHeaders: nodeConfig.rpc.corsAllowedHeaders,
        maxOpenConnections: fdPlan.caps['rpc'] ?? nodeConfig.rpc.maxOpenConnections,
        maxBodyBytes: nodeConfig.rpc.maxBodyBytes,
        maxHeaderBytes: nodeConfig.rpc.maxHeaderBytes,
        maxRequestBatchSize: nodeConfig.rpc.maxRequestBatchSize,
        readTimeoutMs: nodeConfig.rpc.timeoutReadMs,
        keepAliveTimeoutMs: nodeConfig.rpc.timeoutIdleMs,
        maxSubscriptionClients: nodeConfig.rpc.maxSubscriptionClients,
        maxSubscriptionsPerClient: nodeConfig.rpc.maxSubscriptionsPerClient,
        subscriptionBufferSize: nodeConfig.rpc.subscriptionBufferSize,
        closeOnSlowClient: nodeConfig.rpc.closeOnSlowClient,
        timeoutBroadcastTxCommitMs: nodeConfig.rpc.timeoutBroadcastTxCommitMs,
      },
      routes: nodeConfig.rpc.unsafe ? unsafeNetRoutes : [],
      logger: childLogger(logger, { module: 'rpc' }),
    });
    // Bind every port first: a busy port must fail before consensus makes any block. The servers
    // start at once (each front's thread loads while the others do); a failure is thrown once
    // every start has settled (below), so the cleanups never race a start still under way.
    const servers: Record<string, { connectionStats(): ConnectionStats | undefined }> = { rpc };
    const start = <A>(server: { start(): Promise<A>; stop(): Promise<void> }): Promise<A> => {
      const started = server.start();
      starting.push(started);
      // Stopped on the way out whether or not it started (stop() of a server not listening does nothing).
      cleanups.push(() => server.stop());
      return started;
    };
    const rpcStarted = start(rpc);
    let apiStarted: Promise<ApiAddress> | undefined;
    if (appConfig.api.enable) {
      const a = appConfig.api;
      const api = new ApiServer({
        router: servedRouter,
        options: {
          address: a.address,
          maxOpenConnections: fdPlan.caps['api'] ?? a.maxOpenConnections,
          enableUnsafeCors: a.enabledUnsafeCors,
          requestTimeoutMs: a.rpcReadTimeoutS * 1000,
          writeTimeoutMs: a.rpcWriteTimeoutS * 1000,
          maxBodyBytes: a.rpcMaxBodyBytes,
          keepAliveTimeoutMs: a.idleTimeoutS * 1000,
          answerCacheEntries: appConfig.cache.restResponses,
          thread: a.httpThread,
        },
        logger: childLogger(logger, { module: 'api' }),
      });
      servers['api'] = api;
      apiStarted = start(api);
    }
    let grpcStarted: Promise<GrpcAddress> | undefined;
    let metricsStarted: Promise<{ url: string }> | undefined;
    if (metricsRef.current) {
      const metrics = metricsRef.current;
      metricsStarted = start({ start: () => metrics.listen(nodeConfig.instrumentation.prometheusListenAddr), stop: () => metrics.close() });
    }
    if (appConfig.grpc.enable) {
      const g = appConfig.grpc;
      const grpc = new GrpcServer({
        router: servedRouter,
        options: {
          address: g.address,
          maxRecvMsgBytes: g.maxRecvMsgSize,
          maxSendMsgBytes: g.maxSendMsgSize,
          maxOpenConnections: fdPlan.caps['grpc'] ?? g.maxOpenConnections,
          idleTimeoutMs: g.idleTimeoutS * 1000,
          answerCacheEntries: appConfig.cache.grpcResponses,
        },
        thread: g.httpThread,
        logger: childLogger(logger, { module: 'grpc' }),
      });
      servers['grpc'] = grpc;
      grpcStarted = start(grpc);
    }
    let jsonRpcStarted: Promise<EthRpcAddress> | undefined;
    if (appConfig.jsonRpc.enable) {
      const unserved = appConfig.jsonRpc.api.filter((name) => (UNSERVED_NAMESPACES as readonly string[]).includes(name));
      if (unserved.length > 0) logger.warn('json-rpc namespaces not served by this version', { namespaces: unserved.join(','), served: SERVED_NAMESPACES.join(',') });
      const ethRpc = new EthRpcServer({
        env,
        address: appConfig.jsonRpc.address,
        wsAddress: appConfig.jsonRpc.wsAddress,
        api: appConfig.jsonRpc.api,
        personal: appConfig.jsonRpc.api.includes('personal') ? { home, backend: personalKeyringBackend(home, overrides.keyringBackend) } : undefined,
        logger: childLogger(logger, { module: 'json-rpc' }),
        maxOpenConnections: fdPlan.caps['json-rpc'] ?? appConfig.jsonRpc.maxOpenConnections,
        httpTimeoutMs: appConfig.jsonRpc.httpTimeoutMs,
        httpIdleTimeoutMs: appConfig.jsonRpc.httpIdleTimeoutMs,
        answerCacheEntries: appConfig.cache.jsonRpcResponses,
        thread: appConfig.jsonRpc.httpThread,
        ...stateHeight,
      });
      servers['json-rpc'] = ethRpc;
      jsonRpcStarted = start(ethRpc);
    }
    // Every start settles before the first failure (in the order above) is thrown, so none is left
    // half-started behind the cleanups.
    await Promise.allSettled(starting);
    // A host started early for the fronts (prewarmFrontHost) that none of them came to ends now.
    frontHosts.settle();
    const rpcAddress = await rpcStarted;
    const apiAddress = await apiStarted;
    const metricsAddress = await metricsStarted;
    const grpcAddress = await grpcStarted;
    const jsonRpcAddress = await jsonRpcStarted;
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
    // Memory back to the system once a write load stops (app.toml [memory] release-idle-seconds), only
    // where the node owns its process (overrides.releaseMemory: start, devnet, testnet start).
    const releaseIdleSeconds = overrides.releaseMemory ? appConfig.memory.releaseIdleSeconds : 0;
    if (releaseIdleSeconds > 0) {
      let blockTxs = 0;
      const offBlockTxs = consensus.eventBus.on('NewBlock', (data) => {
        blockTxs += data.block.data.txs.length;
      });
      const releaser = new MemoryReleaser(
        { idleSeconds: releaseIdleSeconds },
        { txs: () => (consensus.mempool.admittedCount?.() ?? 0) + blockTxs, pending: () => consensus.mempool.size() },
        childLogger(logger, { module: 'memory' }),
      );
      releaser.start();
      cleanups.push(async () => {
        offBlockTxs();
        await releaser.stop();
      });
    }
    health.markStarted();
    logger.info('node started', {
      chain_id: genesis.chainId,
      moniker: nodeConfig.moniker,
      node_id: nodeKey.id,
      p2p: p2p.nodeInfo().listenAddr,
      rpc: rpcAddress.url,
      api: apiAddress?.url,
      grpc: grpcAddress?.target,
      height: consensus.status().latestBlockHeight,
      memory_release_idle_seconds: releaseIdleSeconds,
    });
    let stopping: Promise<void> | undefined;
    return {
      consensus,
      p2p,
      rpcAddress,
      apiAddress,
      grpcAddress,
      metricsAddress,
      jsonRpcAddress,
      logger,
      stopped,
      health: () => health.report(),
      connections: () => connectionsOf(servers),
      stop(): Promise<void> {
        stopping ??= cleanup().then(() => resolveStopped('stopped'));
        return stopping;
      },
    };
  } catch (err) {
    await Promise.allSettled(starting);
    frontHosts.settle();
    await cleanup();
    throw err;
  }
}

/**
 * Refuse to start on a home that cannot take writes (disk full, read-only): write, sync and
 * remove 1 MiB in the data directory, so the node never reports healthy while it cannot commit.
 */
export function probeWritable(dir: string): void {
  const probe = join(dir, '.write-probe');
  try {
    mkdirSync(dir, { recursive: true });
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, Buffer.alloc(WRITE_PROBE_BYTES));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
  } catch (err) {
    rmSync(probe, { force: true });
    const fault = storageFaultOf(err);
    throw new TokendError('HOME_UNWRITABLE', `cannot write to ${dir}: ${fault ? describeStorageFault(fault) : (err as Error).message}`, {
      hint: fault?.code === 'EROFS' ? 'remount the home read-write or use another --home' : 'free space on the disk holding the home (the node keeps at least 1 MiB of headroom), then start again',
      cause: err,
    });
  }
}

const WRITE_PROBE_BYTES = 1 << 20;

function connectionsOf(servers: Record<string, { connectionStats(): ConnectionStats | undefined }>): Record<string, ConnectionStats> {
  const out: Record<string, ConnectionStats> = {};
  for (const [name, server] of Object.entries(servers)) {
    const stats = server.connectionStats();
    if (stats) out[name] = stats;
  }
  return out;
}

/** Time / count one app call for the metrics (the others pass through). */
function instrumentAppCall(metrics: NodeMetrics, prop: string | symbol, fn: (...a: unknown[]) => unknown): (...a: unknown[]) => unknown {
  const timed = (observe: (ms: number) => void) => async (...args: unknown[]): Promise<unknown> => {
    const started = performance.now();
    try {
      return await fn(...args);
    } finally {
      observe(performance.now() - started);
    }
  };
  switch (prop) {
    case 'finalizeBlock':
      return timed((ms) => metrics.blockProcessingTime.observe(ms));
    case 'commit':
      return timed((ms) => metrics.commitDuration.observe(ms / 1000));
    case 'query':
      return async (...args: unknown[]): Promise<unknown> => {
        const started = performance.now();
        try {
          return await fn(...args);
        } finally {
          metrics.observeQuery((args[0] as { path?: string } | undefined)?.path ?? '', (performance.now() - started) / 1000);
        }
      };
    case 'checkTx':
      return async (...args: unknown[]): Promise<unknown> => {
        const request = args[0] as { type?: string } | undefined;
        if (request?.type === 'recheck') metrics.recheckTimes.inc();
        const res = (await fn(...args)) as { code: number };
        if (res.code !== 0 && request?.type !== 'recheck') metrics.failedTxs.inc();
        return res;
      };
    default:
      return fn;
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
