/**
 * The committed multi-store: the application state, versioned and authenticated.
 *
 * Design (details and measurements in README.md):
 *
 *  - Flat index for reads: each store spreads its keys over 2^20 buckets by the top 20 bits of
 *    sha256(key); one LevelDB record holds a whole bucket (`bucket.ts`). A point read at the
 *    latest version is sha256(key) + one `getSync` (or a hit in the decoded-bucket cache) —
 *    never a tree walk.
 *  - History = per (store, bucket, version) a diff of the keys that version changed with their
 *    previous state; each live entry remembers the version that last wrote it, so a read at an
 *    older version follows diffs backwards with `getSync` only.
 *  - Commitment = one IAVL tree per store (`iavl/tree.ts`, cosmos/iavl's shape and hashes), the
 *    block's writes applied sorted by key as the SDK's cache store flushes them; app hash = the
 *    SDK's commitInfo hash over the store roots (`iavl/ics23.ts`). Each commit persists the
 *    nodes it created (`iavl/nodes.ts`), addressed by (version, index): any retained version's
 *    tree is walkable from its root address (ICS23 proofs at old heights), and opening a store
 *    loads only its root — nodes are read on first use, each checked against its children's
 *    hashes, so a crash costs no rebuild.
 *  - Every commit is ONE atomic LevelDB batch: buckets, diffs, key index, changeset, tree
 *    nodes, commit info and the `latest` marker. A crash before the batch lands leaves the
 *    previous version; after, the new one.
 *  - Iteration goes through an ordered key index (storeId ‖ key), async like LevelDB itself.
 *  - Pruning makes old versions unreadable in the commit batch (`earliest`), then deletes their
 *    diffs, changesets and commit infos in small background batches, serialized with commits.
 */
import type { BatchOp, Database } from './db/database.js';
import { applyOp } from './db/ops.js';
import { ByteReader, ByteWriter, EMPTY_BYTES, bytesEqual, compareBytes, concatBytes, prefixEnd, readU64, toHex, u64 } from './bytes.js';
import { BucketData, applyBucketChanges, bucketOf, compareHash, decodeDiff, encodeDiff, findInDiff, insertLive, type BucketChange, type DeadEntry, type DiffRecord, type LiveEntry } from './bucket.js';
import { CacheKVStoreImpl, type CachedWrite } from './cachekv.js';
import { flatten, type ScanVisitor } from './chunks.js';
import { CacheMultiStoreImpl } from './cachemulti.js';
import { StoreError } from './errors.js';
import { HASH_SIZE, sha256 } from './hash.js';
import type { CacheKVStore, CacheMultiStore, CommitId, CommitMultiStore, IteratorOptions, KVEntry, KVStore, KVStoreReader, QueryProof, SnapshotItem } from './interface.js';
import {
  META_EARLIEST,
  META_FIRST,
  META_LATEST,
  META_PRUNED_BELOW,
  META_STORE_PREFIX,
  bucketKey,
  changesetKey,
  commitInfoKey,
  historyKey,
  keyIndexKey,
  keyIndexPrefix,
  indexLiveMarker,
  INDEX_LIVE_WITH_VALUE,
  metaKey,
} from './layout.js';
import { defaultCommitMultiStoreOptions, pruneHeightAfterCommit, validatePruning, type CommitMultiStoreOptions } from './options.js';
import { appHashOf, iavlProofOp, simpleProofOp } from './iavl/ics23.js';
import { NODES_PER_CHUNK, NodeChunkEncoder, NodeReader, chunkCount, chunkNodeCount, deadCountKey, decodeAddresses, nodeChunkKey, orphansKey } from './iavl/nodes.js';
import { IavlTree, type NodeView } from './iavl/tree.js';
import { TimeSlicer, runSliced, runToEnd, yieldToEventLoop } from '../../util/slices.js';

const MAX_STORES = 255;
const EMPTY_BUCKET = BucketData.empty();

interface StoreState {
  readonly name: string;
  readonly id: number;
  readonly tree: IavlTree;
  readonly nodes: NodeReader;
  /** Buckets of the committed state recently read or written. */
  readonly cache: BucketCache;
  readonly committed: CommittedView;
  readonly working: WorkingStore;
}

/** One store's entry in a version's commit info. */
interface StoreCommit {
  name: string;
  root: Uint8Array;
  /** Address of the root node; undefined for an empty tree. */
  rootAddress: { version: number; index: number } | undefined;
  /** Nodes this version created in the store. */
  nodes: number;
}

interface Prepared {
  version: number;
  generation: number;
  roots: [string, Uint8Array][];
  infos: StoreCommit[];
  appHash: Uint8Array;
  earliest: number;
  ops: BatchOp[];
  apply: () => void;
}

/** Statistics for benchmarks and metrics. */
export interface CommitMultiStoreStats {
  treeBytes: number;
  cachedBuckets: number;
  pendingKeys: number;
}

export interface RootMultiStore extends CommitMultiStore {
  stats(): CommitMultiStoreStats;
  /** Root of one store at the latest committed version. */
  storeRoot(name: string): Uint8Array;
  /** Resolve once background pruning has caught up; rethrows a pruning failure. */
  waitForPruning(): Promise<void>;
  /** Resolve once every tree is fully in memory (background warm-up after an open). */
  waitForWarmUp(): Promise<void>;
}

/**
 * Open the application state in `db` at its latest committed version (or empty), registering
 * `options.stores`. Loads each store's tree root and checks it against the stored app hash
 * (nodes below are read on first use).
 */
export async function openCommitMultiStore(db: Database, options: Partial<CommitMultiStoreOptions> & Pick<CommitMultiStoreOptions, 'stores'>): Promise<RootMultiStore> {
  const resolved: CommitMultiStoreOptions = { ...defaultCommitMultiStoreOptions, ...options };
  validatePruning(resolved.pruning);
  const names = [...new Set(resolved.stores)];
  if (names.length !== resolved.stores.length) throw new StoreError('INVALID_OPTIONS', 'store names must be unique');
  for (const name of names) {
    if (name.length === 0 || Buffer.byteLength(name) > 255) throw new StoreError('INVALID_OPTIONS', `invalid store name "${name}"`);
  }
  const store = new RootMultiStoreImpl(db, resolved, names.sort());
  await store.load();
  return store;
}

class RootMultiStoreImpl implements RootMultiStore {
  private readonly stores = new Map<string, StoreState>();
  private latest = 0;
  private earliest = 0;
  private prunedBelow = 0;
  /** The first version ever committed (rolling it back empties the state). */
  private firstVersion = 0;
  private initialVersion = 0;
  private lastHash: Uint8Array = EMPTY_BYTES;
  private lastRoots: [string, Uint8Array][] = [];
  private generation = 0;
  /** Bumped whenever committed bucket data changes (commit, rollback, import): prefetches started before are dropped. */
  private bucketEpoch = 0;
  private prepared: Prepared | undefined;
  private committing = false;
  private closed = false;
  private writeLock: Promise<unknown> = Promise.resolve();
  private pruner: Promise<void> | undefined;
  private prunerError: unknown;
  private readonly latestWatchers = new Set<(version: number) => void>();

  constructor(
    private readonly db: Database,
    private readonly options: CommitMultiStoreOptions,
    private readonly names: string[],
  ) {}

  // ---------------------------------------------------------------- open

  async load(): Promise<void> {
    const db = this.db;
    this.latest = readMetaU64(db, META_LATEST);
    this.earliest = readMetaU64(db, META_EARLIEST);
    this.prunedBelow = readMetaU64(db, META_PRUNED_BELOW);
    this.firstVersion = readMetaU64(db, META_FIRST);

    // Store ids: persisted per name, never reused.
    const ids = new Map<string, number>();
    let maxId = 0;
    const decoder = new TextDecoder();
    for await (const [key, value] of db.entries({ gte: META_STORE_PREFIX, lt: prefixEnd(META_STORE_PREFIX)! })) {
      const name = decoder.decode(key.subarray(META_STORE_PREFIX.length));
      ids.set(name, value[0]!);
      maxId = Math.max(maxId, value[0]!);
    }
    const newIds: BatchOp[] = [];
    for (const name of this.names) {
      if (ids.has(name)) continue;
      if (maxId >= MAX_STORES) throw new StoreError('INVALID_OPTIONS', `too many stores (max ${MAX_STORES})`);
      ids.set(name, ++maxId);
      newIds.push({ type: 'put', key: metaKey(`store:${name}`), value: Uint8Array.of(maxId) });
    }
    if (newIds.length > 0) await db.batch(newIds, { sync: this.options.syncCommits });

    if (this.latest > 0) {
      const committedRoots = this.readCommitInfo(this.latest);
      for (const { name } of committedRoots) {
        if (!this.names.includes(name)) {
          throw new StoreError('CORRUPTED', `store "${name}" is part of committed version ${this.latest} but is not registered`, {
            hint: 'register every module store the chain was started with',
          });
        }
      }
    }

    const committed = this.latest > 0 ? new Map(this.readCommitInfo(this.latest).map((info) => [info.name, info])) : new Map<string, StoreCommit>();
    for (const name of this.names) {
      const id = ids.get(name)!;
      const nodes = new NodeReader(db, name, id);
      const state: StoreState = {
        name,
        id,
        tree: new IavlTree(nodes, this.nextVersion()),
        nodes,
        cache: new BucketCache(this.options.bucketCacheSize),
        committed: undefined as unknown as CommittedView,
        working: undefined as unknown as WorkingStore,
      };
      const view = new CommittedView(this, state);
      Object.assign(state, { committed: view, working: new WorkingStore(view, this) });
      this.stores.set(name, state);
      // The tree: only its root is loaded (and checked against its children's hashes); the
      // rest is read on first use.
      const info = committed.get(name);
      state.tree.reset(info?.rootAddress, this.nextVersion());
      if (info !== undefined) {
        state.tree.preload(this.options.preloadNodes);
        const root = state.tree.committedHash();
        if (!bytesEqual(root, info.root)) {
          throw new StoreError('CORRUPTED', `store ${name} at version ${this.latest}: tree root ${toHex(root)} does not match the committed root ${toHex(info.root)}`, {
            hint: 'the state database is damaged; restore it from a backup or state sync',
          });
        }
      }
    }
    this.lastRoots = [...committed.values()].map((info) => [info.name, info.root]);
    this.lastHash = this.latest > 0 ? appHashOf(this.lastRoots) : EMPTY_BYTES;
    if (this.prunedBelow < this.earliest) this.startPruner();
    this.startWarmUp();
  }

  private warmer: Promise<void> | undefined;

  /** Load the trees' remaining nodes in the background, a slice per event-loop turn. */
  private startWarmUp(): void {
    if (!this.options.warmUp || this.warmer !== undefined || this.closed) return;
    // Small slices: each turn blocks the event loop for a few ms at most (RPC, consensus timers).
    const WARM_UP_SLICE_NODES = 512;
    this.warmer = (async () => {
      try {
        // A store whose pass found nothing left is done: asking it again would start a new pass
        // over its whole tree, so two stores finishing out of step would keep each other busy.
        const pending = new Set(this.stores.values());
        while (pending.size > 0 && !this.closed) {
          for (const state of [...pending]) {
            if (this.closed) break;
            if (!state.tree.warmUp(WARM_UP_SLICE_NODES)) pending.delete(state);
            await yieldToEventLoop();
          }
        }
      } catch {
        // A damaged node: the read that needs it reports it (CORRUPTED); stop warming.
      } finally {
        this.warmer = undefined;
      }
    })();
  }

  async waitForWarmUp(): Promise<void> {
    while (this.warmer !== undefined) await this.warmer;
  }

  // ---------------------------------------------------------------- MultiStore

  private state(name: string): StoreState {
    const state = this.stores.get(name);
    if (state === undefined) {
      throw new StoreError('UNKNOWN_STORE', `unknown store "${name}"`, { hint: `registered stores: ${this.names.join(', ')}` });
    }
    return state;
  }

  getStore(name: string): KVStore {
    return this.state(name).working;
  }

  storeNames(): readonly string[] {
    return this.names;
  }

  branch(): CacheMultiStore {
    return new CacheMultiStoreImpl(this.names, (name) => this.getStore(name));
  }

  branchCommitted(): CacheMultiStore {
    return new CacheMultiStoreImpl(this.names, (name) => this.state(name).committed);
  }

  branchAt(version: number): CacheMultiStore {
    this.checkRetained(version);
    return new CacheMultiStoreImpl(this.names, (name) => new VersionView(this, this.state(name), version));
  }

  storeAt(version: number, name: string): KVStoreReader {
    this.checkRetained(version);
    return new VersionView(this, this.state(name), version);
  }

  lastCommitId(): CommitId {
    return { version: this.latest, hash: this.lastHash };
  }

  latestVersion(): number {
    return this.latest;
  }

  watchLatest(listener: (version: number) => void): () => void {
    this.latestWatchers.add(listener);
    return () => this.latestWatchers.delete(listener);
  }

  /** Tells the watchers the latest version moved (after commit, rollback, snapshot import). */
  private latestMoved(): void {
    for (const listener of this.latestWatchers) listener(this.latest);
  }

  earliestVersion(): number {
    return this.earliest;
  }

  storeRoot(name: string): Uint8Array {
    return this.state(name).tree.committedHash();
  }

  stats(): CommitMultiStoreStats {
    let treeBytes = 0;
    let cachedBuckets = 0;
    let pendingKeys = 0;
    for (const state of this.stores.values()) {
      treeBytes += state.tree.memoryBytes();
      cachedBuckets += state.cache.size;
      pendingKeys += state.working.size;
    }
    return { treeBytes, cachedBuckets, pendingKeys };
  }

  setInitialVersion(version: number): void {
    if (this.latest !== 0) throw new StoreError('INVALID_OPTIONS', `cannot set the initial version: version ${this.latest} is already committed`);
    if (!Number.isSafeInteger(version) || version < 1) throw new StoreError('INVALID_OPTIONS', `initial version must be a positive integer, got ${version}`);
    this.initialVersion = version;
    this.prepared = undefined;
    for (const state of this.stores.values()) {
      state.tree.discardWorking();
      state.tree.workingVersion = version;
    }
  }

  /** Called by the working stores before every write. */
  onWorkingWrite(): void {
    if (this.committing) throw new StoreError('COMMIT_IN_PROGRESS', 'cannot write to the working state while a commit is being persisted');
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    this.generation++;
  }

  // ---------------------------------------------------------------- reads

  loadBucket(state: StoreState, bucket: number): BucketData {
    const cached = state.cache.get(bucket);
    if (cached !== undefined) return cached;
    const blob = this.db.getSync(bucketKey(state.id, bucket));
    const data = blob === undefined ? EMPTY_BUCKET : BucketData.fromBlob(blob);
    state.cache.set(bucket, data);
    return data;
  }

  /**
   * The value of `key` at `version` (Infinity = the latest committed): the bucket's current
   * entry, then backwards through the diffs of every later change. Synchronous.
   */
  readState(state: StoreState, key: Uint8Array, version: number): Uint8Array | undefined {
    const kh = sha256(key);
    const bucket = bucketOf(kh);
    const data = this.loadBucket(state, bucket);
    const i = data.findLive(kh);
    let value: Uint8Array | undefined;
    let at: number;
    if (i >= 0) {
      at = data.liveChangedAt(i);
      value = data.liveValue(i);
      if (at <= version) return value;
    } else {
      if (version === Infinity) return undefined;
      at = data.deletedAt(key);
      if (at < 0 || at <= version) return undefined;
      value = undefined;
    }
    while (at > version) {
      const diff = this.db.getSync(historyKey(state.id, bucket, at));
      const record = diff === undefined ? undefined : findInDiff(diff, key);
      if (record === undefined) {
        throw new StoreError('CORRUPTED', `history of store ${state.name} is missing version ${at} of key ${toHex(key)}`);
      }
      value = record.prevValue;
      at = record.prevChangedAt;
    }
    return value;
  }

  private checkRetained(version: number): void {
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    if (this.latest === 0) throw new StoreError('VERSION_NOT_FOUND', `version ${version} does not exist: nothing has been committed yet`);
    if (!Number.isSafeInteger(version) || version < 1 || version > this.latest) {
      throw new StoreError('VERSION_NOT_FOUND', `version ${version} does not exist: available versions are ${this.earliest}–${this.latest}`);
    }
    if (version < this.earliest) {
      throw new StoreError('VERSION_PRUNED', `version ${version} has been pruned: available versions are ${this.earliest}–${this.latest}`, {
        meta: { earliest: this.earliest, latest: this.latest },
      });
    }
  }

  readAt(version: number, name: string, key: Uint8Array): Uint8Array | undefined {
    this.checkRetained(version);
    return this.readState(this.state(name), key, version);
  }

  /**
   * Keys of the index in [start, end) with their values, read at `version` (Infinity = the
   * latest), in arrays. A key whose index entry carries its value, written at or below
   * `version`, is served from the scan itself (an entry is the key's latest value as of the
   * scan's snapshot, so one written at or below `version` is also its value at `version`); any
   * other key's value comes from `read`, its bucket fetched in one batched read per array.
   */
  async *iterateIndex(
    state: StoreState,
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
    options: IteratorOptions,
    version: number,
    read: (key: Uint8Array) => Uint8Array | undefined,
  ): AsyncIterableIterator<KVEntry[]> {
    const { prefix, range } = indexRange(state, start, end, options);
    const cut = prefix.length;
    for await (const chunk of this.indexArrays(state, this.db.chunks(range), cut, version)) {
      const entries: KVEntry[] = [];
      for (const [indexKey, marker] of chunk) {
        const kind = indexEntryKind(marker, version);
        if (kind === INDEX_VALUE_INLINE) entries.push([indexKey.subarray(cut), marker.subarray(9)]);
        else if (kind === INDEX_VALUE_IN_BUCKET) {
          const key = indexKey.subarray(cut);
          const value = read(key);
          if (value !== undefined) entries.push([key, value]);
        }
      }
      if (entries.length > 0) yield entries;
    }
  }

  /**
   * `iterateIndex` to a synchronous callback until it returns false (`chunks.ts` scanStore):
   * the database's arrays are visited as they come (one read ahead), each key and value passed
   * as the database's own array with the offset past the index prefix or the entry's marker —
   * no array or view per entry: the path of long scans such as the gov tally.
   */
  async scanIndex(
    state: StoreState,
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
    options: IteratorOptions,
    version: number,
    read: (key: Uint8Array) => Uint8Array | undefined,
    visit: ScanVisitor,
  ): Promise<void> {
    const { prefix, range } = indexRange(state, start, end, options);
    const cut = prefix.length;
    for await (const chunk of this.indexArrays(state, this.db.rawChunks?.(range) ?? this.db.chunks(range), cut, version)) {
      for (const [indexKey, marker] of chunk) {
        const kind = indexEntryKind(marker, version);
        if (kind === INDEX_VALUE_INLINE) {
          if (visit(indexKey, cut, marker, 9) === false) return;
        } else if (kind === INDEX_VALUE_IN_BUCKET) {
          const value = read(view(indexKey, cut));
          if (value !== undefined && visit(indexKey, cut, value, 0) === false) return;
        }
      }
    }
  }

  /**
   * The key index's arrays from `arrays` (index keys start with `cut` prefix bytes), each once
   * the buckets of its keys whose value is not in their entry are loaded (one batched read).
   */
  private async *indexArrays(
    state: StoreState,
    arrays: AsyncIterable<readonly (readonly [Uint8Array, Uint8Array])[]>,
    cut: number,
    version: number,
  ): AsyncIterable<readonly (readonly [Uint8Array, Uint8Array])[]> {
    for await (const chunk of arrays) {
      let unread: Uint8Array[] | undefined;
      for (const [indexKey, marker] of chunk) if (indexEntryKind(marker, version) === INDEX_VALUE_IN_BUCKET) (unread ??= []).push(view(indexKey, cut));
      if (unread !== undefined && unread.length > 1) await this.prefetchBuckets(state, unread);
      yield chunk;
    }
  }

  /** Loads the buckets of `keys` that are not cached, in one batched read. */
  private async prefetchBuckets(state: StoreState, keys: readonly Uint8Array[]): Promise<void> {
    const missing = new Set<number>();
    for (const key of keys) {
      const bucket = bucketOf(sha256(key));
      if (state.cache.get(bucket) === undefined) missing.add(bucket);
    }
    if (missing.size < 2) return;
    const buckets = [...missing];
    const epoch = this.bucketEpoch;
    const blobs = await this.db.getMany(buckets.map((bucket) => bucketKey(state.id, bucket)));
    // A commit (or rollback) meanwhile may have changed these buckets: leave them to the synchronous path.
    if (epoch !== this.bucketEpoch || this.closed) return;
    buckets.forEach((bucket, i) => {
      if (state.cache.get(bucket) !== undefined) return;
      const blob = blobs[i];
      state.cache.set(bucket, blob === undefined ? EMPTY_BUCKET : BucketData.fromBlob(blob));
    });
  }

  // ---------------------------------------------------------------- commit

  private nextVersion(): number {
    return this.latest === 0 ? Math.max(1, this.initialVersion) : this.latest + 1;
  }

  workingHash(): Uint8Array {
    return this.prepare().appHash;
  }

  /**
   * `workingHash()` that hands the event loop back whenever it has run `sliceMs` (readers of
   * committed state — queries, CheckTx — go on meanwhile; the working state must not change
   * until it resolves). Same result as the synchronous one.
   */
  async workingHashSliced(sliceMs: number): Promise<Uint8Array> {
    if (this.prepared !== undefined && this.prepared.generation === this.generation) return this.prepared.appHash;
    this.prepared = await runSliced(this.prepareSteps(), sliceMs);
    return this.prepared.appHash;
  }

  private prepare(): Prepared {
    if (this.prepared !== undefined && this.prepared.generation === this.generation) return this.prepared;
    this.prepared = runToEnd(this.prepareSteps());
    return this.prepared;
  }

  /**
   * Applies the working writes to each store's tree, hashes it, and builds the commit's batch.
   * A generator: it pauses (yields) between bounded pieces of work so that a caller may let other
   * work run in between (`workingHashSliced`); `prepare` runs it straight through.
   */
  private *prepareSteps(): Generator<void, Prepared, void> {
    const version = this.nextVersion();
    const ops: BatchOp[] = [];
    const roots: [string, Uint8Array][] = [];
    const infos: StoreCommit[] = [];
    const applies: (() => void)[] = [];
    const changeset = new ByteWriter(1024);
    let changedStores = 0;
    const changesetBody = new ByteWriter(1024);

    for (const name of this.names) {
      const state = this.state(name);
      const tree = state.tree;
      // Start from the committed tree: a previous workingHash() may have applied older writes.
      tree.discardWorking();
      tree.workingVersion = version;
      // The block's writes, sorted by key, as the SDK's cache store flushes them into IAVL.
      const writes = [...state.working.entries()].sort((a, b) => compareBytes(a.key, b.key));
      const groups = new Map<number, BucketChange[]>();
      let done = 0;
      for (const { key, value } of writes) {
        if ((++done & 255) === 0) yield;
        let vh: Uint8Array | undefined;
        if (value === undefined) tree.remove(key);
        else tree.set(key, (vh = sha256(value)));
        const kh = sha256(key);
        const bucket = bucketOf(kh);
        const list = groups.get(bucket);
        if (list === undefined) groups.set(bucket, [{ key, kh, value, vh }]);
        else list.push({ key, kh, value, vh });
      }
      yield;
      // Nodes created at this version, post-order; their index is their address. They are
      // hashed in the same pass, so the root hash below is already there.
      // Encoders share one record buffer, empty right after each full chunk: the walk pauses
      // only there (every NODES_PER_CHUNK nodes), and nothing else encodes meanwhile.
      const encoder = new NodeChunkEncoder(state.id, version);
      const created = yield* tree.encodeNewNodesSteps(encoder, NODES_PER_CHUNK);
      for (const op of encoder.finish()) ops.push(op);
      const root = tree.workingHash();
      yield;
      const rootAddress = tree.workingRootAddress();
      // Nodes this version replaced: their chunks can go once no retained version uses them.
      const orphaned = tree.encodedOrphanAddresses();
      if (orphaned !== undefined) ops.push({ type: 'put', key: orphansKey(state.id, version), value: orphaned });
      roots.push([name, root]);
      infos.push({ name, root, rootAddress, nodes: created });

      const updated = new Map<number, BucketData>();
      const changedBuckets: number[] = [];
      const deletedKeys: Uint8Array[] = [];
      let buckets = 0;
      for (const [bucket, changes] of groups) {
        if ((++buckets & 63) === 0) yield;
        const update = applyBucketChanges(this.loadBucket(state, bucket), changes, version, this.earliest);
        if (update === undefined) continue;
        updated.set(bucket, update.data);
        ops.push(update.data.isEmpty ? { type: 'del', key: bucketKey(state.id, bucket) } : { type: 'put', key: bucketKey(state.id, bucket), value: update.data.encode() });
        if (update.diff.length > 0) {
          changedBuckets.push(bucket);
          ops.push({ type: 'put', key: historyKey(state.id, bucket, version), value: encodeDiff(update.diff) });
        }
        // The key index keeps each written key's new value (tombstones below).
        for (const record of update.diff) {
          const value = changes.length === 1 ? changes[0]!.value : changes.find((change) => bytesEqual(change.key, record.key))?.value;
          if (value !== undefined) ops.push({ type: 'put', key: keyIndexKey(state.id, record.key), value: indexLiveMarker(version, value) });
        }
        for (const key of update.deleted) {
          ops.push({ type: 'put', key: keyIndexKey(state.id, key), value: u64(version) });
          deletedKeys.push(key);
        }
      }
      if (changedBuckets.length > 0 || deletedKeys.length > 0) {
        changedStores++;
        changesetBody.u8(state.id).u32(changedBuckets.length);
        for (const bucket of changedBuckets) changesetBody.u8(bucket >>> 16).u16(bucket & 0xffff);
        changesetBody.u32(deletedKeys.length);
        for (const key of deletedKeys) changesetBody.lengthPrefixed(key);
      }
      applies.push(() => {
        tree.commit();
        for (const [bucket, data] of updated) state.cache.set(bucket, data);
        state.working.discard();
      });
      yield;
    }

    if (changedStores > 0) {
      changeset.u16(changedStores).bytes(changesetBody.finish());
      ops.push({ type: 'put', key: changesetKey(version), value: changeset.finish() });
    }
    ops.push({ type: 'put', key: commitInfoKey(version), value: encodeCommitInfo(infos) });
    ops.push({ type: 'put', key: META_LATEST, value: u64(version) });
    let earliest = this.latest === 0 ? version : this.earliest;
    const pruneHeight = pruneHeightAfterCommit(this.options.pruning, version);
    if (pruneHeight + 1 > earliest) earliest = pruneHeight + 1;
    if (earliest !== this.earliest) ops.push({ type: 'put', key: META_EARLIEST, value: u64(earliest) });
    if (this.latest === 0) {
      // The first commit: nothing below it was ever written.
      ops.push({ type: 'put', key: META_PRUNED_BELOW, value: u64(version) }, { type: 'put', key: META_FIRST, value: u64(version) });
    }

    const appHash = appHashOf(roots);
    return {
      version,
      generation: this.generation,
      roots,
      infos,
      appHash,
      earliest,
      ops,
      apply: () => {
        for (const apply of applies) apply();
      },
    };
  }

  /**
   * Writes the prepared version. With `sliceMs` > 0 the operations go into the database's write
   * batch a few milliseconds at a time, the event loop served in between (a block of 500 sends is
   * about ten thousand puts, 20–40 ms in one piece); nothing is visible until the batch is written,
   * and readers see the previous version meanwhile.
   */
  async commit(sliceMs = 0): Promise<CommitId> {
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    if (this.committing) throw new StoreError('COMMIT_IN_PROGRESS', 'a commit is already in progress');
    const prepared = this.prepare();
    this.committing = true;
    try {
      await this.withWriteLock(() => this.writeOps(prepared.ops, sliceMs));
    } finally {
      this.committing = false;
    }
    this.bucketEpoch++;
    prepared.apply();
    if (this.latest === 0) {
      this.prunedBelow = prepared.version;
      this.firstVersion = prepared.version;
    }
    this.latest = prepared.version;
    this.earliest = prepared.earliest;
    this.lastRoots = prepared.roots;
    this.lastHash = prepared.appHash;
    this.prepared = undefined;
    this.generation++;
    this.latestMoved();
    if (this.prunedBelow < this.earliest) this.startPruner();
    return { version: this.latest, hash: this.lastHash };
  }

  private async writeOps(ops: BatchOp[], sliceMs: number): Promise<void> {
    const sync = this.options.syncCommits;
    if (sliceMs <= 0 || ops.length < 256 || !this.db.openBatch) return this.db.batch(ops, { sync });
    const batch = this.db.openBatch();
    const slicer = new TimeSlicer(sliceMs);
    try {
      for (let i = 0; i < ops.length; i++) {
        applyOp(ops[i]!, batch);
        if ((i & 127) === 127 && slicer.due()) await slicer.pause();
      }
    } catch (err) {
      await batch.discard();
      throw err;
    }
    await batch.write({ sync });
  }

  private withWriteLock<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writeLock.then(work, work);
    this.writeLock = run.catch(() => undefined);
    return run;
  }

  // ---------------------------------------------------------------- rollback

  async rollback(): Promise<CommitId> {
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    for (const state of this.stores.values()) {
      if (state.working.size > 0) throw new StoreError('PENDING_WRITES', 'cannot roll back with uncommitted writes in the working state');
    }
    if (this.latest === 0) throw new StoreError('VERSION_NOT_FOUND', 'nothing to roll back: no version has been committed');
    const from = this.latest;
    const first = from === this.firstVersion; // rolling back the first commit empties the state
    const target = from - 1;
    if (!first && target < this.earliest) {
      throw new StoreError('VERSION_PRUNED', `cannot roll back to version ${target}: it has been pruned (available versions are ${this.earliest}–${this.latest})`);
    }
    this.committing = true;
    try {
      await this.withWriteLock(async () => {
        const ops: BatchOp[] = [];
        const applies: (() => void)[] = [];
        const changes = decodeChangeset(this.db.getSync(changesetKey(from)));
        const fromInfo = new Map(this.readCommitInfo(from).map((info) => [info.name, info]));
        const targetInfo = target > 0 && !first ? new Map(this.readCommitInfo(target).map((info) => [info.name, info])) : new Map<string, StoreCommit>();
        for (const name of this.names) {
          const state = this.state(name);
          const change = changes.get(state.id);
          const updated = new Map<number, BucketData>();
          for (const bucket of change?.buckets ?? []) {
            const diffBytes = this.db.getSync(historyKey(state.id, bucket, from));
            if (diffBytes === undefined) throw new StoreError('CORRUPTED', `history of store ${name} bucket ${bucket} at version ${from} is missing`);
            const reverted = revertBucket(this.loadBucket(state, bucket), decodeDiff(diffBytes), from);
            updated.set(bucket, reverted.data);
            ops.push(reverted.data.isEmpty ? { type: 'del', key: bucketKey(state.id, bucket) } : { type: 'put', key: bucketKey(state.id, bucket), value: reverted.data.encode() });
            ops.push({ type: 'del', key: historyKey(state.id, bucket, from) });
            for (const [key, marker] of reverted.index) {
              ops.push(marker === undefined ? { type: 'del', key: keyIndexKey(state.id, key) } : { type: 'put', key: keyIndexKey(state.id, key), value: marker });
            }
          }
          // The tree nodes `from` created go; the tree is the one of `target` again.
          const created = fromInfo.get(name)?.nodes ?? 0;
          for (let chunk = 0; chunk < chunkCount(created); chunk++) ops.push({ type: 'del', key: nodeChunkKey(state.id, from, chunk) });
          ops.push({ type: 'del', key: orphansKey(state.id, from) });
          applies.push(() => {
            state.tree.reset(targetInfo.get(name)?.rootAddress, first ? Math.max(1, this.initialVersion) : from);
            state.nodes.clearCache();
            for (const [bucket, data] of updated) state.cache.set(bucket, data);
          });
        }
        ops.push({ type: 'del', key: commitInfoKey(from) }, { type: 'del', key: changesetKey(from) });
        const newLatest = first ? 0 : target;
        ops.push({ type: 'put', key: META_LATEST, value: u64(newLatest) });
        if (first) ops.push({ type: 'del', key: META_EARLIEST }, { type: 'del', key: META_PRUNED_BELOW }, { type: 'del', key: META_FIRST });
        await this.db.batch(ops, { sync: this.options.syncCommits });
        for (const apply of applies) apply();
        this.latest = newLatest;
        if (first) {
          this.earliest = 0;
          this.prunedBelow = 0;
          this.firstVersion = 0;
        }
        this.lastRoots = [...targetInfo.values()].map((info) => [info.name, info.root]);
        this.lastHash = first ? EMPTY_BYTES : appHashOf(this.lastRoots);
        for (const [name, info] of targetInfo) {
          if (this.stores.has(name) && !bytesEqual(this.state(name).tree.committedHash(), info.root)) {
            throw new StoreError('CORRUPTED', `rolling back to version ${target}: the tree of store ${name} does not match its committed root`);
          }
        }
      });
    } finally {
      this.committing = false;
    }
    this.prepared = undefined;
    this.generation++;
    this.bucketEpoch++;
    this.latestMoved();
    this.startWarmUp();
    return this.lastCommitId();
  }

  async loadVersion(version: number): Promise<CommitId> {
    if (version === this.latest) return this.lastCommitId();
    if (version !== 0) this.checkRetained(version);
    while (this.latest > version) await this.rollback();
    return this.lastCommitId();
  }

  // ---------------------------------------------------------------- proofs

  async prove(version: number, name: string, key: Uint8Array): Promise<QueryProof> {
    this.checkRetained(version);
    const state = this.state(name);
    if (!(key instanceof Uint8Array) || key.length === 0) throw new StoreError('INVALID_KEY', 'cannot prove an empty key');
    const infos = this.readCommitInfo(version);
    const info = infos.find((entry) => entry.name === name);
    if (info === undefined) throw new StoreError('UNKNOWN_STORE', `store "${name}" is not part of the commit at version ${version}`);
    const root = this.treeAt(state, version, info);
    if (root === undefined) {
      throw new StoreError('INVALID_KEY', `store ${name} is empty at version ${version}: there is nothing to prove membership or absence against`);
    }
    const value = this.readState(state, key, version);
    const valueOf = (neighbour: Uint8Array): Uint8Array => {
      const found = this.readState(state, neighbour, version);
      if (found === undefined) throw new StoreError('CORRUPTED', `store ${name} at version ${version}: tree key ${toHex(neighbour)} has no value in the index`);
      return found;
    };
    let iavl;
    try {
      iavl = iavlProofOp(root, key, value, valueOf);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError('CORRUPTED', `store ${name} at version ${version}: the index and the tree disagree on key ${toHex(key)} (${(err as Error).message})`, { cause: err });
    }
    const roots: [string, Uint8Array][] = infos.map((entry) => [entry.name, entry.root]);
    return { version, store: name, key, value, ops: [iavl, simpleProofOp(roots, name)] };
  }

  /** The tree of a store at a retained version: the live one at the latest, else from disk. */
  private treeAt(state: StoreState, version: number, info: StoreCommit): NodeView | undefined {
    if (info.rootAddress === undefined) return undefined;
    if (version === this.latest && !this.committing) return state.tree.committedView();
    return state.nodes.view(info.rootAddress.version, info.rootAddress.index);
  }

  private readCommitInfo(version: number): StoreCommit[] {
    const bytes = this.db.getSync(commitInfoKey(version));
    if (bytes === undefined) throw new StoreError('CORRUPTED', `commit info of version ${version} is missing`);
    return decodeCommitInfo(bytes);
  }

  // ---------------------------------------------------------------- snapshots (state sync)

  async *exportSnapshot(version: number): AsyncIterable<SnapshotItem> {
    this.checkRetained(version);
    const infos = this.readCommitInfo(version);
    for (const info of [...infos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const state = this.state(info.name);
      yield { kind: 'store', name: info.name };
      if (info.rootAddress === undefined) continue;
      // Always from disk: the export may outlive the next commit.
      const root = state.nodes.view(info.rootAddress.version, info.rootAddress.index);
      const stack: { node: NodeView; expanded: boolean }[] = [{ node: root, expanded: false }];
      while (stack.length > 0) {
        const top = stack.pop()!;
        if (top.node.isLeaf) {
          const value = this.readState(state, top.node.key, version);
          if (value === undefined) throw new StoreError('CORRUPTED', `store ${info.name} at version ${version}: tree key ${toHex(top.node.key)} has no value in the index`);
          yield { kind: 'node', key: top.node.key, value, version: top.node.version, height: 0 };
        } else if (top.expanded) {
          yield { kind: 'node', key: top.node.key, value: undefined, version: top.node.version, height: top.node.height };
        } else {
          stack.push({ node: top.node, expanded: true }, { node: top.node.right(), expanded: false }, { node: top.node.left(), expanded: false });
        }
        if (stack.length % 64 === 0) await Promise.resolve();
      }
    }
  }

  async importSnapshot(version: number, items: AsyncIterable<SnapshotItem>, expectedAppHash?: Uint8Array): Promise<CommitId> {
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    if (this.latest !== 0) throw new StoreError('INVALID_OPTIONS', `cannot import a snapshot: version ${this.latest} is already committed`, { hint: 'state sync needs an empty state store' });
    if (!Number.isSafeInteger(version) || version < 1) throw new StoreError('INVALID_OPTIONS', `snapshot version must be a positive integer, got ${version}`);
    for (const state of this.stores.values()) {
      if (state.working.size > 0) throw new StoreError('PENDING_WRITES', 'cannot import a snapshot with uncommitted writes');
    }
    const bad = (message: string): StoreError => new StoreError('INVALID_VALUE', `invalid snapshot: ${message}`);
    const leaves = new Map<string, Map<string, { key: Uint8Array; value: Uint8Array }>>();
    const seen = new Set<string>();
    let current: { state: StoreState; importer: ReturnType<IavlTree['importer']> } | undefined;
    const finishStore = (): void => {
      if (current === undefined) return;
      try {
        current.importer.finish();
      } catch (err) {
        throw bad(`store ${current.state.name}: ${(err as Error).message}`);
      }
    };
    try {
      for (const state of this.stores.values()) {
        state.tree.reset(undefined, version);
      }
      for await (const item of items) {
        if (item.kind === 'store') {
          finishStore();
          const state = this.stores.get(item.name);
          if (state === undefined) throw bad(`unknown store "${item.name}"`);
          if (seen.has(item.name)) throw bad(`store "${item.name}" appears twice`);
          seen.add(item.name);
          current = { state, importer: state.tree.importer() };
          leaves.set(item.name, new Map());
          continue;
        }
        if (current === undefined) throw bad('a node came before any store item');
        if (!Number.isSafeInteger(item.version) || item.version < 1 || item.version > version) throw bad(`node version ${item.version} is outside 1–${version}`);
        if (!Number.isInteger(item.height) || item.height < 0 || item.height > 255) throw bad(`node height ${item.height} is invalid`);
        if (item.height === 0 && item.value === undefined) throw bad(`leaf ${toHex(item.key)} has no value`);
        try {
          current.importer.push(item.height, item.key, item.version, item.height === 0 ? sha256(item.value!) : undefined);
        } catch (err) {
          throw bad(`store ${current.state.name}: ${(err as Error).message}`);
        }
        if (item.height === 0) leaves.get(current.state.name)!.set(toHex(item.key), { key: item.key, value: item.value! });
      }
      finishStore();
      const roots: [string, Uint8Array][] = this.names.map((name) => [name, this.state(name).tree.workingHash()]);
      const appHash = appHashOf(roots);
      if (expectedAppHash !== undefined && !bytesEqual(appHash, expectedAppHash)) {
        throw bad(`the imported state hashes to ${toHex(appHash)}, expected ${toHex(expectedAppHash)} for version ${version}`);
      }
      // Everything checks out: write nodes (grouped by the version that created them), the flat
      // index, commit info and markers in one batch.
      const ops: BatchOp[] = [];
      const infos: StoreCommit[] = [];
      const commits: (() => void)[] = [];
      for (const name of this.names) {
        const state = this.state(name);
        const tree = state.tree;
        // Imported nodes keep the version that created them: group them by it, so each one's
        // address is (its version, its position among that version's nodes).
        const created = tree.newNodes();
        const byVersion = new Map<number, number[]>();
        for (const slot of created) {
          const v = tree.versionOfSlot(slot);
          const list = byVersion.get(v) ?? [];
          tree.setIndex(slot, list.length);
          list.push(slot);
          byVersion.set(v, list);
        }
        for (const [v, slots] of byVersion) {
          const encoder = new NodeChunkEncoder(state.id, v);
          tree.encodeNodes(slots, encoder);
          for (const op of encoder.finish()) ops.push(op);
        }
        infos.push({ name, root: tree.workingHash(), rootAddress: tree.workingRootAddress(), nodes: 0 });
        const groups = new Map<number, BucketChange[]>();
        for (const { key, value } of leaves.get(name)?.values() ?? []) {
          const kh = sha256(key);
          const bucket = bucketOf(kh);
          const list = groups.get(bucket) ?? [];
          list.push({ key, kh, value });
          groups.set(bucket, list);
        }
        for (const [bucket, changes] of groups) {
          const update = applyBucketChanges(BucketData.empty(), changes, version, version);
          if (update === undefined) continue;
          ops.push({ type: 'put', key: bucketKey(state.id, bucket), value: update.data.encode() });
          for (const { key, value } of changes) if (value !== undefined) ops.push({ type: 'put', key: keyIndexKey(state.id, key), value: indexLiveMarker(version, value) });
        }
        commits.push(() => {
          tree.workingVersion = version;
          tree.commit();
          state.cache.clear();
        });
      }
      ops.push({ type: 'put', key: commitInfoKey(version), value: encodeCommitInfo(infos) });
      ops.push({ type: 'put', key: META_LATEST, value: u64(version) }, { type: 'put', key: META_EARLIEST, value: u64(version) });
      ops.push({ type: 'put', key: META_PRUNED_BELOW, value: u64(version) }, { type: 'put', key: META_FIRST, value: u64(version) });
      await this.withWriteLock(() => this.db.batch(ops, { sync: this.options.syncCommits }));
      for (const commit of commits) commit();
      this.latest = version;
      this.earliest = version;
      this.prunedBelow = version;
      this.firstVersion = version;
      this.lastRoots = roots;
      this.lastHash = appHash;
      this.prepared = undefined;
      this.generation++;
      this.bucketEpoch++;
      this.latestMoved();
      return this.lastCommitId();
    } catch (err) {
      for (const state of this.stores.values()) state.tree.reset(undefined, this.nextVersion());
      throw err;
    }
  }

  // ---------------------------------------------------------------- pruning

  private startPruner(): void {
    if (this.pruner !== undefined || this.closed) return;
    this.pruner = (async () => {
      try {
        while (!this.closed && this.prunedBelow < this.earliest) {
          const version = this.prunedBelow;
          await this.withWriteLock(() => this.pruneVersion(version));
        }
      } catch (err) {
        this.prunerError = err;
      } finally {
        this.pruner = undefined;
      }
    })();
  }

  /** Wait until background pruning has caught up (tests, shutdown). Rethrows a pruning failure. */
  async waitForPruning(): Promise<void> {
    while (this.pruner !== undefined) await this.pruner;
    if (this.prunerError !== undefined) {
      const err = this.prunerError;
      this.prunerError = undefined;
      throw err;
    }
  }

  private async pruneVersion(version: number): Promise<void> {
    const db = this.db;
    const ops: BatchOp[] = [];
    const flush = async (): Promise<void> => {
      if (ops.length === 0) return;
      await db.batch(ops.splice(0));
    };
    const changes = decodeChangeset(db.getSync(changesetKey(version)));
    for (const [id, change] of changes) {
      for (const bucket of change.buckets) {
        ops.push({ type: 'del', key: historyKey(id, bucket, version) });
        if (ops.length >= this.options.pruneBatchSize) await flush();
      }
      for (const key of change.deleted) {
        const marker = db.getSync(keyIndexKey(id, key));
        if (marker !== undefined && marker.length === 8 && readU64(marker, 0) <= version) ops.push({ type: 'del', key: keyIndexKey(id, key) });
        if (ops.length >= this.options.pruneBatchSize) await flush();
      }
    }
    await flush();
    // Tree nodes orphaned at version+1 were last part of `version`'s tree: count them dead per
    // chunk and delete chunks whose nodes are all dead. One batch per store (with the orphan
    // record's deletion), so a crash never counts a node twice.
    for (const state of this.stores.values()) {
      const record = db.getSync(orphansKey(state.id, version + 1));
      if (record === undefined) continue;
      const perChunk = new Map<string, { version: number; chunk: number; dead: number }>();
      for (const { version: created, index } of decodeAddresses(record)) {
        const chunk = Math.floor(index / NODES_PER_CHUNK);
        const id = `${created}/${chunk}`;
        const entry = perChunk.get(id);
        if (entry === undefined) perChunk.set(id, { version: created, chunk, dead: 1 });
        else entry.dead++;
      }
      const nodeOps: BatchOp[] = [{ type: 'del', key: orphansKey(state.id, version + 1) }];
      for (const { version: created, chunk, dead } of perChunk.values()) {
        const counterKey = deadCountKey(state.id, created, chunk);
        const counter = db.getSync(counterKey);
        const total = dead + (counter === undefined ? 0 : (counter[0]! << 8) | counter[1]!);
        const stored = db.getSync(nodeChunkKey(state.id, created, chunk));
        if (stored === undefined) continue;
        if (total >= chunkNodeCount(stored)) nodeOps.push({ type: 'del', key: nodeChunkKey(state.id, created, chunk) }, { type: 'del', key: counterKey });
        else nodeOps.push({ type: 'put', key: counterKey, value: Uint8Array.of(total >> 8, total & 0xff) });
      }
      await db.batch(nodeOps);
      state.nodes.clearCache();
    }
    ops.push({ type: 'del', key: commitInfoKey(version) }, { type: 'del', key: changesetKey(version) });
    ops.push({ type: 'put', key: META_PRUNED_BELOW, value: u64(version + 1) });
    await flush();
    this.prunedBelow = version + 1;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pruner !== undefined) await this.pruner;
    if (this.warmer !== undefined) await this.warmer;
    await this.writeLock;
    for (const state of this.stores.values()) state.cache.clear();
  }
}

// -------------------------------------------------------------------- cache

/**
 * Two-generation cache (an LRU approximation): hits in the old generation move to the new one;
 * when the new one is full it becomes the old one. O(1) per operation. (A Map used as a FIFO —
 * delete the first key, insert at the end — degrades badly in V8: deleted slots pile up at the
 * front of the table and every `keys().next()` walks over them.)
 */
class BucketCache {
  private young = new Map<number, BucketData>();
  private old = new Map<number, BucketData>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(bucket: number): BucketData | undefined {
    const hit = this.young.get(bucket);
    if (hit !== undefined) return hit;
    const aged = this.old.get(bucket);
    if (aged !== undefined) this.set(bucket, aged);
    return aged;
  }

  set(bucket: number, data: BucketData): void {
    if (this.young.size >= this.capacity / 2 && !this.young.has(bucket)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(bucket, data);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}

// -------------------------------------------------------------------- views

/** The latest committed state of one store; moves forward at each commit. Read-only. */
class CommittedView implements KVStore {
  constructor(
    private readonly owner: RootMultiStoreImpl,
    private readonly state: StoreState,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    return this.owner.readState(this.state, key, Infinity);
  }

  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }

  set(): void {
    throw new StoreError('READ_ONLY', `the committed state of store ${this.state.name} is read-only; write through a branch`);
  }

  delete(): void {
    throw new StoreError('READ_ONLY', `the committed state of store ${this.state.name} is read-only; write through a branch`);
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  iterator(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry> {
    return flatten(this.chunks(start, end, options));
  }

  chunks(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry[]> {
    return this.owner.iterateIndex(this.state, start, end, options, Infinity, (key) => this.owner.readState(this.state, key, Infinity));
  }

  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    return this.owner.scanIndex(this.state, start, end, options, Infinity, (key) => this.owner.readState(this.state, key, Infinity), visit);
  }
}

/** One store pinned at a retained version. Read-only. */
class VersionView implements KVStore {
  constructor(
    private readonly owner: RootMultiStoreImpl,
    private readonly state: StoreState,
    private readonly version: number,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    return this.owner.readAt(this.version, this.state.name, key);
  }

  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }

  set(): void {
    throw new StoreError('READ_ONLY', `version ${this.version} of store ${this.state.name} is read-only; write through a branch`);
  }

  delete(): void {
    throw new StoreError('READ_ONLY', `version ${this.version} of store ${this.state.name} is read-only; write through a branch`);
  }

  branch(): CacheKVStore {
    return new CacheKVStoreImpl(this);
  }

  iterator(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry> {
    return flatten(this.chunks(start, end, options));
  }

  chunks(start?: Uint8Array, end?: Uint8Array, options: IteratorOptions = {}): AsyncIterableIterator<KVEntry[]> {
    return this.owner.iterateIndex(this.state, start, end, options, this.version, (key) => this.owner.readAt(this.version, this.state.name, key));
  }

  scan(start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions, visit: ScanVisitor): Promise<void> {
    return this.owner.scanIndex(this.state, start, end, options, this.version, (key) => this.owner.readAt(this.version, this.state.name, key), visit);
  }
}

/** The working layer of one store: pending writes over the committed state, read by commit. */
class WorkingStore extends CacheKVStoreImpl {
  constructor(
    parent: KVStore,
    private readonly owner: RootMultiStoreImpl,
  ) {
    super(parent);
  }

  protected override putEntry(ks: string, entry: CachedWrite): void {
    this.owner.onWorkingWrite();
    super.putEntry(ks, entry);
  }
}

/** A plain Uint8Array over `bytes` from `offset` on (the database may hand out Node Buffers). */
/** A key-index entry's value at the version read: in the entry from byte 9, none (deleted), or in the key's bucket. */
const INDEX_VALUE_INLINE = 0;
const INDEX_VALUE_NONE = 1;
const INDEX_VALUE_IN_BUCKET = 2;

/**
 * Where the value at `version` (Infinity = the latest) of a key-index entry's key is: an entry
 * carrying its value, written at or below `version`, has it; a tombstone read at the latest
 * version has none (older versions may still have the key); anything else is in the bucket.
 */
function indexEntryKind(marker: Uint8Array, version: number): number {
  if (marker.length > 8 && marker[0] === INDEX_LIVE_WITH_VALUE && readU64(marker, 1) <= version) return INDEX_VALUE_INLINE;
  if (marker.length === 8 && version === Infinity) return INDEX_VALUE_NONE;
  return INDEX_VALUE_IN_BUCKET;
}

function view(bytes: Uint8Array, offset: number): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset + offset, bytes.byteLength - offset);
}

// -------------------------------------------------------------------- bucket updates

/** Undo the diff of version `from` on a bucket; also returns the key-index entries to restore. */
function revertBucket(current: BucketData, diff: DiffRecord[], from: number): { data: BucketData; index: [Uint8Array, Uint8Array | undefined][] } {
  let live: LiveEntry[] = current.live.slice();
  let dead: DeadEntry[] = current.dead.slice();
  const index: [Uint8Array, Uint8Array | undefined][] = [];
  for (const record of diff) {
    const kh = sha256(record.key);
    live = live.filter((entry) => compareHash(entry.kh, kh) !== 0);
    dead = dead.filter((entry) => !(entry.deletedAt === from && bytesEqual(entry.key, record.key)));
    if (record.prevValue !== undefined) {
      insertLive(live, { kh, vh: sha256(record.prevValue), key: record.key, value: record.prevValue, changedAt: record.prevChangedAt });
      index.push([record.key, indexLiveMarker(record.prevChangedAt, record.prevValue)]);
    } else if (record.prevChangedAt > 0) {
      dead.push({ key: record.key, deletedAt: record.prevChangedAt });
      index.push([record.key, u64(record.prevChangedAt)]);
    } else {
      index.push([record.key, undefined]);
    }
  }
  return { data: new BucketData(live, dead), index };
}

// -------------------------------------------------------------------- records

function encodeCommitInfo(infos: readonly StoreCommit[]): Uint8Array {
  const encoder = new TextEncoder();
  const writer = new ByteWriter(16 + infos.length * 64).u16(infos.length);
  for (const info of infos) {
    const bytes = encoder.encode(info.name);
    writer.u8(bytes.length).bytes(bytes).bytes(info.root);
    if (info.rootAddress === undefined) writer.u8(0);
    else writer.u8(1).u64(info.rootAddress.version).u32(info.rootAddress.index);
    writer.u32(info.nodes);
  }
  return writer.finish();
}

function decodeCommitInfo(bytes: Uint8Array): StoreCommit[] {
  const decoder = new TextDecoder();
  const reader = new ByteReader(bytes);
  const n = reader.u16();
  const out: StoreCommit[] = [];
  for (let i = 0; i < n; i++) {
    const name = decoder.decode(reader.bytes(reader.u8()));
    const root = reader.bytes(HASH_SIZE);
    const rootAddress = reader.u8() === 1 ? { version: reader.u64(), index: reader.u32() } : undefined;
    out.push({ name, root, rootAddress, nodes: reader.u32() });
  }
  return out;
}

function decodeChangeset(bytes: Uint8Array | undefined): Map<number, { buckets: number[]; deleted: Uint8Array[] }> {
  const out = new Map<number, { buckets: number[]; deleted: Uint8Array[] }>();
  if (bytes === undefined) return out;
  const reader = new ByteReader(bytes);
  const stores = reader.u16();
  for (let s = 0; s < stores; s++) {
    const id = reader.u8();
    const buckets: number[] = new Array(reader.u32());
    for (let i = 0; i < buckets.length; i++) buckets[i] = (reader.u8() << 16) | reader.u16();
    const deleted: Uint8Array[] = new Array(reader.u32());
    for (let i = 0; i < deleted.length; i++) deleted[i] = reader.lengthPrefixed();
    out.set(id, { buckets, deleted });
  }
  return out;
}

function readMetaU64(db: Database, key: Uint8Array): number {
  const bytes = db.getSync(key);
  return bytes === undefined || bytes.length !== 8 ? 0 : readU64(bytes, 0);
}

/** The key-index range of `[start, end)` in a store, and the store's index prefix. */
function indexRange(state: StoreState, start: Uint8Array | undefined, end: Uint8Array | undefined, options: IteratorOptions) {
  const prefix = keyIndexPrefix(state.id);
  const range = {
    gte: start === undefined ? prefix : concatBytes(prefix, start),
    lt: end === undefined ? prefixEnd(prefix)! : concatBytes(prefix, end),
    reverse: options.reverse === true,
  };
  return { prefix, range };
}
