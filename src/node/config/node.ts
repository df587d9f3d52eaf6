/**
 * Node configuration files: `<home>/config/config.toml` (consensus engine, CometBFT names) and
 * `<home>/config/app.toml` (application, Cosmos SDK names). This is the one place where the files
 * map onto each subsystem's options; every key has a default, so a missing key (or file) means
 * the default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { TokendError } from '../../util/errors.js';
import { defaultConsensusOptions, defaultMempoolOptions, type ConsensusOptions, type MempoolOptions } from '../consensus/options.js';
import { configDir } from './home.js';

export interface NodeConfig {
  moniker: string;
  logLevel: string;
  logFormat: 'plain' | 'json';
  genesisFile: string;
  privValidatorKeyFile: string;
  privValidatorStateFile: string;
  nodeKeyFile: string;
  rpc: { laddr: string; maxBodyBytes: number; timeoutBroadcastTxCommitMs: number; maxSubscriptionClients: number; maxSubscriptionsPerClient: number };
  p2p: { laddr: string; persistentPeers: string; seeds: string };
  mempool: MempoolOptions;
  consensus: ConsensusOptions;
  txIndex: { indexer: 'kv' | 'null' };
  instrumentation: { prometheus: boolean; prometheusListenAddr: string };
}

export interface AppConfig {
  minimumGasPrices: string;
  pruning: string;
  pruningKeepRecent: number;
  pruningInterval: number;
  haltHeight: number;
  indexEvents: string[];
  api: { enable: boolean; address: string; maxOpenConnections: number };
  grpc: { enable: boolean; address: string };
  jsonRpc: { enable: boolean; address: string; wsAddress: string };
}

export function defaultNodeConfig(moniker = 'node'): NodeConfig {
  return {
    moniker,
    logLevel: 'info',
    logFormat: 'plain',
    genesisFile: 'config/genesis.json',
    privValidatorKeyFile: 'config/priv_validator_key.json',
    privValidatorStateFile: 'data/priv_validator_state.json',
    nodeKeyFile: 'config/node_key.json',
    rpc: { laddr: 'tcp://127.0.0.1:26657', maxBodyBytes: 1_000_000, timeoutBroadcastTxCommitMs: 10_000, maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5 },
    p2p: { laddr: 'tcp://0.0.0.0:26656', persistentPeers: '', seeds: '' },
    mempool: { ...defaultMempoolOptions },
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
    api: { enable: true, address: 'tcp://localhost:1317', maxOpenConnections: 1000 },
    grpc: { enable: true, address: 'localhost:9090' },
    jsonRpc: { enable: true, address: '127.0.0.1:8545', wsAddress: '127.0.0.1:8546' },
  };
}

/** "1s", "500ms", "1m30s", "0s" → milliseconds (Go duration syntax, the units config files use). */
export function parseDurationMs(value: string, key: string): number {
  const text = value.trim();
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  const factors: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    total += Number(match[1]) * factors[match[2]!]!;
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || text.length === 0) {
    throw new TokendError('CONFIG_INVALID', `invalid duration "${value}" for ${key}`, { hint: 'use Go duration syntax, e.g. 1s, 500ms, 1m30s' });
  }
  return Math.round(total);
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
      maxBodyBytes: rpc.int('max_body_bytes', d.rpc.maxBodyBytes),
      timeoutBroadcastTxCommitMs: rpc.duration('timeout_broadcast_tx_commit', d.rpc.timeoutBroadcastTxCommitMs),
      maxSubscriptionClients: rpc.int('max_subscription_clients', d.rpc.maxSubscriptionClients),
      maxSubscriptionsPerClient: rpc.int('max_subscriptions_per_client', d.rpc.maxSubscriptionsPerClient),
    },
    p2p: { laddr: p2p.str('laddr', d.p2p.laddr), persistentPeers: p2p.str('persistent_peers', d.p2p.persistentPeers), seeds: p2p.str('seeds', d.p2p.seeds) },
    mempool: {
      size: mempool.int('size', d.mempool.size),
      maxTxsBytes: mempool.int('max_txs_bytes', d.mempool.maxTxsBytes),
      maxTxBytes: mempool.int('max_tx_bytes', d.mempool.maxTxBytes),
      cacheSize: mempool.int('cache_size', d.mempool.cacheSize),
      keepInvalidTxsInCache: mempool.bool('keep-invalid-txs-in-cache', d.mempool.keepInvalidTxsInCache),
      recheck: mempool.bool('recheck', d.mempool.recheck),
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

export function loadAppConfig(home: string): AppConfig {
  const d = defaultAppConfig();
  const root = new Reader(readToml(appTomlPath(home)), 'app.toml');
  const api = root.sub('api');
  const grpc = root.sub('grpc');
  const jsonRpc = root.sub('json-rpc');
  return {
    minimumGasPrices: root.str('minimum-gas-prices', d.minimumGasPrices),
    pruning: root.str('pruning', d.pruning),
    pruningKeepRecent: root.int('pruning-keep-recent', d.pruningKeepRecent),
    pruningInterval: root.int('pruning-interval', d.pruningInterval),
    haltHeight: root.int('halt-height', d.haltHeight),
    indexEvents: root.strings('index-events', d.indexEvents),
    api: { enable: api.bool('enable', d.api.enable), address: api.str('address', d.api.address), maxOpenConnections: api.int('max-open-connections', d.api.maxOpenConnections) },
    grpc: { enable: grpc.bool('enable', d.grpc.enable), address: grpc.str('address', d.grpc.address) },
    jsonRpc: { enable: jsonRpc.bool('enable', d.jsonRpc.enable), address: jsonRpc.str('address', d.jsonRpc.address), wsAddress: jsonRpc.str('ws-address', d.jsonRpc.wsAddress) },
  };
}

export function renderConfigToml(config: NodeConfig): string {
  const q = (value: string): string => JSON.stringify(value);
  const c = config.consensus;
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
max_body_bytes = ${config.rpc.maxBodyBytes}
# How long broadcast_tx_commit waits for the tx to be committed
timeout_broadcast_tx_commit = ${q(formatDurationMs(config.rpc.timeoutBroadcastTxCommitMs))}
max_subscription_clients = ${config.rpc.maxSubscriptionClients}
max_subscriptions_per_client = ${config.rpc.maxSubscriptionsPerClient}

[p2p]
laddr = ${q(config.p2p.laddr)}
persistent_peers = ${q(config.p2p.persistentPeers)}
seeds = ${q(config.p2p.seeds)}

[mempool]
recheck = ${config.mempool.recheck}
size = ${config.mempool.size}
max_txs_bytes = ${config.mempool.maxTxsBytes}
max_tx_bytes = ${config.mempool.maxTxBytes}
cache_size = ${config.mempool.cacheSize}
keep-invalid-txs-in-cache = ${config.mempool.keepInvalidTxsInCache}

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
max-open-connections = ${config.api.maxOpenConnections}

[grpc]
enable = ${config.grpc.enable}
address = ${q(config.grpc.address)}

[json-rpc]
# The Ethereum JSON-RPC server
enable = ${config.jsonRpc.enable}
address = ${q(config.jsonRpc.address)}
ws-address = ${q(config.jsonRpc.wsAddress)}
`;
}
