/**
 * The committed multi-store: the application state, versioned and authenticated.
 *
 * Design (details and measurements in README.md):
 *
 *  - Storage unit = bucket. Each store spreads its keys over 2^20 buckets by the top 20 bits of
 *    sha256(key); one LevelDB record holds a whole bucket (`bucket.ts`). A point read is
 *    sha256(key) + one `getSync` (or a hit in the decoded-bucket cache) — no tree walk.
 *  - Commitment = 16-ary Merkle tree of depth 5 over the bucket hashes, held in memory
 *    (`tree.ts`), rebuilt from the bucket records at open. Per block it rehashes the dirty
 *    buckets and the paths above them (~50k hashes for 25k dirty keys, whatever the store size).
 *  - History = per (store, bucket, version) a diff of the keys that version changed with their
 *    previous state and the version of that state. Each live entry remembers the version that
 *    last wrote it, so a read at an older version follows diffs backwards with `getSync` only:
 *    historical point reads are synchronous too.
 *  - Every commit is ONE atomic LevelDB batch: buckets, diffs, key index, changeset, the store's
 *    depth-3 tree nodes (for historical proofs), commit info and the `latest` marker. A crash
 *    before the batch lands leaves the previous version; after, the new one. Open verifies the
 *    rebuilt tree against the stored app hash.
 *  - Iteration goes through an ordered key index (storeId ‖ key), async like LevelDB itself.
 *  - Pruning makes old versions unreadable in the commit batch (`earliest`), then deletes their
 *    diffs, changesets, commit infos and tree records in small background batches, serialized
 *    with commits by a write lock.
 */
import type { BatchOp, Database } from './db/database.js';
import { ByteReader, ByteWriter, EMPTY_BYTES, bytesEqual, concatBytes, prefixEnd, readU32, readU64, toHex, u64 } from './bytes.js';
import { BucketData, applyBucketChanges, bucketOf, compareHash, decodeDiff, encodeDiff, findInDiff, insertLive, type BucketChange, type DeadEntry, type DiffRecord, type LiveEntry } from './bucket.js';
import { CacheKVStoreImpl } from './cachekv.js';
import { CacheMultiStoreImpl } from './cachemulti.js';
import { StoreError } from './errors.js';
import { HASH_SIZE, ZERO_HASH, sha256 } from './hash.js';
import type { CacheKVStore, CacheMultiStore, CommitId, CommitMultiStore, IteratorOptions, KVEntry, KVStore, KVStoreReader, QueryProof } from './interface.js';
import {
  META_EARLIEST,
  META_FIRST,
  META_LATEST,
  META_PRUNED_BELOW,
  META_SNAPSHOT,
  META_STORE_PREFIX,
  bucketKey,
  bucketNumberOfKey,
  bucketRangeOfStore,
  changesetKey,
  commitInfoKey,
  historyKey,
  keyIndexKey,
  keyIndexPrefix,
  metaKey,
  treeLevelKey,
  treeSnapshotKey,
} from './layout.js';
import { defaultCommitMultiStoreOptions, pruneHeightAfterCommit, validatePruning, type CommitMultiStoreOptions } from './options.js';
import { appHashOf, bucketProofOp, multistoreProofOp, verifyProof } from './proof.js';
import { BucketTree, NodeHasher, RecordedTop, SNAPSHOT_GROUPS, TREE_DEPTH } from './tree.js';

const MAX_STORES = 255;
const EMPTY_BUCKET = BucketData.empty();

interface StoreState {
  readonly name: string;
  readonly id: number;
  readonly tree: BucketTree;
  /** Buckets of the committed state recently read or written. */
  readonly cache: BucketCache;
  readonly committed: CommittedView;
  readonly working: WorkingStore;
}

interface Prepared {
  version: number;
  generation: number;
  roots: [string, Uint8Array][];
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
  /** How the commitment was loaded at open: the shutdown snapshot, or a scan of every bucket. */
  readonly treeSource: 'snapshot' | 'scan';
  /** Root of one store at the latest committed version. */
  storeRoot(name: string): Uint8Array;
  /** Resolve once background pruning has caught up; rethrows a pruning failure. */
  waitForPruning(): Promise<void>;
}

/**
 * Open the application state in `db` at its latest committed version (or empty), registering
 * `options.stores`. Rebuilds the in-memory commitment from the bucket records and checks it
 * against the stored app hash.
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
  private prepared: Prepared | undefined;
  private committing = false;
  private closed = false;
  private writeLock: Promise<unknown> = Promise.resolve();
  private pruner: Promise<void> | undefined;
  private prunerError: unknown;
  /** How the commitment was loaded at open: from the shutdown snapshot or by scanning buckets. */
  treeSource: 'snapshot' | 'scan' = 'scan';

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
      for (const [name] of committedRoots) {
        if (!this.names.includes(name)) {
          throw new StoreError('CORRUPTED', `store "${name}" is part of committed version ${this.latest} but is not registered`, {
            hint: 'register every module store the chain was started with',
          });
        }
      }
    }

    for (const name of this.names) {
      const id = ids.get(name)!;
      const state: StoreState = {
        name,
        id,
        tree: new BucketTree(),
        cache: new BucketCache(this.options.bucketCacheSize),
        committed: undefined as unknown as CommittedView,
        working: undefined as unknown as WorkingStore,
      };
      const committed = new CommittedView(this, state);
      Object.assign(state, { committed, working: new WorkingStore(committed, this) });
      this.stores.set(name, state);
    }
    // The commitment: from the snapshot saved at the last clean shutdown when it is of the latest
    // version and checks out against the stored app hash, else rebuilt from every bucket record.
    this.treeSource = 'scan';
    if (this.latest > 0 && readMetaU64(db, META_SNAPSHOT) === this.latest) {
      try {
        for (const state of this.stores.values()) this.loadTreeSnapshot(state);
        if (this.rootsMatchCommit()) this.treeSource = 'snapshot';
      } catch {
        // Fall through to the full rebuild.
      }
    }
    if (this.treeSource === 'scan') {
      for (const state of this.stores.values()) {
        state.tree.clear();
        await this.loadTree(state);
      }
    }

    this.lastRoots = this.currentRoots();
    if (this.latest > 0) {
      const stored = this.readCommitInfo(this.latest);
      if (!this.rootsMatchCommit()) {
        const actual = appHashOf(this.lastRoots.filter(([name]) => stored.some(([n]) => n === name)));
        throw new StoreError('CORRUPTED', `state at version ${this.latest} does not match its app hash (${toHex(appHashOf(stored))} stored, ${toHex(actual)} rebuilt)`);
      }
      // Stores registered since the last commit join the app hash at the next commit.
      this.lastRoots = this.lastRoots.filter(([name]) => stored.some(([n]) => n === name));
      this.lastHash = appHashOf(stored);
    }
    if (this.prunedBelow < this.earliest) this.startPruner();
  }

  /** Whether the in-memory roots of the stores in the latest commit info equal the stored ones. */
  private rootsMatchCommit(): boolean {
    const stored = this.readCommitInfo(this.latest);
    for (const [name, root] of stored) {
      if (!bytesEqual(this.state(name).tree.root(), root)) return false;
    }
    return true;
  }

  private loadTreeSnapshot(state: StoreState): void {
    for (let group = 0; group < SNAPSHOT_GROUPS; group++) {
      const record = this.db.getSync(treeSnapshotKey(state.id, group));
      if (record !== undefined) state.tree.importBucketGroup(group, record);
    }
    state.tree.rebuildAboveBuckets();
  }

  private async loadTree(state: StoreState): Promise<void> {
    const tree = state.tree;
    for await (const [key, blob] of this.db.entries(bucketRangeOfStore(state.id))) {
      const nLive = readU32(blob, 0);
      if (nLive > 0) tree.setNode(TREE_DEPTH, bucketNumberOfKey(key), sha256(blob.subarray(8, 9 + nLive * 2 * HASH_SIZE)));
    }
    tree.rebuildAboveBuckets();
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

  earliestVersion(): number {
    return this.earliest;
  }

  storeRoot(name: string): Uint8Array {
    return this.state(name).tree.root();
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

  /** Keys of the index in [start, end), with their value as returned by `read`. */
  async *iterateIndex(
    state: StoreState,
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
    options: IteratorOptions,
    read: (key: Uint8Array) => Uint8Array | undefined,
    skipTombstones: boolean,
  ): AsyncIterableIterator<KVEntry> {
    const prefix = keyIndexPrefix(state.id);
    const range = {
      gte: start === undefined ? prefix : concatBytes(prefix, start),
      lt: end === undefined ? prefixEnd(prefix)! : concatBytes(prefix, end),
      reverse: options.reverse === true,
    };
    for await (const [indexKey, marker] of this.db.entries(range)) {
      if (skipTombstones && marker.length !== 0) continue;
      const key = indexKey.subarray(2);
      const value = read(key);
      if (value !== undefined) yield [key, value];
    }
  }

  // ---------------------------------------------------------------- commit

  private nextVersion(): number {
    return this.latest === 0 ? Math.max(1, this.initialVersion) : this.latest + 1;
  }

  private currentRoots(): [string, Uint8Array][] {
    return this.names.map((name) => [name, this.state(name).tree.root()]);
  }

  workingHash(): Uint8Array {
    return this.prepare().appHash;
  }

  private prepare(): Prepared {
    if (this.prepared !== undefined && this.prepared.generation === this.generation) return this.prepared;
    this.prepared = this.prepareCommit();
    return this.prepared;
  }

  private prepareCommit(): Prepared {
    const version = this.nextVersion();
    const ops: BatchOp[] = [];
    const roots: [string, Uint8Array][] = [];
    const applies: (() => void)[] = [];
    const changeset = new ByteWriter(1024);
    let changedStores = 0;
    const changesetBody = new ByteWriter(1024);

    for (const name of this.names) {
      const state = this.state(name);
      const groups = new Map<number, BucketChange[]>();
      for (const { key, value } of state.working.entries()) {
        const kh = sha256(key);
        const bucket = bucketOf(kh);
        const list = groups.get(bucket);
        if (list === undefined) groups.set(bucket, [{ key, kh, value }]);
        else list.push({ key, kh, value });
      }
      if (groups.size === 0) {
        roots.push([name, state.tree.root()]);
        applies.push(() => state.working.discard());
        continue;
      }
      const dirty = new Map<number, Uint8Array>();
      const updated = new Map<number, BucketData>();
      const changedBuckets: number[] = [];
      const deletedKeys: Uint8Array[] = [];
      for (const [bucket, changes] of groups) {
        const update = applyBucketChanges(this.loadBucket(state, bucket), changes, version, this.earliest);
        if (update === undefined) continue;
        updated.set(bucket, update.data);
        ops.push(update.data.isEmpty ? { type: 'del', key: bucketKey(state.id, bucket) } : { type: 'put', key: bucketKey(state.id, bucket), value: update.data.encode() });
        if (update.diff.length > 0) {
          changedBuckets.push(bucket);
          ops.push({ type: 'put', key: historyKey(state.id, bucket, version), value: encodeDiff(update.diff) });
        }
        for (const key of update.created) ops.push({ type: 'put', key: keyIndexKey(state.id, key), value: EMPTY_BYTES });
        for (const key of update.deleted) {
          ops.push({ type: 'put', key: keyIndexKey(state.id, key), value: u64(version) });
          deletedKeys.push(key);
        }
        const hash = update.data.hash();
        if (!state.tree.nodeEquals(TREE_DEPTH, bucket, hash)) dirty.set(bucket, hash);
      }
      const staged = state.tree.stage(dirty);
      roots.push([name, staged.root]);
      if (dirty.size > 0) ops.push({ type: 'put', key: treeLevelKey(state.id, version), value: state.tree.encodeRecordedLevel(staged) });
      if (changedBuckets.length > 0 || deletedKeys.length > 0) {
        changedStores++;
        changesetBody.u8(state.id).u32(changedBuckets.length);
        for (const bucket of changedBuckets) changesetBody.u8(bucket >>> 16).u16(bucket & 0xffff);
        changesetBody.u32(deletedKeys.length);
        for (const key of deletedKeys) changesetBody.lengthPrefixed(key);
      }
      applies.push(() => {
        state.tree.apply(staged);
        for (const [bucket, data] of updated) state.cache.set(bucket, data);
        state.working.discard();
      });
    }

    if (changedStores > 0) {
      changeset.u16(changedStores).bytes(changesetBody.finish());
      ops.push({ type: 'put', key: changesetKey(version), value: changeset.finish() });
    }
    ops.push({ type: 'put', key: commitInfoKey(version), value: encodeCommitInfo(roots) });
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
      appHash,
      earliest,
      ops,
      apply: () => {
        for (const apply of applies) apply();
      },
    };
  }

  async commit(): Promise<CommitId> {
    if (this.closed) throw new StoreError('CLOSED', 'the state store is closed');
    if (this.committing) throw new StoreError('COMMIT_IN_PROGRESS', 'a commit is already in progress');
    const prepared = this.prepare();
    this.committing = true;
    try {
      await this.withWriteLock(() => this.db.batch(prepared.ops, { sync: this.options.syncCommits }));
    } finally {
      this.committing = false;
    }
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
    if (this.prunedBelow < this.earliest) this.startPruner();
    return { version: this.latest, hash: this.lastHash };
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
        const roots: [string, Uint8Array][] = [];
        const changes = decodeChangeset(this.db.getSync(changesetKey(from)));
        for (const name of this.names) {
          const state = this.state(name);
          const change = changes.get(state.id);
          const dirty = new Map<number, Uint8Array>();
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
            dirty.set(bucket, reverted.data.hash());
          }
          const staged = state.tree.stage(dirty);
          roots.push([name, staged.root]);
          ops.push({ type: 'del', key: treeLevelKey(state.id, from) });
          applies.push(() => {
            state.tree.apply(staged);
            for (const [bucket, data] of updated) state.cache.set(bucket, data);
          });
        }
        let hash: Uint8Array = EMPTY_BYTES;
        if (target > 0 && !first) {
          const stored = this.readCommitInfo(target);
          hash = appHashOf(roots);
          const expected = appHashOf(stored);
          const registered = appHashOf(roots.filter(([name]) => stored.some(([n]) => n === name)));
          if (!bytesEqual(expected, registered)) {
            throw new StoreError('CORRUPTED', `rolling back to version ${target} gives app hash ${toHex(registered)}, expected ${toHex(expected)}`);
          }
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
        this.lastRoots = roots;
        this.lastHash = hash;
      });
    } finally {
      this.committing = false;
    }
    this.prepared = undefined;
    this.generation++;
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
    const kh = sha256(key);
    const bucket = bucketOf(kh);
    const childrenByDepth: Uint8Array[] = [];
    let pairs: Uint8Array;
    let value: Uint8Array | undefined;
    let roots: [string, Uint8Array][];
    if (version === this.latest && !this.committing) {
      const data = this.loadBucket(state, bucket);
      pairs = data.pairs();
      const i = data.findLive(kh);
      value = i < 0 ? undefined : data.liveValue(i);
      for (let d = TREE_DEPTH - 1; d >= 0; d--) childrenByDepth.push(state.tree.children(d, bucket >>> (4 * (TREE_DEPTH - d))).slice());
      roots = this.lastRoots;
    } else {
      roots = this.readCommitInfo(version);
      const record = await this.recordedLevelAt(state, version);
      const top = record === undefined ? undefined : new RecordedTop(record);
      // Depths 4 and 5 under the key's depth-3 node, rebuilt from the buckets at `version`.
      const depth3 = bucket >>> 8;
      const bucketHashes = new Uint8Array(256 * HASH_SIZE);
      pairs = EMPTY_BYTES;
      for (let b = 0; b < 256; b++) {
        const number = depth3 * 256 + b;
        const atVersion = this.bucketPairsAt(state, number, version);
        bucketHashes.set(atVersion.hash, b * HASH_SIZE);
        if (number === bucket) pairs = atVersion.pairs;
      }
      value = this.readState(state, key, version);
      const hasher = new NodeHasher();
      const depth4 = new Uint8Array(16 * HASH_SIZE);
      for (let q = 0; q < 16; q++) {
        hasher.children.set(bucketHashes.subarray(q * 16 * HASH_SIZE, (q + 1) * 16 * HASH_SIZE));
        depth4.set(hasher.hash(), q * HASH_SIZE);
      }
      hasher.children.set(depth4);
      const expected = top === undefined ? ZERO_HASH : top.node(3, depth3);
      if (!bytesEqual(hasher.hash(), expected)) {
        throw new StoreError('CORRUPTED', `store ${name} at version ${version}: rebuilt buckets do not match the recorded tree`);
      }
      const within = (bucket >>> 4) & 15;
      childrenByDepth.push(bucketHashes.slice(within * 16 * HASH_SIZE, (within + 1) * 16 * HASH_SIZE));
      childrenByDepth.push(depth4);
      for (let d = 2; d >= 0; d--) {
        childrenByDepth.push(top === undefined ? new Uint8Array(16 * HASH_SIZE) : top.children(d, bucket >>> (4 * (TREE_DEPTH - d))).slice());
      }
    }
    const ops = [bucketProofOp(key, { bucket, pairs, childrenByDepth }), multistoreProofOp(roots, name)];
    const appHash = appHashOf(roots);
    if (!verifyProof(ops, appHash, name, key, value)) {
      throw new StoreError('CORRUPTED', `proof of ${toHex(key)} in store ${name} at version ${version} does not verify against its app hash`);
    }
    return { version, store: name, key, value, ops };
  }

  /** The (kh ‖ vh) pairs and hash of one bucket as it was at `version`. */
  private bucketPairsAt(state: StoreState, bucket: number, version: number): { pairs: Uint8Array; hash: Uint8Array } {
    const current = this.loadBucket(state, bucket);
    if (current.isEmpty) return { pairs: EMPTY_BYTES, hash: ZERO_HASH };
    const entries: { kh: Uint8Array; vh: Uint8Array }[] = [];
    for (const entry of current.live) {
      if (entry.changedAt <= version) entries.push(entry);
      else {
        const value = this.readState(state, entry.key, version);
        if (value !== undefined) entries.push({ kh: entry.kh, vh: sha256(value) });
      }
    }
    for (const entry of current.dead) {
      if (entry.deletedAt <= version) continue;
      const value = this.readState(state, entry.key, version);
      if (value !== undefined) entries.push({ kh: sha256(entry.key), vh: sha256(value) });
    }
    entries.sort((a, b) => compareHash(a.kh, b.kh));
    const pairs = new Uint8Array(entries.length * 2 * HASH_SIZE);
    entries.forEach((entry, i) => {
      pairs.set(entry.kh, i * 2 * HASH_SIZE);
      pairs.set(entry.vh, i * 2 * HASH_SIZE + HASH_SIZE);
    });
    return { pairs, hash: entries.length === 0 ? ZERO_HASH : sha256(concatBytes(Uint8Array.of(0), pairs)) };
  }

  /** The newest depth-3 record of `state` at or below `version` (undefined: the store was empty). */
  private async recordedLevelAt(state: StoreState, version: number): Promise<Uint8Array | undefined> {
    for await (const [, record] of this.db.entries({ gte: treeLevelKey(state.id, 0), lte: treeLevelKey(state.id, version), reverse: true, limit: 1 })) {
      return record;
    }
    return undefined;
  }

  private readCommitInfo(version: number): [string, Uint8Array][] {
    const bytes = this.db.getSync(commitInfoKey(version));
    if (bytes === undefined) throw new StoreError('CORRUPTED', `commit info of version ${version} is missing`);
    return decodeCommitInfo(bytes);
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
    for (const state of this.stores.values()) {
      const record = treeLevelKey(state.id, version);
      if (db.getSync(record) === undefined) continue;
      // Keep it if it is still the newest record at or below the earliest retained version.
      let newer = false;
      for await (const _ of db.keys({ gt: record, lte: treeLevelKey(state.id, this.earliest), limit: 1 })) newer = true;
      if (newer) ops.push({ type: 'del', key: record });
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
    await this.writeLock;
    if (this.options.treeSnapshot && this.latest > 0) {
      // Save the bucket hashes so the next open need not rebuild them from every bucket record.
      const ops: BatchOp[] = [];
      for (const state of this.stores.values()) {
        for (let group = 0; group < SNAPSHOT_GROUPS; group++) {
          const record = state.tree.exportBucketGroup(group);
          const key = treeSnapshotKey(state.id, group);
          ops.push(record === undefined ? { type: 'del', key } : { type: 'put', key, value: record });
        }
      }
      ops.push({ type: 'put', key: META_SNAPSHOT, value: u64(this.latest) });
      await this.db.batch(ops, { sync: this.options.syncCommits });
    }
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
    return this.owner.iterateIndex(this.state, start, end, options, (key) => this.owner.readState(this.state, key, Infinity), true);
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
    return this.owner.iterateIndex(this.state, start, end, options, (key) => this.owner.readAt(this.version, this.state.name, key), false);
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

  override set(key: Uint8Array, value: Uint8Array): void {
    this.owner.onWorkingWrite();
    super.set(key, value);
  }

  override delete(key: Uint8Array): void {
    this.owner.onWorkingWrite();
    super.delete(key);
  }
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
      index.push([record.key, EMPTY_BYTES]);
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

function encodeCommitInfo(roots: [string, Uint8Array][]): Uint8Array {
  const encoder = new TextEncoder();
  const writer = new ByteWriter(16 + roots.length * 64).u16(roots.length);
  for (const [name, root] of roots) {
    const bytes = encoder.encode(name);
    writer.u8(bytes.length).bytes(bytes).bytes(root);
  }
  return writer.finish();
}

function decodeCommitInfo(bytes: Uint8Array): [string, Uint8Array][] {
  const decoder = new TextDecoder();
  const reader = new ByteReader(bytes);
  const n = reader.u16();
  const out: [string, Uint8Array][] = [];
  for (let i = 0; i < n; i++) {
    const name = decoder.decode(reader.bytes(reader.u8()));
    out.push([name, reader.bytes(HASH_SIZE)]);
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
