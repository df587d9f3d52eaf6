/**
 * The consensus subsystem's entry point for the node's composition root.
 *
 *   const consensus = await createConsensus({ db, app, genesis, privValidator, nodeKey, options, logger });
 *   await consensus.start();   // handshake with the app, WAL replay, then the BFT loop
 *   … consensus.blockStore / stateStore / mempool / eventBus / status() for the RPC …
 *   await consensus.stop();
 */
import type { Application } from '../abci/types.js';
import type { Database } from '../store/db/database.js';
import { ConsensusError } from './errors.js';
import { EventBus, type EventBusReader } from './events.js';
import { childLogger, nullLogger, type Logger } from '../logger.js';
import { Mempool, type MempoolReader } from './mempool/mempool.js';
import { MempoolStore } from './mempool/store.js';
import { defaultConsensusOptions, defaultMempoolOptions, type ConsensusOptions, type MempoolOptions } from './options.js';
import type { NodeKey, PrivValidator } from './privval.js';
import { BlockExecutor } from './state/execution.js';
import { ConsensusEngine, type RoundStateSummary } from './state/engine.js';
import { makeGenesisState, type ChainState } from './state/chainState.js';
import { handshake } from './state/handshake.js';
import { FileWAL, NullWAL, type WAL } from './state/wal.js';
import { BlockStore, type BlockStoreReader } from './store/blockStore.js';
import { StateStore, type StateStoreReader } from './store/stateStore.js';
import { ConsensusReactor } from './reactor.js';
import { MempoolReactor } from './mempool/reactor.js';
import { BlocksyncReactor } from './blocksync/reactor.js';
import type { Reactor } from '../p2p/switch.js';
import { EvidencePool } from './evidence/pool.js';
import { EvidenceReactor } from './evidence/reactor.js';
import { StateSyncReactor } from './statesync/reactor.js';
import { BlockFetcher } from './blockFetcher.js';
import type { Block, BlockId } from './types/block.js';
import { LightClient, RpcProvider } from './statesync/lightClient.js';
import type { SnapshotApplication } from '../abci/types.js';
import { fromHex, bytesEqual as bytesEq } from './types/bytes.js';
import { EMPTY_BYTES } from './types/bytes.js';
import type { GenesisDoc } from './types/genesis.js';
import type { PubKey } from './types/keys.js';
import { assertVoteExtensionsDisabled } from './types/params.js';
import { UNIX_EPOCH, type Timestamp } from './types/time.js';

export interface ConsensusConfig {
  db: Database;
  app: Application;
  genesis: GenesisDoc;
  /** Absent on a non-validator (full) node. */
  privValidator?: PrivValidator;
  nodeKey?: NodeKey;
  options?: Partial<ConsensusOptions>;
  mempoolOptions?: Partial<MempoolOptions>;
  logger?: Logger;
  /**
   * The p2p switch to register the consensus, mempool and block-sync reactors with (a P2PNode);
   * absent: a node without peers.
   */
  p2p?: { addReactor(reactor: Reactor): void; peerIds(): string[] };
  /** Download missing blocks from peers before joining consensus (config.toml [blocksync] enable). */
  blockSync?: boolean;
  /** [mempool] broadcast: gossip txs to peers (default true). */
  mempoolBroadcast?: boolean;
  /** [mempool] durable: keep accepted txs in the database until committed or evicted (default false here; the node's config turns it on). */
  durableMempool?: boolean;
  /** The app's snapshot connection (serving snapshots to peers, restoring from one). */
  snapshots?: SnapshotApplication;
  /** config.toml [statesync]: restore a new node from a peer's snapshot. */
  stateSync?: {
    enable: boolean;
    rpcServers: string[];
    trustHeight: number;
    trustHash: string;
    trustPeriodMs: number;
    discoveryTimeMs: number;
    chunkRequestTimeoutMs: number;
    chunkFetchers: number;
  };
  /** Decoded FinalizeBlock responses the state store keeps (app.toml [cache] recent-block-results). */
  recentBlockResults?: number;
  /** Overrides `options.walFile` (tests inject a MemoryWAL). */
  wal?: WAL;
  /** Called if consensus halts on an unrecoverable error (app failure, corrupted store). */
  onFailure?: (err: Error) => void;
}

export interface ValidatorInfo {
  address: Uint8Array;
  pubKey: PubKey;
  /** 0 when this node's key is not in the current validator set. */
  votingPower: bigint;
}

/** What `status` shows (sync_info + validator_info); hashes are empty and time is the epoch before block 1. */
export interface ConsensusStatus {
  chainId: string;
  nodeId: string | undefined;
  latestBlockHash: Uint8Array;
  latestAppHash: Uint8Array;
  latestBlockHeight: number;
  latestBlockTime: Timestamp;
  earliestBlockHash: Uint8Array;
  earliestAppHash: Uint8Array;
  earliestBlockHeight: number;
  earliestBlockTime: Timestamp;
  catchingUp: boolean;
  validatorInfo: ValidatorInfo | undefined;
}

export interface Consensus {
  /** Handshake with the app (InitChain or block replay), WAL replay, then run the BFT loop. */
  start(): Promise<void>;
  /** Stop after the current step; flushes the WAL. The app is not closed. */
  stop(): Promise<void>;
  readonly genesis: GenesisDoc;
  readonly blockStore: BlockStoreReader;
  readonly stateStore: StateStoreReader;
  readonly mempool: MempoolReader;
  readonly eventBus: EventBusReader;
  status(): ConsensusStatus;
  /** The current height/round/step (consensus_state); undefined before start. */
  roundState(): RoundStateSummary | undefined;
  /** The latest committed chain state. */
  chainState(): ChainState;
  /** IDs of connected peers (net_info). */
  peers(): string[];
  /** Pending and committed duplicate-vote evidence. */
  readonly evidencePool: EvidencePool;
  /** The consensus reactor (peer round states; undefined without p2p). */
  readonly reactor: ConsensusReactor | undefined;
  /** A block below the local base, fetched from peers and verified (undefined without p2p). */
  fetchBlock?(height: number): Promise<{ block: Block; blockId: BlockId }>;
  /** Block sync progress: syncing, and the best height peers reported. */
  syncInfo(): { syncing: boolean; maxPeerHeight: number };
  /** Set when consensus halted on an unrecoverable error. */
  readonly failure: Error | undefined;
  /** The node cannot commit (storage fault): the mempool refuses new txs with `reason`. */
  refuseNewTxs(reason: string): void;
}

class ConsensusNode implements Consensus {
  readonly blockStore: BlockStore;
  readonly stateStore: StateStore;
  readonly mempool: Mempool;
  readonly eventBus: EventBus;
  private engine: ConsensusEngine | undefined;
  private wal: WAL | undefined;
  private state: ChainState;
  private readonly options: ConsensusOptions;
  private readonly logger: Logger;
  private haltError: Error | undefined;
  readonly reactor: ConsensusReactor | undefined;
  private readonly mempoolReactor: MempoolReactor | undefined;
  private readonly blocksync: BlocksyncReactor | undefined;
  private readonly statesync: StateSyncReactor | undefined;
  private readonly fetcher: BlockFetcher | undefined;
  readonly evidencePool: EvidencePool;
  private executor: BlockExecutor | undefined;
  private syncing = false;
  private stopped = false;

  constructor(private readonly config: ConsensusConfig) {
    this.logger = config.logger ?? nullLogger;
    this.options = { ...defaultConsensusOptions, ...config.options };
    this.blockStore = new BlockStore(config.db);
    this.stateStore = new StateStore(config.db, config.recentBlockResults);
    this.eventBus = new EventBus(childLogger(this.logger, { module: 'events' }));
    this.mempool = new Mempool(config.app, config.mempoolOptions, childLogger(this.logger, { module: 'mempool' }), config.durableMempool ? new MempoolStore(config.db) : undefined);
    const stored = this.stateStore.load();
    if (stored && stored.chainId !== config.genesis.chainId) {
      throw new ConsensusError('INVALID_GENESIS', `genesis chain_id "${config.genesis.chainId}" does not match the stored chain "${stored.chainId}"`, {
        hint: 'use the genesis file this node was initialised with, or another --home',
      });
    }
    assertVoteExtensionsDisabled(config.genesis.consensusParams);
    this.state = stored ?? makeGenesisState(config.genesis);
    this.mempool.setHeight(this.state.lastBlockHeight);
    this.evidencePool = new EvidencePool(config.db, this.blockStore, this.stateStore, childLogger(this.logger, { module: 'evidence' }));
    if (config.p2p) {
      this.reactor = new ConsensusReactor(
        this.blockStore,
        { waitSync: true, onConflictingVotes: (a, b) => this.evidencePool.reportConflictingVotes(a, b) },
        childLogger(this.logger, { module: 'consensus-reactor' }),
      );
      this.mempoolReactor = new MempoolReactor(
        this.mempool,
        { broadcast: config.mempoolBroadcast ?? true, maxTxBytes: { ...defaultMempoolOptions, ...config.mempoolOptions }.maxTxBytes },
        childLogger(this.logger, { module: 'mempool' }),
      );
      this.blocksync = new BlocksyncReactor(
        {
          blockStore: this.blockStore,
          executor: {
            validateBlock: (state, block) => this.requireExecutor().validateBlock(state, block),
            applyBlock: (state, blockId, block) => this.requireExecutor().applyBlock(state, blockId, block),
          } as BlockExecutor,
          localAddress: config.privValidator?.address,
          onCaughtUp: (state) => void this.switchToConsensus(state),
          onBlockApplied: (state) => {
            this.state = state;
          },
          onFailure: (err) => this.fail(err),
        },
        childLogger(this.logger, { module: 'blocksync' }),
      );
      config.p2p.addReactor(this.reactor);
      config.p2p.addReactor(this.mempoolReactor);
      config.p2p.addReactor(this.blocksync);
      this.fetcher = new BlockFetcher(this.blockStore, this.blocksync);
      config.p2p.addReactor(new EvidenceReactor(this.evidencePool, childLogger(this.logger, { module: 'evidence' })));
      this.statesync = new StateSyncReactor(config.snapshots, childLogger(this.logger, { module: 'statesync' }));
      config.p2p.addReactor(this.statesync);
    }
  }

  private requireExecutor(): BlockExecutor {
    if (!this.executor) throw new ConsensusError('STORE', 'consensus is not started');
    return this.executor;
  }

  private fail(err: Error): void {
    this.haltError = err;
    this.logger.error('CONSENSUS FAILURE!!!', { err: err.message });
    this.config.onFailure?.(err);
  }

  refuseNewTxs(reason: string): void {
    this.mempool.refuseNewTxs(reason);
  }

  fetchBlock(height: number): Promise<{ block: Block; blockId: BlockId }> {
    if (!this.fetcher) return Promise.reject(new ConsensusError('STORE', `height ${height} is not available and this node has no peers`));
    return this.fetcher.fetch(height);
  }

  syncInfo(): { syncing: boolean; maxPeerHeight: number } {
    return { syncing: this.syncing, maxPeerHeight: this.blocksync?.maxPeerBlockHeight ?? 0 };
  }

  /** True when this node is the only validator (no one to sync from: CometBFT disables block sync). */
  private onlyValidatorIsUs(state: ChainState): boolean {
    const pv = this.config.privValidator;
    if (!pv || state.validators.size !== 1) return false;
    return state.validators.hasAddress(pv.address);
  }

  get genesis(): GenesisDoc {
    return this.config.genesis;
  }

  get failure(): Error | undefined {
    return this.haltError ?? this.engine?.failure;
  }

  async start(): Promise<void> {
    if (this.engine?.isRunning) return;
    const logger = childLogger(this.logger, { module: 'consensus' });
    const ss = this.config.stateSync;
    if (ss?.enable && this.state.lastBlockHeight === 0 && this.statesync && !this.onlyValidatorIsUs(this.state)) {
      if (this.stateStore.load() === undefined && this.blockStore.height() === 0) {
        await this.startStateSync(ss, logger);
        return;
      }
      logger.info('found local state with non-zero height, skipping state sync');
    }
    const result = await handshake(this.state, {
      app: this.config.app,
      blockStore: this.blockStore,
      stateStore: this.stateStore,
      genesis: this.config.genesis,
      eventBus: this.eventBus,
      logger,
    });
    this.state = result.state;
    // The app is at the latest state: txs the durable mempool kept are re-checked and admitted again.
    this.mempool.setHeight(this.state.lastBlockHeight);
    await this.mempool.restore();
    await this.evidencePool.load(this.state);
    this.openWalAndExecutor(logger);
    const blockSync = this.config.blockSync ?? true;
    if (this.blocksync && this.reactor && blockSync && !this.onlyValidatorIsUs(this.state)) {
      this.syncing = true;
      this.blocksync.startSync(this.state);
      logger.info('consensus waits for block sync', { height: this.state.lastBlockHeight, chainId: this.state.chainId });
      return;
    }
    await this.startEngine(this.state);
    logger.info('consensus started', { height: this.engine?.height, chainId: this.state.chainId });
  }

  /** The consensus WAL (the configured one, a file, or none) and the block executor over the stores. */
  private openWalAndExecutor(logger: Logger): void {
    this.wal =
      this.config.wal ??
      (this.options.walFile
        ? new FileWAL(this.options.walFile, { maxBytes: this.options.walMaxBytes, flushIntervalMs: this.options.walFlushIntervalMs, onFault: (err) => this.fail(err) }, childLogger(this.logger, { module: 'wal' }))
        : new NullWAL());
    this.executor = new BlockExecutor({
      app: this.config.app,
      blockStore: this.blockStore,
      stateStore: this.stateStore,
      mempool: this.mempool,
      eventBus: this.eventBus,
      evidencePool: this.evidencePool,
      logger,
    });
  }

  /**
   * State sync: check the trust options against the RPC servers now (a wrong trust_hash refuses
   * the start before anything is written), then restore in the background and block sync the rest.
   */
  private async startStateSync(ss: NonNullable<ConsensusConfig['stateSync']>, logger: Logger): Promise<void> {
    if (ss.rpcServers.length < 2) {
      throw new ConsensusError('INVALID_GENESIS', `config.toml statesync.rpc_servers needs at least two servers (a primary and a witness), got ${ss.rpcServers.length}`);
    }
    if (ss.trustHeight <= 0) throw new ConsensusError('INVALID_GENESIS', 'config.toml statesync.trust_height must be set (> 0) to enable state sync');
    let trustHash: Uint8Array;
    try {
      trustHash = fromHex(ss.trustHash);
    } catch {
      throw new ConsensusError('INVALID_GENESIS', `config.toml statesync.trust_hash "${ss.trustHash}" is not hex`);
    }
    if (trustHash.length !== 32) throw new ConsensusError('INVALID_GENESIS', `config.toml statesync.trust_hash must be 32 bytes of hex, got ${trustHash.length}`);
    const [primary, ...witnesses] = ss.rpcServers.map((url) => new RpcProvider(url));
    const lightClient = new LightClient(this.state.chainId, primary!, witnesses, { height: ss.trustHeight, hash: trustHash, periodMs: ss.trustPeriodMs });
    await lightClient.initialize();
    logger.info('state sync: trusted header verified', { height: ss.trustHeight, hash: ss.trustHash.toUpperCase(), rpc: primary!.url });
    this.openWalAndExecutor(logger);
    this.syncing = true;
    void (async (): Promise<void> => {
      try {
        const { state, commit } = await this.statesync!.sync(lightClient, this.state.chainId, this.state.initialHeight, ss);
        const info = await this.config.app.info({ version: '', blockVersion: 11n, p2pVersion: 8n, abciVersion: '2.0.0' });
        if (info.lastBlockHeight !== state.lastBlockHeight || !bytesEq(info.lastBlockAppHash, state.appHash)) {
          throw new ConsensusError('HANDSHAKE', `statesync: the app reports height ${info.lastBlockHeight} after the restore, expected ${state.lastBlockHeight} with the verified app hash`);
        }
        await this.stateStore.bootstrap(state);
        await this.blockStore.saveSeenCommit(state.lastBlockHeight, commit);
        await this.evidencePool.load(state);
        this.state = state;
        this.mempool.setHeight(state.lastBlockHeight);
        logger.info('state sync complete', { height: state.lastBlockHeight, appHash: Buffer.from(state.appHash).toString('hex').toUpperCase() });
        if (this.stopped) return;
        if (this.blocksync && (this.config.blockSync ?? true)) this.blocksync.startSync(state);
        else await this.switchToConsensus(state);
      } catch (err) {
        if (!this.stopped) this.fail(err as Error);
      }
    })();
  }

  /** Block sync is done: run the BFT engine from `state` (SwitchToConsensus). */
  private async switchToConsensus(state: ChainState): Promise<void> {
    if (this.stopped) return;
    this.state = state;
    this.syncing = false;
    try {
      await this.startEngine(state);
      this.logger.info('switched to consensus', { module: 'consensus', height: state.lastBlockHeight + 1 });
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private async startEngine(state: ChainState): Promise<void> {
    const engine = new ConsensusEngine({
      app: this.config.app,
      state,
      blockStore: this.blockStore,
      stateStore: this.stateStore,
      executor: this.requireExecutor(),
      mempool: this.mempool,
      eventBus: this.eventBus,
      wal: this.wal!,
      privValidator: this.config.privValidator,
      options: this.options,
      logger: childLogger(this.logger, { module: 'consensus' }),
      onFailure: (err) => {
        this.haltError = err;
        this.config.onFailure?.(err);
      },
    });
    this.engine = engine;
    this.reactor?.setEngine(engine);
    await engine.start();
    this.reactor?.switchToConsensus(engine);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.blocksync?.stop();
    this.statesync?.stop();
    if (this.engine) {
      this.state = this.engine.state;
      await this.engine.stop();
    }
    this.mempool.close();
    if (this.wal && !this.config.wal) this.wal.close();
  }

  chainState(): ChainState {
    return this.engine?.state ?? this.state;
  }

  roundState(): RoundStateSummary | undefined {
    return this.engine?.roundStateSummary();
  }

  peers(): string[] {
    return this.config.p2p?.peerIds() ?? [];
  }

  status(): ConsensusStatus {
    const state = this.chainState();
    const latestHeight = this.blockStore.height();
    const earliestHeight = this.blockStore.base();
    const latest = latestHeight ? this.blockStore.loadBlockMeta(latestHeight) : undefined;
    const earliest = earliestHeight ? this.blockStore.loadBlockMeta(earliestHeight) : undefined;
    let validatorInfo: ValidatorInfo | undefined;
    const pv = this.config.privValidator;
    if (pv) {
      const validators = this.engine?.validators ?? state.validators;
      const [, val] = validators.getByAddress(pv.address);
      validatorInfo = { address: pv.address, pubKey: pv.pubKey, votingPower: val?.votingPower ?? 0n };
    }
    return {
      chainId: state.chainId,
      nodeId: this.config.nodeKey?.id,
      latestBlockHash: latest?.blockId.hash ?? EMPTY_BYTES,
      latestAppHash: latest?.header.appHash ?? EMPTY_BYTES,
      latestBlockHeight: latest ? latestHeight : 0,
      latestBlockTime: latest?.header.time ?? UNIX_EPOCH,
      earliestBlockHash: earliest?.blockId.hash ?? EMPTY_BYTES,
      earliestAppHash: earliest?.header.appHash ?? EMPTY_BYTES,
      earliestBlockHeight: earliest ? earliestHeight : 0,
      earliestBlockTime: earliest?.header.time ?? UNIX_EPOCH,
      catchingUp: this.syncing,
      validatorInfo,
    };
  }
}

/** Build the consensus subsystem over `db` (opens the stores; `start()` does the handshake). */
export async function createConsensus(config: ConsensusConfig): Promise<Consensus> {
  return new ConsensusNode(config);
}

export type { BlockStoreReader, StateStoreReader, MempoolReader, EventBusReader, RoundStateSummary, ChainState };
export { defaultConsensusOptions, defaultMempoolOptions } from './options.js';
export type { ConsensusOptions, MempoolOptions } from './options.js';
export { FilePV, loadOrGenerateNodeKey, loadNodeKey, generateNodeKey, saveNodeKey, nodeIdFromPubKey } from './privval.js';
export type { PrivValidator, NodeKey } from './privval.js';
export { parseGenesisDoc, loadGenesisFile } from './types/genesis.js';
export type { GenesisDoc } from './types/genesis.js';
export { ConsensusReactor } from './reactor.js';
export type { Logger } from '../logger.js';
export { ConsensusError } from './errors.js';
