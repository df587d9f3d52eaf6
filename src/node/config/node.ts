/**
 * Node configuration files: `<home>/config/config.toml` (consensus engine, CometBFT names) and
 * `<home>/config/app.toml` (application, Cosmos SDK names). This is the one place where the files
 * map onto each subsystem's options; every key has a default, so a missing key (or file) means
 * the default.
 */
import { parseGoDurationNanos } from '../../util/goDuration.js';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { TokendError } from '../../util/errors.js';
import { defaultConsensusOptions, defaultMempoolOptions, DEFAULT_RECENT_RESPONSES, type ConsensusOptions, type MempoolOptions } from '../consensus/options.js';
import { defaultIndexerOptions } from '../indexer/options.js';
import { defaultApiOptions } from '../api/options.js';
import { defaultCommitMultiStoreOptions } from '../store/options.js';
import { defaultP2POptions, type P2POptions } from '../p2p/options.js';
import { configDir } from './home.js';

export interface NodeConfig {
  moniker: string;
  logLevel: string;
  logFormat: 'plain' | 'json';
  genesisFile: string;
  privValidatorKeyFile: string;
  privValidatorStateFile: string;
  nodeKeyFile: string;
  rpc: {
    laddr: string;
    unsafe: boolean;
    corsAllowedOrigins: string[];
    corsAllowedMethods: string[];
    corsAllowedHeaders: string[];
    maxOpenConnections: number;
    maxBodyBytes: number;
    maxHeaderBytes: number;
    maxRequestBatchSize: number;
    timeoutBroadcastTxCommitMs: number;
    timeoutReadMs: number;
    timeoutIdleMs: number;
    maxSubscriptionClients: number;
    maxSubscriptionsPerClient: number;
    subscriptionBufferSize: number;
    closeOnSlowClient: boolean;
    /** http_thread (tokend): connections, parsing, websocket frames and kept abci_query answers off the main thread (threads/frontHost.ts). */
    httpThread: boolean;
  };
  p2p: P2POptions;
  mempool: MempoolOptions & { broadcast: boolean; durable: boolean };
  /** [blocksync]: download missing blocks from peers before joining consensus. */
  blockSync: { enable: boolean };
  /** [statesync]: restore the app from a peer's snapshot, then block sync (CometBFT names). */
  stateSync: StateSyncConfig;
  consensus: ConsensusOptions;
  txIndex: { indexer: 'kv' | 'null' };
  instrumentation: { prometheus: boolean; prometheusListenAddr: string };
}

export interface StateSyncConfig {
  enable: boolean;
  /** Light-client RPC servers (at least 2) that verify the trusted height and hash. */
  rpcServers: string[];
  trustHeight: number;
  /** Hex hash of the header at trust_height. */
  trustHash: string;
  trustPeriodMs: number;
  /** How long to wait for snapshot offers before choosing one. */
  discoveryTimeMs: number;
  chunkRequestTimeoutMs: number;
  chunkFetchers: number;
}

export interface AppConfig {
  minimumGasPrices: string;
  pruning: string;
  pruningKeepRecent: number;
  pruningInterval: number;
  haltHeight: number;
  indexEvents: string[];
  api: {
    enable: boolean;
    address: string;
    maxOpenConnections: number;
    enabledUnsafeCors: boolean;
    /** rpc-read-timeout / rpc-write-timeout / idle-timeout, in seconds as the SDK writes them. */
    rpcReadTimeoutS: number;
    rpcWriteTimeoutS: number;
    rpcMaxBodyBytes: number;
    idleTimeoutS: number;
    /** http-thread (tokend): connections, parsing and kept answers off the main thread (threads/frontHost.ts). */
    httpThread: boolean;
  };
  /** http-thread (tokend): connections, unary calls and kept answers off the main thread (threads/frontHost.ts). */
  grpc: { enable: boolean; address: string; maxRecvMsgSize: number; maxSendMsgSize: number; maxOpenConnections: number; idleTimeoutS: number; httpThread: boolean };
  /** [json-rpc] (Ethermint names): max-open-connections (0 = what the descriptor limit allows), http-timeout, http-idle-timeout. */
  jsonRpc: {
    enable: boolean;
    address: string;
    wsAddress: string;
    api: string[];
    maxOpenConnections: number;
    httpTimeoutMs: number;
    httpIdleTimeoutMs: number;
    /** http-thread (tokend): HTTP connections, parsing and kept results off the main thread (threads/frontHost.ts). */
    httpThread: boolean;
  };
  /** [state-sync]: take a snapshot every snapshot-interval blocks (0 = never), keep snapshot-keep-recent. */
  stateSync: { snapshotInterval: number; snapshotKeepRecent: number };
  /**
   * [cache] (tokend's own section): the bounds of the node's in-memory caches, in entries.
   * storeBuckets: decoded state buckets per module store; indexCounters: the tx and block
   * indexers' attribute counters (each); recentBlockResults: decoded FinalizeBlock responses of the
   * latest heights; restResponses / grpcResponses / jsonRpcResponses / rpcResponses: REST / gRPC / Ethereum JSON-RPC / CometBFT RPC (abci_query) answers of the latest state. The decoded-tx and verified-signature caches follow config.toml [mempool] size.
   */
  cache: { storeBuckets: number; indexCounters: number; recentBlockResults: number; restResponses: number; grpcResponses: number; jsonRpcResponses: number; rpcResponses: number };
  /**
   * [memory] (tokend's own section): heapGrowingPercent, V8's old-generation growing factor as
   * 1 + percent/100 after each full GC (0 = V8's own, up to 4× the live heap under load);
   * releaseIdleSeconds, how long without transactions before the node gives memory back (0 = never).
   */
  memory: { heapGrowingPercent: number; releaseIdleSeconds: number };
}

/**
 * Settings the node writes into config.toml / app.toml but does not apply (yet), with the reason.
 * test/node/config/settings.test.ts walks the written files: every other key must be read.
 */
export const IGNORED_SETTINGS: Readonly<Record<string, string>> = Object.freeze({});

export function defaultNodeConfig(moniker = 'node'): NodeConfig {
  return {
    moniker,
    logLevel: 'info',
    logFormat: 'plain',
    genesisFile: 'config/genesis.json',
    privValidatorKeyFile: 'config/priv_validator_key.json',
    privValidatorStateFile: 'data/priv_validator_state.json',
    nodeKeyFile: 'config/node_key.json',
    rpc: {
      laddr: 'tcp://127.0.0.1:26657',
      unsafe: false,
      corsAllowedOrigins: [],
      corsAllowedMethods: ['HEAD', 'GET', 'POST'],
      corsAllowedHeaders: ['Origin', 'Accept', 'Content-Type', 'X-Requested-With', 'X-Server-Time'],
      maxOpenConnections: 900,
      maxBodyBytes: 1_000_000,
      maxHeaderBytes: 1 << 20,
      maxRequestBatchSize: 10,
      timeoutBroadcastTxCommitMs: 10_000,
      timeoutReadMs: 10_000,
      timeoutIdleMs: 60_000,
      maxSubscriptionClients: 100,
      maxSubscriptionsPerClient: 5,
      subscriptionBufferSize: 200,
      closeOnSlowClient: false,
      httpThread: true,
    },
    p2p: { ...defaultP2POptions },
    mempool: { ...defaultMempoolOptions, broadcast: true, durable: true },
    blockSync: { enable: true },
    stateSync: {
      enable: false,
      rpcServers: [],
      trustHeight: 0,
      trustHash: '',
      trustPeriodMs: 168 * 3600 * 1000,
      discoveryTimeMs: 15_000,
      chunkRequestTimeoutMs: 10_000,
      chunkFetchers: 4,
    },
    consensus: { ...defaultConsensusOptions, walFile: 'data/cs.wal/wal' },
    txIndex: { indexer: 'kv' },
    instrumentation: { prometheus: false, prometheusListenAddr: ':26660' },
  };
}

export function defaultAppConfig(denom = 'attotoken'): AppConfig {
  return {
    minimumGasPrices: `0${denom}`,
    pruning: 'default',
    pruningKeepRecent: 0,
    pruningInterval: 0,
    haltHeight: 0,
    indexEvents: [],
    api: {
      enable: true,
      address: 'tcp://localhost:1317',
      maxOpenConnections: 1000,
      enabledUnsafeCors: false,
      rpcReadTimeoutS: 10,
      rpcWriteTimeoutS: 0,
      rpcMaxBodyBytes: 1_000_000,
      idleTimeoutS: 60,
      httpThread: true,
    },
    grpc: { enable: true, address: 'localhost:9090', maxRecvMsgSize: 10 * 1024 * 1024, maxSendMsgSize: 2 ** 31 - 1, maxOpenConnections: 1000, idleTimeoutS: 120, httpThread: true },
    jsonRpc: { enable: true, address: '127.0.0.1:8545', wsAddress: '127.0.0.1:8546', api: ['eth', 'net', 'web3'], maxOpenConnections: 1000, httpTimeoutMs: 30_000, httpIdleTimeoutMs: 120_000, httpThread: true },
    stateSync: { snapshotInterval: 0, snapshotKeepRecent: 2 },
    cache: { storeBuckets: defaultCommitMultiStoreOptions.bucketCacheSize, indexCounters: defaultIndexerOptions.countCacheSize, recentBlockResults: DEFAULT_RECENT_RESPONSES, restResponses: defaultApiOptions.answerCacheEntries, grpcResponses: 10_000, jsonRpcResponses: 10_000, rpcResponses: 10_000 },
    memory: { heapGrowingPercent: 0, releaseIdleSeconds: 10 },
  };
}

/** "1s", "500ms", "1m30s", "0s" → milliseconds (Go duration syntax, the units config files use). */
export function parseDurationMs(value: string, key: string): number {
  const text = value.trim();
  const nanos = /^[+-]/.test(text) ? undefined : parseGoDurationNanos(text);
  if (nanos === undefined) {
    throw new TokendError('CONFIG_INVALID', `invalid duration "${value}" for ${key}`, { hint: 'use Go duration syntax, e.g. 1s, 500ms, 1m30s' });
  }
  return Math.round(Number(nanos) / 1e6);
}

export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

type Table = Record<string, unknown>;

function readToml(path: string): Table {
  if (!existsSync(path)) return {};
  try {
    return parseToml(readFileSync(path, 'utf8')) as Table;
  } catch (err) {
    throw new TokendError('CONFIG_INVALID', `cannot parse ${path}: ${(err as Error).message.split('\n')[0]}`, { hint: 'fix the file, or move it away to use defaults' });
  }
}

class Reader {
  constructor(
    private readonly table: Table,
    private readonly file: string,
    private readonly section = '',
  ) {}
  sub(name: string): Reader {
    const value = this.table[name];
    return new Reader(value && typeof value === 'object' ? (value as Table) : {}, this.file, this.section ? `${this.section}.${name}` : name);
  }
  private where(key: string): string {
    return `${this.file}: ${this.section ? `${this.section}.` : ''}${key}`;
  }
  str(key: string, fallback: string): string {
    const value = this.table[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string') throw new TokendError('CONFIG_INVALID', `${this.where(key)} must be a string`);
    return value;
  }
  int(key: string, fallback: number): number {
    const value = this.table[key];
    if (value === undefined) return fallback;
    const n = typeof value === 'bigint' ? Number(value) : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new TokendError('CONFIG_INVALID', `${this.where(key)} must be a non-negative integer`);
    return n;
  }
  bool(key: string, fallback: boolean): boolean {
    const value = this.table[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw new TokendError('CONFIG_INVALID', `${this.where(key)} must be true or false`);
    return value;
  }
  duration(key: string, fallbackMs: number): number {
    const value = this.table[key];
    if (value === undefined) return fallbackMs;
    return parseDurationMs(String(value), this.where(key));
  }
  strings(key: string, fallback: string[]): string[] {
    const value = this.table[key];
    if (value === undefined) return fallback;
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new TokendError('CONFIG_INVALID', `${this.where(key)} must be a list of strings`);
    return value as string[];
  }
}

export function configTomlPath(home: string): string {
  return join(configDir(home), 'config.toml');
}

export function appTomlPath(home: string): string {
  return join(configDir(home), 'app.toml');
}

/** Resolve a config path relative to home (CometBFT semantics). */
export function homePath(home: string, path: string): string {
  return isAbsolute(path) ? path : join(home, path);
}

export function loadNodeConfig(home: string): NodeConfig {
  const path = configTomlPath(home);
  const d = defaultNodeConfig();
  const root = new Reader(readToml(path), 'config.toml');
  const rpc = root.sub('rpc');
  const p2p = root.sub('p2p');
  const mempool = root.sub('mempool');
  const consensus = root.sub('consensus');
  const txIndex = root.sub('tx_index');
  const blockSync = root.sub('blocksync');
  const stateSync = root.sub('statesync');
  const instrumentation = root.sub('instrumentation');
  const logFormat = root.str('log_format', d.logFormat);
  if (logFormat !== 'plain' && logFormat !== 'json') throw new TokendError('CONFIG_INVALID', `config.toml: log_format must be plain or json`);
  const indexer = txIndex.str('indexer', d.txIndex.indexer);
  if (indexer !== 'kv' && indexer !== 'null') throw new TokendError('CONFIG_INVALID', `config.toml: tx_index.indexer must be kv or null`);
  return {
    moniker: root.str('moniker', d.moniker),
    logLevel: root.str('log_level', d.logLevel),
    logFormat,
    genesisFile: root.str('genesis_file', d.genesisFile),
    privValidatorKeyFile: root.str('priv_validator_key_file', d.privValidatorKeyFile),
    privValidatorStateFile: root.str('priv_validator_state_file', d.privValidatorStateFile),
    nodeKeyFile: root.str('node_key_file', d.nodeKeyFile),
    rpc: {
      laddr: rpc.str('laddr', d.rpc.laddr),
      unsafe: rpc.bool('unsafe', d.rpc.unsafe),
      corsAllowedOrigins: rpc.strings('cors_allowed_origins', d.rpc.corsAllowedOrigins),
      corsAllowedMethods: rpc.strings('cors_allowed_methods', d.rpc.corsAllowedMethods),
      corsAllowedHeaders: rpc.strings('cors_allowed_headers', d.rpc.corsAllowedHeaders),
      maxOpenConnections: rpc.int('max_open_connections', d.rpc.maxOpenConnections),
      maxBodyBytes: rpc.int('max_body_bytes', d.rpc.maxBodyBytes),
      maxHeaderBytes: rpc.int('max_header_bytes', d.rpc.maxHeaderBytes),
      maxRequestBatchSize: rpc.int('max_request_batch_size', d.rpc.maxRequestBatchSize),
      timeoutBroadcastTxCommitMs: rpc.duration('timeout_broadcast_tx_commit', d.rpc.timeoutBroadcastTxCommitMs),
      timeoutReadMs: rpc.duration('timeout_read', d.rpc.timeoutReadMs),
      timeoutIdleMs: rpc.duration('timeout_idle', d.rpc.timeoutIdleMs),
      maxSubscriptionClients: rpc.int('max_subscription_clients', d.rpc.maxSubscriptionClients),
      maxSubscriptionsPerClient: rpc.int('max_subscriptions_per_client', d.rpc.maxSubscriptionsPerClient),
      subscriptionBufferSize: rpc.int('experimental_subscription_buffer_size', d.rpc.subscriptionBufferSize),
      closeOnSlowClient: rpc.bool('experimental_close_on_slow_client', d.rpc.closeOnSlowClient),
      httpThread: rpc.bool('http_thread', d.rpc.httpThread),
    },
    p2p: {
      ...d.p2p,
      laddr: p2p.str('laddr', d.p2p.laddr),
      externalAddress: p2p.str('external_address', d.p2p.externalAddress),
      seeds: p2p.str('seeds', d.p2p.seeds),
      persistentPeers: p2p.str('persistent_peers', d.p2p.persistentPeers),
      addrBookFile: p2p.str('addr_book_file', d.p2p.addrBookFile),
      addrBookStrict: p2p.bool('addr_book_strict', d.p2p.addrBookStrict),
      maxNumInboundPeers: p2p.int('max_num_inbound_peers', d.p2p.maxNumInboundPeers),
      maxNumOutboundPeers: p2p.int('max_num_outbound_peers', d.p2p.maxNumOutboundPeers),
      unconditionalPeerIds: p2p.str('unconditional_peer_ids', d.p2p.unconditionalPeerIds),
      persistentPeersMaxDialPeriodMs: p2p.duration('persistent_peers_max_dial_period', d.p2p.persistentPeersMaxDialPeriodMs),
      flushThrottleTimeoutMs: p2p.duration('flush_throttle_timeout', d.p2p.flushThrottleTimeoutMs),
      maxPacketMsgPayloadSize: p2p.int('max_packet_msg_payload_size', d.p2p.maxPacketMsgPayloadSize),
      sendRate: p2p.int('send_rate', d.p2p.sendRate),
      recvRate: p2p.int('recv_rate', d.p2p.recvRate),
      pex: p2p.bool('pex', d.p2p.pex),
      seedMode: p2p.bool('seed_mode', d.p2p.seedMode),
      privatePeerIds: p2p.str('private_peer_ids', d.p2p.privatePeerIds),
      allowDuplicateIp: p2p.bool('allow_duplicate_ip', d.p2p.allowDuplicateIp),
      handshakeTimeoutMs: p2p.duration('handshake_timeout', d.p2p.handshakeTimeoutMs),
      dialTimeoutMs: p2p.duration('dial_timeout', d.p2p.dialTimeoutMs),
    },
    blockSync: { enable: blockSync.bool('enable', d.blockSync.enable) },
    stateSync: {
      enable: stateSync.bool('enable', d.stateSync.enable),
      rpcServers: stateSync
        .str('rpc_servers', '')
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
      trustHeight: stateSync.int('trust_height', d.stateSync.trustHeight),
      trustHash: stateSync.str('trust_hash', d.stateSync.trustHash),
      trustPeriodMs: stateSync.duration('trust_period', d.stateSync.trustPeriodMs),
      discoveryTimeMs: stateSync.duration('discovery_time', d.stateSync.discoveryTimeMs),
      chunkRequestTimeoutMs: stateSync.duration('chunk_request_timeout', d.stateSync.chunkRequestTimeoutMs),
      chunkFetchers: stateSync.int('chunk_fetchers', d.stateSync.chunkFetchers),
    },
    mempool: {
      size: mempool.int('size', d.mempool.size),
      maxTxsBytes: mempool.int('max_txs_bytes', d.mempool.maxTxsBytes),
      maxTxBytes: mempool.int('max_tx_bytes', d.mempool.maxTxBytes),
      cacheSize: mempool.int('cache_size', d.mempool.cacheSize),
      keepInvalidTxsInCache: mempool.bool('keep-invalid-txs-in-cache', d.mempool.keepInvalidTxsInCache),
      recheck: mempool.bool('recheck', d.mempool.recheck),
      broadcast: mempool.bool('broadcast', d.mempool.broadcast),
      durable: mempool.bool('durable', d.mempool.durable),
    },
    consensus: {
      ...d.consensus,
      walFile: consensus.str('wal_file', d.consensus.walFile ?? 'data/cs.wal/wal'),
      timeoutProposeMs: consensus.duration('timeout_propose', d.consensus.timeoutProposeMs),
      timeoutProposeDeltaMs: consensus.duration('timeout_propose_delta', d.consensus.timeoutProposeDeltaMs),
      timeoutPrevoteMs: consensus.duration('timeout_prevote', d.consensus.timeoutPrevoteMs),
      timeoutPrevoteDeltaMs: consensus.duration('timeout_prevote_delta', d.consensus.timeoutPrevoteDeltaMs),
      timeoutPrecommitMs: consensus.duration('timeout_precommit', d.consensus.timeoutPrecommitMs),
      timeoutPrecommitDeltaMs: consensus.duration('timeout_precommit_delta', d.consensus.timeoutPrecommitDeltaMs),
      timeoutCommitMs: consensus.duration('timeout_commit', d.consensus.timeoutCommitMs),
      skipTimeoutCommit: consensus.bool('skip_timeout_commit', d.consensus.skipTimeoutCommit),
      createEmptyBlocks: consensus.bool('create_empty_blocks', d.consensus.createEmptyBlocks),
      createEmptyBlocksIntervalMs: consensus.duration('create_empty_blocks_interval', d.consensus.createEmptyBlocksIntervalMs),
      doubleSignCheckHeight: consensus.int('double_sign_check_height', d.consensus.doubleSignCheckHeight),
    },
    txIndex: { indexer },
    instrumentation: {
      prometheus: instrumentation.bool('prometheus', d.instrumentation.prometheus),
      prometheusListenAddr: instrumentation.str('prometheus_listen_addr', d.instrumentation.prometheusListenAddr),
    },
  };
}

/** Namespaces of `[json-rpc] api` / `--json-rpc.api` (Ethermint's names, comma-separated). */
export const JSON_RPC_NAMESPACES = ['eth', 'net', 'web3', 'txpool', 'debug', 'personal', 'miner'];

export function parseJsonRpcApi(value: string, where: string): string[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !JSON_RPC_NAMESPACES.includes(name));
  if (unknown.length > 0) throw new TokendError('CONFIG_INVALID', `${where}: unknown namespace ${unknown.join(', ')} (known: ${JSON_RPC_NAMESPACES.join(', ')})`);
  return [...new Set(names)];
}

export function loadAppConfig(home: string): AppConfig {
  const d = defaultAppConfig();
  const root = new Reader(readToml(appTomlPath(home)), 'app.toml');
  const api = root.sub('api');
  const grpc = root.sub('grpc');
  const jsonRpc = root.sub('json-rpc');
  const stateSync = root.sub('state-sync');
  const cache = root.sub('cache');
  const memory = root.sub('memory');
  return {
    minimumGasPrices: root.str('minimum-gas-prices', d.minimumGasPrices),
    pruning: root.str('pruning', d.pruning),
    pruningKeepRecent: root.int('pruning-keep-recent', d.pruningKeepRecent),
    pruningInterval: root.int('pruning-interval', d.pruningInterval),
    haltHeight: root.int('halt-height', d.haltHeight),
    indexEvents: root.strings('index-events', d.indexEvents),
    api: {
      enable: api.bool('enable', d.api.enable),
      address: api.str('address', d.api.address),
      maxOpenConnections: api.int('max-open-connections', d.api.maxOpenConnections),
      enabledUnsafeCors: api.bool('enabled-unsafe-cors', d.api.enabledUnsafeCors),
      rpcReadTimeoutS: api.int('rpc-read-timeout', d.api.rpcReadTimeoutS),
      rpcWriteTimeoutS: api.int('rpc-write-timeout', d.api.rpcWriteTimeoutS),
      rpcMaxBodyBytes: api.int('rpc-max-body-bytes', d.api.rpcMaxBodyBytes),
      idleTimeoutS: api.int('idle-timeout', d.api.idleTimeoutS),
      httpThread: api.bool('http-thread', d.api.httpThread),
    },
    grpc: {
      enable: grpc.bool('enable', d.grpc.enable),
      address: grpc.str('address', d.grpc.address),
      maxRecvMsgSize: grpc.int('max-recv-msg-size', d.grpc.maxRecvMsgSize),
      maxSendMsgSize: grpc.int('max-send-msg-size', d.grpc.maxSendMsgSize),
      maxOpenConnections: grpc.int('max-open-connections', d.grpc.maxOpenConnections),
      idleTimeoutS: grpc.int('idle-timeout', d.grpc.idleTimeoutS),
      httpThread: grpc.bool('http-thread', d.grpc.httpThread),
    },
    jsonRpc: {
      enable: jsonRpc.bool('enable', d.jsonRpc.enable),
      address: jsonRpc.str('address', d.jsonRpc.address),
      wsAddress: jsonRpc.str('ws-address', d.jsonRpc.wsAddress),
      api: parseJsonRpcApi(jsonRpc.str('api', d.jsonRpc.api.join(',')), 'app.toml: json-rpc.api'),
      maxOpenConnections: jsonRpc.int('max-open-connections', d.jsonRpc.maxOpenConnections),
      httpTimeoutMs: jsonRpc.duration('http-timeout', d.jsonRpc.httpTimeoutMs),
      httpIdleTimeoutMs: jsonRpc.duration('http-idle-timeout', d.jsonRpc.httpIdleTimeoutMs),
      httpThread: jsonRpc.bool('http-thread', d.jsonRpc.httpThread),
    },
    stateSync: {
      snapshotInterval: stateSync.int('snapshot-interval', d.stateSync.snapshotInterval),
      snapshotKeepRecent: stateSync.int('snapshot-keep-recent', d.stateSync.snapshotKeepRecent),
    },
    cache: {
      storeBuckets: cache.int('store-buckets', d.cache.storeBuckets),
      indexCounters: cache.int('index-counters', d.cache.indexCounters),
      recentBlockResults: cache.int('recent-block-results', d.cache.recentBlockResults),
      restResponses: cache.int('rest-responses', d.cache.restResponses),
      grpcResponses: cache.int('grpc-responses', d.cache.grpcResponses),
      jsonRpcResponses: cache.int('json-rpc-responses', d.cache.jsonRpcResponses),
      rpcResponses: cache.int('rpc-responses', d.cache.rpcResponses),
    },
    memory: {
      heapGrowingPercent: memory.int('heap-growing-percent', d.memory.heapGrowingPercent),
      releaseIdleSeconds: memory.int('release-idle-seconds', d.memory.releaseIdleSeconds),
    },
  };
}

export function renderConfigToml(config: NodeConfig): string {
  const q = (value: string): string => JSON.stringify(value);
  const c = config.consensus;
  const p = config.p2p;
  const s = config.stateSync;
  return `# tokend node configuration (consensus engine). Names and meanings follow CometBFT's config.toml.

# A custom human readable name for this node
moniker = ${q(config.moniker)}

# Output level for logging: trace | debug | info | warn | error
log_level = ${q(config.logLevel)}
# Output format: plain | json
log_format = ${q(config.logFormat)}

# Paths are relative to the home directory unless absolute.
genesis_file = ${q(config.genesisFile)}
priv_validator_key_file = ${q(config.privValidatorKeyFile)}
priv_validator_state_file = ${q(config.privValidatorStateFile)}
node_key_file = ${q(config.nodeKeyFile)}

[rpc]
# TCP address for the consensus RPC server to listen on
laddr = ${q(config.rpc.laddr)}
# Origins a browser may call from ([] disables CORS; ["*"] allows any)
cors_allowed_origins = [${config.rpc.corsAllowedOrigins.map(q).join(', ')}]
cors_allowed_methods = [${config.rpc.corsAllowedMethods.map(q).join(', ')}]
cors_allowed_headers = [${config.rpc.corsAllowedHeaders.map(q).join(', ')}]
# Connections (HTTP and websocket) open at once; at the cap the oldest idle one is closed for a
# new one (0 = unlimited; lowered at start, with a warning, to fit the descriptor limit)
max_open_connections = ${config.rpc.maxOpenConnections}
# Largest request body (and websocket message) in bytes
max_body_bytes = ${config.rpc.maxBodyBytes}
max_header_bytes = ${config.rpc.maxHeaderBytes}
# Requests in one JSON-RPC batch (0 = unlimited)
max_request_batch_size = ${config.rpc.maxRequestBatchSize}
# How long broadcast_tx_commit waits for the tx to be committed
timeout_broadcast_tx_commit = ${q(formatDurationMs(config.rpc.timeoutBroadcastTxCommitMs))}
# Time to receive a whole request (headers and body)
timeout_read = ${q(formatDurationMs(config.rpc.timeoutReadMs))}
# An idle connection (keep-alive, or never sending a request) is closed after this
timeout_idle = ${q(formatDurationMs(config.rpc.timeoutIdleMs))}
max_subscription_clients = ${config.rpc.maxSubscriptionClients}
max_subscriptions_per_client = ${config.rpc.maxSubscriptionsPerClient}
# Events queued per websocket client before it counts as slow
experimental_subscription_buffer_size = ${config.rpc.subscriptionBufferSize}
# Cancel a slow client's subscriptions (false: drop its events)
experimental_close_on_slow_client = ${config.rpc.closeOnSlowClient}
# tokend: the server's HTTP side (connections, request parsing, websocket frames) off the main
# thread, on the servers' front thread; a repeated abci_query of the latest state (app.toml [cache] rpc-responses) is then
# answered without waiting for the block being executed
http_thread = ${config.rpc.httpThread}

# Only with unsafe = true does the RPC serve dial_seeds, dial_peers and unsafe_flush_mempool
unsafe = ${config.rpc.unsafe}

[p2p]
# Address to listen for incoming connections
laddr = ${q(p.laddr)}
# Address to advertise to peers for them to dial ("" = laddr)
external_address = ${q(p.externalAddress)}
# Comma separated list of seed nodes to connect to (id@host:port)
seeds = ${q(p.seeds)}
# Comma separated list of nodes to keep persistent connections to (id@host:port)
persistent_peers = ${q(p.persistentPeers)}
addr_book_file = ${q(p.addrBookFile)}
# Set true for strict address routability rules; false for private or local networks
addr_book_strict = ${p.addrBookStrict}
max_num_inbound_peers = ${p.maxNumInboundPeers}
# Maximum number of outbound peers to connect to, excluding persistent peers
max_num_outbound_peers = ${p.maxNumOutboundPeers}
# Node IDs to (re)connect to regardless of the limits
unconditional_peer_ids = ${q(p.unconditionalPeerIds)}
# Maximum pause when redialing a persistent peer (0 = exponential backoff)
persistent_peers_max_dial_period = ${q(formatDurationMs(p.persistentPeersMaxDialPeriodMs))}
flush_throttle_timeout = ${q(formatDurationMs(p.flushThrottleTimeoutMs))}
max_packet_msg_payload_size = ${p.maxPacketMsgPayloadSize}
# Rate at which packets can be sent / received, in bytes/second
send_rate = ${p.sendRate}
recv_rate = ${p.recvRate}
# Peer exchange
pex = ${p.pex}
# Seed mode: crawl the network for peers, answer address requests and disconnect
seed_mode = ${p.seedMode}
# Comma separated list of peer IDs to keep private (never gossiped to other peers)
private_peer_ids = ${q(p.privatePeerIds)}
allow_duplicate_ip = ${p.allowDuplicateIp}
handshake_timeout = ${q(formatDurationMs(p.handshakeTimeoutMs))}
dial_timeout = ${q(formatDurationMs(p.dialTimeoutMs))}

[mempool]
recheck = ${config.mempool.recheck}
size = ${config.mempool.size}
max_txs_bytes = ${config.mempool.maxTxsBytes}
max_tx_bytes = ${config.mempool.maxTxBytes}
cache_size = ${config.mempool.cacheSize}
keep-invalid-txs-in-cache = ${config.mempool.keepInvalidTxsInCache}
# Gossip txs to peers
broadcast = ${config.mempool.broadcast}
# Keep txs accepted by CheckTx on disk until committed or evicted: re-checked and gossiped again
# after a restart (also after kill -9); evictions are reported by \`tx\` with the reason
durable = ${config.mempool.durable}

[statesync]
# Restore the app from a peer's snapshot instead of replaying every block (a new node only).
# rpc_servers (at least two, comma separated) verify trust_height / trust_hash as a light client.
enable = ${s.enable}
rpc_servers = ${q(s.rpcServers.join(','))}
trust_height = ${s.trustHeight}
trust_hash = ${q(s.trustHash)}
trust_period = ${q(formatDurationMs(s.trustPeriodMs))}
discovery_time = ${q(formatDurationMs(s.discoveryTimeMs))}
chunk_request_timeout = ${q(formatDurationMs(s.chunkRequestTimeoutMs))}
chunk_fetchers = ${s.chunkFetchers}

[blocksync]
# Download missing blocks from peers before joining consensus
enable = ${config.blockSync.enable}

[consensus]
wal_file = ${q(c.walFile ?? 'data/cs.wal/wal')}
timeout_propose = ${q(formatDurationMs(c.timeoutProposeMs))}
timeout_propose_delta = ${q(formatDurationMs(c.timeoutProposeDeltaMs))}
timeout_prevote = ${q(formatDurationMs(c.timeoutPrevoteMs))}
timeout_prevote_delta = ${q(formatDurationMs(c.timeoutPrevoteDeltaMs))}
timeout_precommit = ${q(formatDurationMs(c.timeoutPrecommitMs))}
timeout_precommit_delta = ${q(formatDurationMs(c.timeoutPrecommitDeltaMs))}
# How long to wait after committing a block before starting the next height
timeout_commit = ${q(formatDurationMs(c.timeoutCommitMs))}
skip_timeout_commit = ${c.skipTimeoutCommit}
# false: only make a block when there are txs (or after an app hash change)
create_empty_blocks = ${c.createEmptyBlocks}
create_empty_blocks_interval = ${q(formatDurationMs(c.createEmptyBlocksIntervalMs))}
double_sign_check_height = ${c.doubleSignCheckHeight}

[tx_index]
# kv: index txs and events for tx_search / block_search; null: no indexing
indexer = ${q(config.txIndex.indexer)}

[instrumentation]
prometheus = ${config.instrumentation.prometheus}
prometheus_listen_addr = ${q(config.instrumentation.prometheusListenAddr)}
`;
}

export function renderAppToml(config: AppConfig): string {
  const q = (value: string): string => JSON.stringify(value);
  return `# tokend application configuration. Names and meanings follow the Cosmos SDK's app.toml.

# The minimum gas prices a validator accepts for a tx in CheckTx, e.g. "0.25attotoken"
minimum-gas-prices = ${q(config.minimumGasPrices)}

# default: keep the last 362880 states, prune every 10 blocks
# nothing: keep every state (archive node)
# everything: keep the last 2 states, prune every 10 blocks
# custom: use pruning-keep-recent and pruning-interval
pruning = ${q(config.pruning)}
pruning-keep-recent = "${config.pruningKeepRecent}"
pruning-interval = "${config.pruningInterval}"

# Stop the node after committing this height (0 = never)
halt-height = ${config.haltHeight}

# Event types to index (empty = all)
index-events = [${config.indexEvents.map(q).join(', ')}]

[api]
# The REST gateway
enable = ${config.api.enable}
address = ${q(config.api.address)}
# Connections open at once; at the cap the oldest idle one is closed for a new one (0 = unlimited;
# lowered at start, with a warning, to fit the descriptor limit)
max-open-connections = ${config.api.maxOpenConnections}
# Access-Control-Allow-Origin: * on every answer, preflight requests answered
enabled-unsafe-cors = ${config.api.enabledUnsafeCors}
# Seconds to receive a whole request / to write a whole answer (0 = no limit)
rpc-read-timeout = ${config.api.rpcReadTimeoutS}
rpc-write-timeout = ${config.api.rpcWriteTimeoutS}
# Largest request body in bytes
rpc-max-body-bytes = ${config.api.rpcMaxBodyBytes}
# Seconds after which an idle connection is closed
idle-timeout = ${config.api.idleTimeoutS}
# Serve the connections off the main thread, on the servers' front thread: an answer kept for
# the latest state ([cache] rest-responses) is then given without waiting for the block being executed
http-thread = ${config.api.httpThread}

[grpc]
enable = ${config.grpc.enable}
address = ${q(config.grpc.address)}
# Largest request / response message in bytes
max-recv-msg-size = "${config.grpc.maxRecvMsgSize}"
max-send-msg-size = "${config.grpc.maxSendMsgSize}"
# Connections open at once; at the cap the oldest idle one is closed for a new one (0 = unlimited;
# lowered at start, with a warning, to fit the descriptor limit)
max-open-connections = ${config.grpc.maxOpenConnections}
# Seconds after which a connection with no call in progress is closed
idle-timeout = ${config.grpc.idleTimeoutS}
# tokend: connections and unary calls off the main thread, on the servers' front thread; a
# repeated query of the latest state (see [cache] grpc-responses) is then answered without waiting for the block being executed
http-thread = ${config.grpc.httpThread}

[json-rpc]
# The Ethereum JSON-RPC server
enable = ${config.jsonRpc.enable}
address = ${q(config.jsonRpc.address)}
ws-address = ${q(config.jsonRpc.wsAddress)}
# Namespaces served, comma-separated: eth, net, web3 (Ethermint's default), txpool and debug (tracing)
api = ${q(config.jsonRpc.api.join(','))}
# Most open HTTP connections (0: as many as the descriptor limit allows); at the cap the oldest
# idle one is closed for a new client
max-open-connections = ${config.jsonRpc.maxOpenConnections}
# Time to read a whole request and write its answer
http-timeout = ${q(formatDurationMs(config.jsonRpc.httpTimeoutMs))}
# An HTTP connection with no request in progress is closed after this
http-idle-timeout = ${q(formatDurationMs(config.jsonRpc.httpIdleTimeoutMs))}
# Serve the HTTP connections off the main thread, on the servers' front thread: a result kept for
# the latest state ([cache] json-rpc-responses) is then given without waiting for the block being executed
http-thread = ${config.jsonRpc.httpThread}

[state-sync]
# Take a state-sync snapshot every snapshot-interval blocks (0 disables snapshots)
snapshot-interval = ${config.stateSync.snapshotInterval}
# Number of recent snapshots to keep
snapshot-keep-recent = ${config.stateSync.snapshotKeepRecent}

[cache]
# tokend's in-memory caches, each bounded to this many entries (0 = no cache); what the node keeps
# in memory does not grow with the blocks or txs it has seen beyond these. The decoded-tx and
# verified-signature caches are sized from config.toml [mempool] size (2 × size, at least 1000).
# Decoded state buckets kept per module store (about 0.6 KB each at 3 keys; the last 2 read are
# kept even at 0)
store-buckets = ${config.cache.storeBuckets}
# Event attribute counters kept by the tx indexer and by the block indexer (each)
index-counters = ${config.cache.indexCounters}
# Decoded FinalizeBlock responses of the latest heights (block_results, receipts, the indexer)
recent-block-results = ${config.cache.recentBlockResults}
# Answers of the REST gateway's GET queries of the latest state, by URL, each up to 64 KiB; all are
# dropped when a block is committed, so an answer is never older than the state it shows
rest-responses = ${config.cache.restResponses}
# Answers of gRPC unary queries of the latest state (no x-cosmos-block-height), by method and
# request, each up to 64 KiB; dropped the same way
grpc-responses = ${config.cache.grpcResponses}
# Results of Ethereum JSON-RPC state reads at the latest block (eth_getBalance, eth_call,
# eth_blockNumber, …; never "pending"), by method and params; dropped at the next block
json-rpc-responses = ${config.cache.jsonRpcResponses}
# Answers of CometBFT RPC abci_query calls of the latest state (POST by method and params, GET by
# URL), each up to 64 KiB; dropped at the next block
rpc-responses = ${config.cache.rpcResponses}

[memory]
# How far the JS heap may grow past what a full collection left live before the next one, in
# percent (V8's heap growing factor 1 + percent/100). 0 = V8's own choice, which under sustained
# load lets the heap reach about 4× its live size (given back about a minute after the load);
# e.g. 30 keeps it near 1.3× at the cost of more frequent collections (more CPU)
heap-growing-percent = ${config.memory.heapGrowingPercent}
# After a write load, once no transaction has arrived for this many seconds, collect the JS heap
# fully and return the allocator's free pages to the system (malloc_trim), so the node's memory
# comes back near where it started instead of waiting for V8. One pause of tens of milliseconds per
# quiet spell, none while transactions flow. 0 = never
release-idle-seconds = ${config.memory.releaseIdleSeconds}
`;
}
