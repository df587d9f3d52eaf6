/**
 * The LevelDB tx indexer (CometBFT state/txindex/kv, with an ordinal attribute index for paging).
 *
 * Per tx: the record by hash, (height, index) → hash, and one ordinal entry per distinct index:true
 * event attribute. A block's txs are staged into the caller's batch (IndexerService writes the tx
 * and block indexes of one height in ONE atomic batch together with the new latest height).
 */
import type { ExecTxResult } from '../abci/types.js';
import { runToEnd } from '../../util/slices.js';
import { nullLogger, type Logger } from '../logger.js';
import { fromHex, sha256 } from '../consensus/types/bytes.js';
import type { BatchOp, Database } from '../store/db/database.js';
import { Bucket } from '../store/db/buckets.js';
import { AttributeIndex, attributeId, type StagedCounts } from './attributeIndex.js';
import { IndexerError } from './errors.js';
import {
  decodeMeta,
  decodeTxRecord,
  decodeTxRecordEvents,
  encodeMeta,
  encodeTxRecord,
  metaKey,
  readU32,
  readU64,
  txHashKey,
  txHeightKey,
  txPos,
  HASH_BYTES,
  type IndexMeta,
} from './keys.js';
import { pageWindow, type SearchOptions, type SearchPage } from './paging.js';
import type { Condition, Query } from './query.js';
import { planMatches, planQuery, searchPage, type SearchTarget } from './search.js';
import type { IndexedRange, IndexedTx, TxIndexer } from './types.js';

/** Writes of one height, applied atomically by the caller; `onCommit` runs after the write landed. */
export interface IndexBatch {
  ops: BatchOp[];
  onCommit: (() => void)[];
}

const RESERVED_TX_KEYS = new Set(['tx.hash', 'tx.height']);
const MAX_COMPOSITE_KEY_BYTES = 0xffff;
/** Counter writes staged between two pause points at the end of a block (a tx's entries are one step). */
const COUNT_OPS_PER_STEP = 256;

export class KvTxIndexer implements TxIndexer {
  readonly enabled = true;
  private meta: IndexMeta;
  private readonly attributes: AttributeIndex;
  private readonly target: SearchTarget;
  private warnedReserved = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger = nullLogger,
    countCacheSize?: number,
  ) {
    this.meta = decodeMeta(db.getSync(metaKey('tx')));
    this.attributes = new AttributeIndex(db, Bucket.txIndexEvent, Bucket.txIndexEventCount, countCacheSize);
    this.target = {
      heightTag: 'tx.height',
      eventNames: ['Tx'],
      attributes: this.attributes,
      range: () => this.meta,
      loadEvents: (pos) => {
        const raw = this.db.getSync(txHashKey(pos.subarray(12, 12 + HASH_BYTES)));
        return raw ? decodeTxRecordEvents(raw) : undefined;
      },
      countHeightWindow: (from, to) => this.countHeightWindow(from, to),
      scanHeightWindow: (from, to, reverse, skip, limit) => this.scanHeightWindow(from, to, reverse, skip, limit),
    };
  }

  /** Attribute counters held in memory (bounded by the count cache size). */
  get cachedCounters(): number {
    return this.attributes.cachedCounters;
  }

  indexedRange(): IndexedRange {
    return { ...this.meta };
  }

  get(hash: Uint8Array): IndexedTx | undefined {
    if (hash.length === 0) throw new IndexerError('QUERY_SYNTAX', 'transaction hash cannot be empty');
    const raw = this.db.getSync(txHashKey(hash));
    if (!raw) return undefined;
    const record = decodeTxRecord(raw);
    return { hash: hash.slice(), height: record.height, index: record.index, tx: record.tx, result: record.result };
  }

  /** Stage the txs of block `height` (call for every height, also without txs, in height order). */
  stageBlock(height: number, txs: readonly Uint8Array[], results: readonly ExecTxResult[], batch: IndexBatch): void {
    runToEnd(this.stageBlockSteps(height, txs, results, batch));
  }

  /**
   * `stageBlock` as a generator that pauses after each tx, so that a caller can let other work
   * run while a large block is staged (nothing is visible until the batch commits).
   */
  *stageBlockSteps(height: number, txs: readonly Uint8Array[], results: readonly ExecTxResult[], batch: IndexBatch): Generator<void, void, void> {
    if (this.meta.latest !== 0 && height <= this.meta.latest) {
      throw new IndexerError('OUT_OF_ORDER', `tx index is at height ${this.meta.latest}; cannot index height ${height} again`);
    }
    const ops = batch.ops;
    const staged: StagedCounts = new Map();
    const count = Math.min(txs.length, results.length);
    for (let i = 0; i < count; i++) {
      if (i > 0) yield;
      const tx = txs[i]!;
      const result = results[i]!;
      const hash = sha256(tx);
      const hashKey = txHashKey(hash);
      // As CometBFT: a failed re-inclusion of a tx must not hide its earlier successful result.
      let keepExisting = false;
      if (result.code !== 0) {
        const existing = this.db.getSync(hashKey);
        keepExisting = existing !== undefined && decodeTxRecord(existing).result.code === 0;
      }
      if (!keepExisting) ops.push({ type: 'put', key: hashKey, value: encodeTxRecord({ height, index: i, tx, result }) });
      ops.push({ type: 'put', key: txHeightKey(height, i), value: hash });
      const pos = txPos(height, i, hash);
      const seen = new Set<string>();
      for (const event of result.events) {
        if (!event.type) continue;
        for (const attr of event.attributes) {
          if (!attr.key || !attr.index) continue;
          const compositeKey = `${event.type}.${attr.key}`;
          if (RESERVED_TX_KEYS.has(compositeKey)) {
            if (!this.warnedReserved) {
              this.logger.warn('event attribute uses a reserved key; not indexed', { key: compositeKey, height });
              this.warnedReserved = true;
            }
            continue;
          }
          if (Buffer.byteLength(compositeKey) > MAX_COMPOSITE_KEY_BYTES) continue;
          const id = attributeId(compositeKey, attr.value);
          if (seen.has(id)) continue;
          seen.add(id);
          this.attributes.stage(staged, compositeKey, attr.value, id, pos, ops);
        }
      }
    }
    yield* this.attributes.countOpsSteps(staged, ops, COUNT_OPS_PER_STEP);
    const meta: IndexMeta = { earliest: this.meta.earliest || height, latest: height, count: this.meta.count + count };
    ops.push({ type: 'put', key: metaKey('tx'), value: encodeMeta(meta) });
    batch.onCommit.push(() => {
      this.attributes.commit(staged);
      this.meta = meta;
    });
  }

  async search(query: Query, options: SearchOptions): Promise<SearchPage<IndexedTx>> {
    const hashConditions = query.conditions.filter((c) => c.tag === 'tx.hash');
    if (hashConditions.length > 0) return this.searchByHash(query, hashConditions, options);
    const plan = planQuery(query, this.target);
    const { total, positions } = await searchPage(this.target, plan, options);
    const items: IndexedTx[] = [];
    for (const pos of positions) {
      const item = this.get(pos.subarray(12, 12 + HASH_BYTES));
      if (item) items.push(item);
    }
    return { total, items };
  }

  /** tx.hash = 'H' is a direct lookup (as CometBFT), checked against the other conditions. */
  private searchByHash(query: Query, hashConditions: readonly Condition[], options: SearchOptions): SearchPage<IndexedTx> {
    let hash: Uint8Array | undefined;
    for (const cond of hashConditions) {
      if (cond.op !== '=' || !cond.operand) {
        throw new IndexerError('QUERY_SYNTAX', `tx.hash supports only the = operator (got ${cond.toString()})`);
      }
      let decoded: Uint8Array;
      try {
        decoded = fromHex(cond.operand.text);
      } catch (err) {
        throw new IndexerError('QUERY_SYNTAX', `error during searching for a hash in the query: ${(err as Error).message}`);
      }
      if (hash && Buffer.compare(hash, decoded) !== 0) {
        pageWindow(0, options);
        return { total: 0, items: [] };
      }
      hash = decoded;
    }
    const item = this.get(hash!);
    const plan = planQuery(query, this.target, ['tx.hash']);
    const matches = item && planMatches(plan, item.height, item.result.events) ? [item] : [];
    const { skip, size } = pageWindow(matches.length, options);
    return { total: matches.length, items: matches.slice(skip, skip + size) };
  }

  private async countHeightWindow(from: number, to: number): Promise<number> {
    if (from <= this.meta.earliest && to >= this.meta.latest) return this.meta.count;
    let n = 0;
    for await (const _key of this.db.keys({ gte: txHeightKey(from, 0), lt: txHeightKey(to + 1, 0) })) n++;
    return n;
  }

  private async scanHeightWindow(from: number, to: number, reverse: boolean, skip: number, limit: number): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    let skipped = 0;
    const range = { gte: txHeightKey(from, 0), lt: txHeightKey(to + 1, 0), reverse, ...(skip + limit < 1e12 ? { limit: skip + limit } : {}) };
    for await (const [key, hash] of this.db.entries(range)) {
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(txPos(readU64(key, 1), readU32(key, 9), hash));
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** `tx_index.indexer = "null"`: nothing is indexed; searches fail with CometBFT's message. */
export class NullTxIndexer implements TxIndexer {
  readonly enabled = false;

  indexedRange(): IndexedRange {
    return { earliest: 0, latest: 0, count: 0 };
  }

  get(): IndexedTx | undefined {
    return undefined;
  }

  async search(): Promise<SearchPage<IndexedTx>> {
    throw new IndexerError('DISABLED', 'transaction indexing is disabled');
  }
}
