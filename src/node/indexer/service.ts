/**
 * The indexer service (CometBFT state/txindex/indexer_service.go), with one ordering guarantee
 * CometBFT lacks: a block's events reach subscribers only after that block is indexed.
 *
 *   consensus EventBus ──► IndexerService ──(index NewBlock in one atomic batch)──► relay bus ──► RPC
 *
 * Every consensus event is queued in arrival order. A NewBlock is indexed (its txs and its
 * finalize_block_events, plus the new latest indexed height, in ONE LevelDB batch) before it and
 * everything queued after it is relayed. So when a websocket client sees a Tx event, or
 * broadcast_tx_commit returns, `tx` and `tx_search` already find the tx.
 *
 * Consistency across restarts: the latest indexed height is written in the same batch as the
 * entries, and `start()` (and any gap seen later) re-indexes missing heights from the block store
 * and the stored FinalizeBlock responses, so a crash between commit and indexing loses nothing.
 */
import type { AbciEvent, ExecTxResult } from '../abci/types.js';
import { runSliced } from '../../util/slices.js';
import { TxWaiters, type ConsensusEvent, type EventBusReader, type EventDataTx, type EventListener, type ConsensusEventMap, type ConsensusEventType } from '../consensus/events.js';
import { nullLogger, type Logger } from '../logger.js';
import type { BlockStoreReader } from '../consensus/store/blockStore.js';
import type { StateStoreReader } from '../consensus/store/stateStore.js';
import type { BatchOp, Database, WriteBatch } from '../store/db/database.js';
import { applyOp } from '../store/db/ops.js';
import { KvBlockIndexer, NullBlockIndexer } from './blockIndex.js';
import { IndexerError } from './errors.js';
import { defaultIndexerOptions, type IndexerOptions } from './options.js';
import { KvTxIndexer, NullTxIndexer, type IndexBatch } from './txIndex.js';
import type { BlockIndexer, TxIndexer } from './types.js';

export interface IndexerServiceConfig {
  db: Database;
  blockStore: BlockStoreReader;
  stateStore: StateStoreReader;
  /** The consensus event bus (source of NewBlock and every other event). */
  eventBus: EventBusReader;
  options?: Partial<IndexerOptions>;
  logger?: Logger;
}

/** Longest stretch of staging a block's index entries before the event loop gets a turn. */
const STAGE_SLICE_MS = 4;

/** The relay: an EventBusReader whose events come after indexing. */
class EventRelay implements EventBusReader {
  private readonly listeners = new Set<EventListener>();
  private readonly txWaiters = new TxWaiters((reason, hash) =>
    reason === 'timeout'
      ? new IndexerError('TIMEOUT', 'timed out waiting for tx to be included in a block', { meta: { hash } })
      : new IndexerError('CANCELLED', 'wait for tx cancelled', { meta: { hash } }),
  );

  constructor(private readonly logger: Logger) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  on<K extends ConsensusEventType>(type: K, listener: (data: ConsensusEventMap[K], events: Record<string, string[]>) => void): () => void {
    return this.subscribe((event) => {
      if (event.type === type) listener(event.data as ConsensusEventMap[K], event.events);
    });
  }

  waitForTx(hashHex: string, timeoutMs: number): { promise: Promise<EventDataTx>; cancel: () => void } {
    return this.txWaiters.wait(hashHex, timeoutMs);
  }

  publish(event: ConsensusEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error('event listener failed', { event: event.type, err: (err as Error).message });
      }
    }
    if (event.type === 'Tx' && this.txWaiters.size > 0) {
      const hash = event.events['tx.hash']?.[0];
      if (hash !== undefined) this.txWaiters.deliver(hash, event.data);
    }
  }
}

/** Back-off between retries of a failed indexing (doubling). */
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export class IndexerService {
  readonly txIndexer: TxIndexer;
  readonly blockIndexer: BlockIndexer;
  private readonly kvTx: KvTxIndexer | undefined;
  private readonly kvBlock: KvBlockIndexer | undefined;
  private readonly relay: EventRelay;
  private readonly logger: Logger;
  private readonly queue: ConsensusEvent[] = [];
  private draining: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private catchUpPending = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = RETRY_MIN_MS;
  private indexing: Promise<void> = Promise.resolve();

  constructor(private readonly config: IndexerServiceConfig) {
    const options = { ...defaultIndexerOptions, ...config.options };
    this.logger = config.logger ?? nullLogger;
    this.relay = new EventRelay(this.logger);
    if (options.indexer === 'kv') {
      this.kvTx = new KvTxIndexer(config.db, this.logger, options.countCacheSize);
      this.kvBlock = new KvBlockIndexer(config.db, this.logger, options.countCacheSize);
      this.txIndexer = this.kvTx;
      this.blockIndexer = this.kvBlock;
    } else {
      this.txIndexer = new NullTxIndexer();
      this.blockIndexer = new NullBlockIndexer();
    }
  }

  /** Consensus events, relayed after the block they belong to is indexed. Give this to the RPC. */
  get eventBus(): EventBusReader {
    return this.relay;
  }

  /** Height up to which blocks are indexed (0 when none, or with the null indexer). */
  get latestIndexedHeight(): number {
    return this.kvTx?.indexedRange().latest ?? 0;
  }

  /**
   * Subscribe to the consensus bus (call before consensus starts so no block is missed) and
   * schedule catch-up of heights already in the block store but not indexed.
   */
  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = this.config.eventBus.subscribe((event) => this.enqueue(event));
    if (this.kvTx) {
      this.catchUpPending = true;
      this.kick();
    }
  }

  /** Stop relaying; waits for the block being indexed. */
  async stop(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.queue.length = 0;
    await this.whenIdle();
  }

  /** Resolves when every queued event has been indexed and relayed (tests, shutdown). */
  async whenIdle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private scheduleRetry(): void {
    if (this.retryTimer || !this.unsubscribe) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.unsubscribe) return;
      this.catchUpPending = true;
      this.kick();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAX_MS);
  }

  private enqueue(event: ConsensusEvent): void {
    this.queue.push(event);
    this.kick();
  }

  private kick(): void {
    if (!this.draining) {
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
        if (this.queue.length > 0 || this.catchUpPending) this.kick();
      });
    }
  }

  private async drain(): Promise<void> {
    if (this.catchUpPending) {
      this.catchUpPending = false;
      try {
        await this.catchUp(this.committedHeight());
        this.retryDelayMs = RETRY_MIN_MS;
      } catch (err) {
        this.logger.error('indexing stored blocks failed; retrying', { err: (err as Error).message, retryInMs: this.retryDelayMs });
        this.scheduleRetry();
      }
    }
    let event = this.queue.shift();
    while (event) {
      if (event.type === 'NewBlock' && this.kvTx) {
        const { block, resultFinalizeBlock } = event.data;
        const height = block.header.height;
        try {
          await this.catchUp(height - 1);
          if (height > this.latestIndexedHeight) await this.indexBlock(height, block.data.txs, resultFinalizeBlock.txResults, resultFinalizeBlock.events);
          this.retryDelayMs = RETRY_MIN_MS;
        } catch (err) {
          // Relay anyway; the missing height is re-indexed from the stores by the retry, the next
          // block, a lookup (catchUpIndex) or the next start, whichever comes first.
          this.logger.error('indexing block failed; retrying', { height, err: (err as Error).message, retryInMs: this.retryDelayMs });
          this.scheduleRetry();
        }
      }
      this.relay.publish(event);
      event = this.queue.shift();
    }
  }

  /**
   * Index every stored block not indexed yet, now (lookups call this before answering "not
   * found": a block whose indexing failed is indexed before it is served as found).
   */
  catchUpIndex(): Promise<void> {
    return this.catchUp(this.committedHeight());
  }

  /**
   * The highest height whose state is committed. A block is stored before it is executed and its
   * results before the app commits: indexing it earlier would show a tx (a receipt) while queries
   * still answer from the state before it.
   */
  private committedHeight(): number {
    const stored = this.config.blockStore.height();
    // Caught up with the block store (the usual case for a lookup that finds nothing): no need
    // to read and decode the chain state.
    if (stored <= this.latestIndexedHeight) return stored;
    return Math.min(stored, this.config.stateStore.load()?.lastBlockHeight ?? 0);
  }

  /** Index heights (latest indexed, upTo] from the block store and the stored FinalizeBlock responses. */
  private async catchUp(upTo: number): Promise<void> {
    if (!this.kvTx) return;
    const latest = this.latestIndexedHeight;
    if (upTo <= latest) return;
    const base = this.config.blockStore.base();
    let from = Math.max(latest + 1, base, 1);
    if (latest > 0 && from > latest + 1) {
      this.logger.warn('blocks needed by the indexer were pruned; index has a gap', { indexedUpTo: latest, lowestStored: base });
    }
    if (upTo - from > 0) this.logger.info('indexing stored blocks', { from, to: upTo });
    for (; from <= upTo; from++) {
      const block = this.config.blockStore.loadBlock(from);
      const response = this.config.stateStore.loadFinalizeBlockResponse(from);
      if (!block || !response) {
        this.logger.warn('cannot index height: block or results not stored', { height: from });
        continue;
      }
      await this.indexBlock(from, block.data.txs, response.txResults, response.events);
    }
  }

  /**
   * Index one height: txs and block events in ONE atomic batch with the new latest height.
   * Heights at or below the latest indexed one are skipped (idempotent). Serialised internally.
   */
  indexBlock(height: number, txs: readonly Uint8Array[], txResults: readonly ExecTxResult[], events: readonly AbciEvent[]): Promise<void> {
    const run = async (): Promise<void> => {
      if (!this.kvTx || !this.kvBlock || height <= this.latestIndexedHeight) return;
      const batch: IndexBatch = { ops: [], onCommit: [] };
      // The entries go into the database's own write batch after each tx: staged into one array
      // for the whole block, they outlived the young generation (a block is staged over many
      // slices) and made up about a third of what the node promoted to V8's old space under load.
      const sink = this.config.db.openBatch?.();
      let writing = false;
      try {
        // A big block's txs are staged in slices: queries and sockets get turns in between.
        await runSliced(movingOps(this.kvTx.stageBlockSteps(height, txs, txResults, batch), batch.ops, sink), STAGE_SLICE_MS);
        this.kvBlock.stageBlock(height, events, batch);
        writing = true;
        // No fsync: the latest-height marker lands with the entries, and lost tails are re-indexed on start.
        if (sink) {
          moveOps(batch.ops, sink);
          await sink.write();
        } else {
          await this.config.db.batch(batch.ops);
        }
      } catch (err) {
        if (sink && !writing) await sink.discard().catch(() => undefined);
        throw err;
      }
      for (const apply of batch.onCommit) apply();
    };
    const next = this.indexing.then(run);
    this.indexing = next.catch(() => undefined);
    return next;
  }
}

/** Moves staged operations into a write batch (the array is emptied and reused). */
function moveOps(ops: BatchOp[], sink: WriteBatch): void {
  for (const op of ops) applyOp(op, sink);
  ops.length = 0;
}

/** `steps`, with the operations staged by each step moved into `sink` after it (when there is one). */
function* movingOps<T>(steps: Generator<void, T, void>, ops: BatchOp[], sink: WriteBatch | undefined): Generator<void, T, void> {
  for (;;) {
    const step = steps.next();
    if (sink) moveOps(ops, sink);
    if (step.done === true) return step.value;
    yield;
  }
}
