/**
 * Prometheus metrics (config.toml [instrumentation] prometheus, prometheus_listen_addr), with
 * CometBFT's metric names (namespace "cometbft") for the consensus engine, mempool, p2p and state,
 * plus the app's (namespace "tokend"): txs by result code, gas used, query latency by route,
 * commit time, store size, and the node's health (the same answer as /health and /ready).
 *
 *   const metrics = new NodeMetrics({ … readers … });
 *   metrics.observeBlock(event)            // from the consensus NewBlock events
 *   const router = metrics.instrumentRouter(router);   // REST / gRPC query latency
 *   const { url } = await metrics.listen(':26660');
 *
 * prom-client with an own Registry (nothing global); gauges that mirror a live value (height,
 * mempool size, peers, store size, health) are read at scrape time.
 */
import { readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResponseFinalizeBlock } from '../abci/types.js';
import type { Block } from '../consensus/types/block.js';
import { BlockIdFlag } from '../consensus/types/block.js';
import type { HealthReport } from '../health.js';
import type { ConnectionStats } from '../limits/connections.js';
import { nullLogger, type Logger } from '../logger.js';
import type { QueryEntry, QueryRouter } from '../services/types.js';
import { TokendError } from '../../util/errors.js';

export interface MetricsReaders {
  chainId: string;
  height(): number;
  round(): number;
  validators(): { count: number; power: bigint };
  mempool(): { size: number; bytes: number };
  peers(): number;
  syncing(): boolean;
  health(): HealthReport;
  /** Directory whose files make up the store (the node's data/tokend.db). */
  storeDir: string;
  /** Each server's connections against its cap. */
  connections?(): Record<string, ConnectionStats>;
}

/** The block sizes and times CometBFT's histograms use (seconds). */
const BLOCK_INTERVAL_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const MS_BUCKETS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

function dirSize(dir: string): number {
  let total = 0;
  try {
    for (const name of readdirSync(dir)) {
      try {
        total += statSync(join(dir, name)).size;
      } catch {
        // a file removed by a compaction meanwhile
      }
    }
  } catch {
    return 0;
  }
  return total;
}

export class NodeMetrics {
  readonly registry = new Registry();
  private lastBlockTimeMs: number | undefined;
  private server: Server | undefined;
  private readonly blockInterval: Histogram;
  private readonly blockSize: Gauge;
  private readonly numTxs: Gauge;
  private readonly totalTxs: Counter;
  private readonly missingValidators: Gauge;
  private readonly missingValidatorsPower: Gauge;
  private readonly byzantineValidators: Gauge;
  private readonly latestBlockHeight: Gauge;
  readonly failedTxs: Counter;
  readonly recheckTimes: Counter;
  readonly blockProcessingTime: Histogram;
  private readonly txsByCode: Counter;
  private readonly gasUsed: Counter;
  private readonly queryDuration: Histogram;
  readonly commitDuration: Histogram;

  constructor(
    private readonly readers: MetricsReaders,
    private readonly logger: Logger = nullLogger,
  ) {
    const r = [this.registry];
    const labels = { chain_id: readers.chainId };
    this.registry.setDefaultLabels(labels);
    const live = (name: string, help: string, read: () => number): void => {
      new Gauge({ name, help, registers: r, collect(): void {
        this.set(read());
      } });
    };
    // ---- consensus (CometBFT names)
    live('cometbft_consensus_height', 'Height of the chain.', () => readers.height());
    live('cometbft_consensus_rounds', 'Number of rounds at the current height.', () => readers.round());
    live('cometbft_consensus_validators', 'Number of validators.', () => readers.validators().count);
    live('cometbft_consensus_validators_power', 'Total voting power of all validators.', () => Number(readers.validators().power));
    live('cometbft_consensus_block_syncing', 'Whether or not a node is block syncing. 1 if yes, 0 if no.', () => (readers.syncing() ? 1 : 0));
    this.missingValidators = new Gauge({ name: 'cometbft_consensus_missing_validators', help: 'Number of validators who did not sign.', registers: r });
    this.missingValidatorsPower = new Gauge({ name: 'cometbft_consensus_missing_validators_power', help: 'Total voting power of the missing validators.', registers: r });
    this.byzantineValidators = new Gauge({ name: 'cometbft_consensus_byzantine_validators', help: 'Number of validators who tried to double sign.', registers: r });
    this.blockInterval = new Histogram({ name: 'cometbft_consensus_block_interval_seconds', help: 'Time between this and the last block.', buckets: BLOCK_INTERVAL_BUCKETS, registers: r });
    this.numTxs = new Gauge({ name: 'cometbft_consensus_num_txs', help: 'Number of transactions.', registers: r });
    this.totalTxs = new Counter({ name: 'cometbft_consensus_total_txs', help: 'Total number of transactions.', registers: r });
    this.blockSize = new Gauge({ name: 'cometbft_consensus_block_size_bytes', help: 'Size of the block.', registers: r });
    this.latestBlockHeight = new Gauge({ name: 'cometbft_consensus_latest_block_height', help: 'The latest block height.', registers: r });
    // ---- mempool, p2p, state
    live('cometbft_mempool_size', 'Number of uncommitted transactions in the mempool.', () => readers.mempool().size);
    live('cometbft_mempool_size_bytes', 'Total size of the mempool in bytes.', () => readers.mempool().bytes);
    this.failedTxs = new Counter({ name: 'cometbft_mempool_failed_txs', help: 'Number of failed transactions.', registers: r });
    this.recheckTimes = new Counter({ name: 'cometbft_mempool_recheck_times', help: 'Number of times transactions are rechecked in the mempool.', registers: r });
    live('cometbft_p2p_peers', 'Number of peers.', () => readers.peers());
    this.blockProcessingTime = new Histogram({ name: 'cometbft_state_block_processing_time', help: 'Time between BeginBlock and EndBlock in ms.', buckets: MS_BUCKETS, registers: r });
    // ---- the app and the node
    this.txsByCode = new Counter({ name: 'tokend_app_txs_total', help: 'Transactions executed in blocks, by result code and codespace.', labelNames: ['code', 'codespace'], registers: r });
    this.gasUsed = new Counter({ name: 'tokend_app_gas_used_total', help: 'Gas used by the transactions executed in blocks.', registers: r });
    this.queryDuration = new Histogram({ name: 'tokend_app_query_duration_seconds', help: 'Query latency (ABCI, REST and gRPC), by route.', labelNames: ['route'], buckets: QUERY_BUCKETS, registers: r });
    this.commitDuration = new Histogram({ name: 'tokend_app_commit_duration_seconds', help: 'Time the app takes to commit a block.', buckets: QUERY_BUCKETS, registers: r });
    live('tokend_store_size_bytes', 'Size of the node database on disk.', () => dirSize(readers.storeDir));
    live('tokend_node_healthy', 'Whether the node can commit (the /health answer). 1 if yes, 0 if no.', () => (readers.health().healthy ? 1 : 0));
    new Gauge({
      name: 'tokend_server_connections',
      help: 'Open client connections per server (rpc, api, grpc).',
      labelNames: ['server'],
      registers: r,
      collect(): void {
        for (const [server, stats] of Object.entries(readers.connections?.() ?? {})) this.set({ server }, stats.open);
      },
    });
    new Gauge({
      name: 'tokend_server_connections_evicted',
      help: 'Idle connections closed to make room for new ones, per server (since start).',
      labelNames: ['server'],
      registers: r,
      collect(): void {
        for (const [server, stats] of Object.entries(readers.connections?.() ?? {})) this.set({ server }, stats.evicted);
      },
    });
    live('tokend_node_ready', 'Whether the node is ready (the /ready answer). 1 if yes, 0 if no.', () => (readers.health().ready ? 1 : 0));
  }

  /** A committed block (the consensus NewBlock event). */
  observeBlock(block: Block, result: ResponseFinalizeBlock, blockSizeBytes: number, validatorPowers: readonly bigint[]): void {
    const header = block.header;
    this.latestBlockHeight.set(header.height);
    this.numTxs.set(block.data.txs.length);
    this.totalTxs.inc(block.data.txs.length);
    this.blockSize.set(blockSizeBytes);
    const timeMs = Number(header.time.seconds) * 1000 + Math.floor(header.time.nanos / 1e6);
    if (this.lastBlockTimeMs !== undefined && timeMs >= this.lastBlockTimeMs) this.blockInterval.observe((timeMs - this.lastBlockTimeMs) / 1000);
    this.lastBlockTimeMs = timeMs;
    let missing = 0;
    let missingPower = 0n;
    block.lastCommit?.signatures.forEach((sig, i) => {
      if (sig.blockIdFlag === BlockIdFlag.Absent) {
        missing++;
        missingPower += validatorPowers[i] ?? 0n;
      }
    });
    this.missingValidators.set(missing);
    this.missingValidatorsPower.set(Number(missingPower));
    this.byzantineValidators.set(block.evidence.length);
    let gas = 0n;
    for (const tx of result.txResults) {
      this.txsByCode.inc({ code: String(tx.code), codespace: tx.codespace });
      gas += tx.gasUsed;
    }
    this.gasUsed.inc(Number(gas));
  }

  observeQuery(route: string, seconds: number): void {
    this.queryDuration.observe({ route }, seconds);
  }

  /** The same router with each entry timed (REST and gRPC query latency by route). */
  instrumentRouter(router: QueryRouter): QueryRouter {
    const wrapped = new Map<string, QueryEntry>();
    const wrap = (entry: QueryEntry): QueryEntry => {
      let out = wrapped.get(entry.path);
      if (!out) {
        const observe = (seconds: number): void => this.observeQuery(entry.path, seconds);
        out = {
          path: entry.path,
          method: entry.method,
          source: entry.source,
          async handle(request, ctx) {
            const started = performance.now();
            try {
              return await entry.handle(request, ctx);
            } finally {
              observe((performance.now() - started) / 1000);
            }
          },
        };
        wrapped.set(entry.path, out);
      }
      return out;
    };
    const instrumented: QueryRouter = {
      entries: () => [...router.entries()].map(wrap),
      lookup: (path) => {
        const entry = router.lookup(path);
        return entry ? wrap(entry) : undefined;
      },
      latestHeight: () => router.latestHeight(),
    };
    if (router.stateHeight !== undefined) instrumented.stateHeight = router.stateHeight.bind(router);
    if (router.watchStateHeight !== undefined) instrumented.watchStateHeight = router.watchStateHeight.bind(router);
    return instrumented;
  }

  /** Serve GET /metrics on `laddr` ("tcp://host:port", "host:port" or ":port" = all interfaces). */
  async listen(laddr: string): Promise<{ host: string; port: number; url: string }> {
    const m = /^(?:tcp:\/\/)?(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(laddr.trim());
    if (!m) throw new TokendError('CONFIG_INVALID', `invalid instrumentation.prometheus_listen_addr "${laddr}"`, { hint: 'use host:port, e.g. :26660 or 127.0.0.1:26660' });
    const host = m[1] ?? (m[2] || '0.0.0.0');
    const server = createServer((req, res) => {
      if ((req.url ?? '/').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 page not found\n');
        return;
      }
      this.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': this.registry.contentType });
          res.end(text);
        },
        (err: Error) => {
          this.logger.error('metrics scrape failed', { err: err.message });
          res.writeHead(500);
          res.end();
        },
      );
    });
    server.maxConnections = 64;
    server.headersTimeout = 10_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new TokendError('CONFIG_INVALID', `cannot listen for Prometheus on ${laddr}: ${err.code === 'EADDRINUSE' ? 'address already in use' : err.message}`, { cause: err })),
      );
      server.listen(Number(m[3]), host, () => resolve());
    });
    server.on('error', (err) => this.logger.warn('Prometheus server error', { err: err.message }));
    this.server = server;
    const port = (server.address() as AddressInfo).port;
    const shown = host.includes(':') ? `[${host}]` : host;
    this.logger.info('Prometheus metrics listening', { addr: `${shown}:${port}` });
    return { host, port, url: `http://${shown}:${port}/metrics` };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
