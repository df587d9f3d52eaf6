/**
 * The LevelDB block indexer (CometBFT state/indexer/block/kv): finalize_block_events attributes
 * marked index:true → heights, searched by `block_search` (block.height is the reserved height tag).
 */
import type { AbciEvent } from '../abci/types.js';
import { nullLogger, type Logger } from '../logger.js';
import type { Database } from '../store/db/database.js';
import { Bucket } from '../store/db/buckets.js';
import { AttributeIndex, attributeId, type StagedCounts } from './attributeIndex.js';
import { IndexerError } from './errors.js';
import { bucketHeightKey, decodeBlockEvents, decodeMeta, encodeBlockEvents, encodeMeta, metaKey, readU64, u64, type IndexMeta } from './keys.js';
import type { SearchOptions, SearchPage } from './paging.js';
import type { Query } from './query.js';
import { planQuery, searchPage, type SearchTarget } from './search.js';
import type { IndexBatch } from './txIndex.js';
import type { BlockIndexer, IndexedRange } from './types.js';

const MAX_COMPOSITE_KEY_BYTES = 0xffff;

export class KvBlockIndexer implements BlockIndexer {
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
    this.meta = decodeMeta(db.getSync(metaKey('block')));
    this.attributes = new AttributeIndex(db, Bucket.blockIndexEvent, Bucket.blockIndexEventCount, countCacheSize);
    this.target = {
      heightTag: 'block.height',
      eventNames: ['NewBlock', 'NewBlockHeader', 'NewBlockEvents'],
      attributes: this.attributes,
      range: () => this.meta,
      loadEvents: (pos) => {
        const raw = this.db.getSync(bucketHeightKey(Bucket.blockIndexByHeight, readU64(pos, 0)));
        return raw ? decodeBlockEvents(raw) : undefined;
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

  has(height: number): boolean {
    return this.db.getSync(bucketHeightKey(Bucket.blockIndexByHeight, height)) !== undefined;
  }

  /** Heights are indexed without gaps when count spans earliest..latest (then windows are arithmetic). */
  private contiguous(): boolean {
    return this.meta.count === this.meta.latest - this.meta.earliest + 1;
  }

  /** Stage block `height`'s finalize_block_events (call for every height in order). */
  stageBlock(height: number, events: readonly AbciEvent[], batch: IndexBatch): void {
    if (this.meta.latest !== 0 && height <= this.meta.latest) {
      throw new IndexerError('OUT_OF_ORDER', `block index is at height ${this.meta.latest}; cannot index height ${height} again`);
    }
    const ops = batch.ops;
    const staged: StagedCounts = new Map();
    const pos = u64(height);
    const indexed: AbciEvent[] = [];
    const seen = new Set<string>();
    for (const event of events) {
      if (!event.type) continue;
      const attributes = event.attributes.filter((a) => a.key && a.index);
      if (attributes.length === 0) continue;
      indexed.push({ type: event.type, attributes });
      for (const attr of attributes) {
        const compositeKey = `${event.type}.${attr.key}`;
        if (compositeKey === 'block.height') {
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
    ops.push({ type: 'put', key: bucketHeightKey(Bucket.blockIndexByHeight, height), value: encodeBlockEvents(indexed) });
    this.attributes.countOps(staged, ops);
    const meta: IndexMeta = { earliest: this.meta.earliest || height, latest: height, count: this.meta.count + 1 };
    ops.push({ type: 'put', key: metaKey('block'), value: encodeMeta(meta) });
    batch.onCommit.push(() => {
      this.attributes.commit(staged);
      this.meta = meta;
    });
  }

  async search(query: Query, options: SearchOptions): Promise<SearchPage<number>> {
    const plan = planQuery(query, this.target);
    const { total, positions } = await searchPage(this.target, plan, options);
    return { total, items: positions.map((pos) => readU64(pos, 0)) };
  }

  private async countHeightWindow(from: number, to: number): Promise<number> {
    if (this.contiguous()) return Math.max(0, to - from + 1);
    let n = 0;
    for await (const _key of this.db.keys({ gte: bucketHeightKey(Bucket.blockIndexByHeight, from), lt: bucketHeightKey(Bucket.blockIndexByHeight, to + 1) })) n++;
    return n;
  }

  private async scanHeightWindow(from: number, to: number, reverse: boolean, skip: number, limit: number): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    if (this.contiguous()) {
      for (let i = 0; i < limit; i++) {
        const h = reverse ? to - skip - i : from + skip + i;
        if (h < from || h > to) break;
        out.push(u64(h));
      }
      return out;
    }
    let skipped = 0;
    const range = {
      gte: bucketHeightKey(Bucket.blockIndexByHeight, from),
      lt: bucketHeightKey(Bucket.blockIndexByHeight, to + 1),
      reverse,
      ...(skip + limit < 1e12 ? { limit: skip + limit } : {}),
    };
    for await (const key of this.db.keys(range)) {
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(key.slice(1, 9));
      if (out.length >= limit) break;
    }
    return out;
  }
}

/** `tx_index.indexer = "null"`: block_search answers "block indexing is disabled". */
export class NullBlockIndexer implements BlockIndexer {
  readonly enabled = false;

  indexedRange(): IndexedRange {
    return { earliest: 0, latest: 0, count: 0 };
  }

  has(): boolean {
    return false;
  }

  async search(): Promise<SearchPage<number>> {
    throw new IndexerError('DISABLED', 'block indexing is disabled');
  }
}
