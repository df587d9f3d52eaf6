/**
 * Interfaces of the state store. Implementations live beside this file; module code depends only
 * on these types.
 *
 * Reads are synchronous everywhere (`get`, `has`): the state machine's hot path (CheckTx,
 * FinalizeBlock) never awaits a point read. Iteration is asynchronous (`for await`), because
 * LevelDB can only iterate asynchronously and an in-memory ordered key index would cost ~64 B per
 * key (~190 MB at 1M accounts / 3M keys) plus ~14 s to load at start (measured, see README.md).
 *
 * Bytes handed to `set` and returned by `get`/iterators are not copied: treat them as immutable.
 */

/** One key/value pair yielded by an iterator. */
export type KVEntry = [key: Uint8Array, value: Uint8Array];

export interface IteratorOptions {
  /** Descending key order over the same [start, end) range. */
  reverse?: boolean;
}

/** Read side of a KV space of raw bytes. */
export interface KVStoreReader {
  get(key: Uint8Array): Uint8Array | undefined;
  has(key: Uint8Array): boolean;
  /**
   * Entries with start <= key < end (either bound may be omitted), ascending unless `reverse`.
   * The iterator sees the store as of its first `next()`; writes made while it runs are not
   * visible to it (as with the SDK, do not rely on writing while iterating).
   */
  iterator(start?: Uint8Array, end?: Uint8Array, options?: IteratorOptions): AsyncIterableIterator<KVEntry>;
}

/** A KV space of raw bytes. Keys must be non-empty. */
export interface KVStore extends KVStoreReader {
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  /** A write cache over this store: `write()` flushes into it, `discard()` drops the writes. */
  branch(): CacheKVStore;
}

/** A write cache layered over a parent `KVStore`; nests to any depth. */
export interface CacheKVStore extends KVStore {
  /** Flush the cached writes into the parent (in no particular order) and clear the cache. */
  write(): void;
  /** Drop the cached writes. */
  discard(): void;
  /** Number of keys written (set or deleted) in this cache. */
  readonly size: number;
}

/** Named sub-stores, one per module. */
export interface MultiStore {
  /** The store registered under `name`; throws `StoreError(UNKNOWN_STORE)` otherwise. */
  getStore(name: string): KVStore;
  storeNames(): readonly string[];
  /** A write cache over every sub-store (created lazily per store on first `getStore`). */
  branch(): CacheMultiStore;
}

export interface CacheMultiStore extends MultiStore {
  write(): void;
  discard(): void;
}

export interface CommitId {
  version: number;
  /** App hash: Merkle root over (store name → store root). Empty before the first commit. */
  hash: Uint8Array;
}

/** A CometBFT-shaped proof operation (`tendermint.crypto.ProofOp`). */
export interface ProofOp {
  type: string;
  key: Uint8Array;
  data: Uint8Array;
}

export interface QueryProof {
  version: number;
  store: string;
  key: Uint8Array;
  /** The value at `version`, or undefined when the proof shows absence. */
  value: Uint8Array | undefined;
  /**
   * [`ics23:iavl` (key = the key; data = a cosmos.ics23.v1.CommitmentProof, existence or
   * non-existence), `ics23:simple` (key = the store name; existence of store → root)].
   */
  ops: ProofOp[];
}

/**
 * One item of a state-sync snapshot, in export order: a `store` item, then that store's IAVL
 * nodes in post-order (children before parents), as the SDK's SnapshotStoreItem /
 * SnapshotIAVLItem. Leaves (height 0) carry their value; inner nodes carry the smallest key of
 * their right subtree and no value. `version` is the version that created the node.
 */
export type SnapshotItem =
  | { kind: 'store'; name: string }
  | { kind: 'node'; key: Uint8Array; value: Uint8Array | undefined; version: number; height: number };

/**
 * The application state: versioned, committed, one LevelDB batch per commit.
 *
 * `getStore(name)` is the *working* state: the last committed version plus everything written
 * since (runTx's block branch writes into it). `workingHash()` is the app hash that `commit()`
 * will produce; FinalizeBlock returns it, Commit then only persists.
 */
export interface CommitMultiStore extends MultiStore {
  lastCommitId(): CommitId;
  latestVersion(): number;
  /**
   * Calls `listener` with the new latest version each time it moves (a commit, a rollback, a
   * snapshot import), right after the move; returns the function that stops it.
   */
  watchLatest?(listener: (version: number) => void): () => void;
  /** Lowest version still readable (`readAt`, `storeAt`, `prove`); 0 before the first commit. */
  earliestVersion(): number;
  /** App hash of the working state (what `commit()` would return), without persisting. */
  workingHash(): Uint8Array;
  /**
   * The same hash, computed in pieces: the event loop gets a turn whenever `sliceMs` has passed
   * (readers of committed state go on); the working state must not change until it resolves.
   */
  workingHashSliced(sliceMs: number): Promise<Uint8Array>;
  /**
   * Persist the working state as version latest+1 in one atomic batch; with `sliceMs` > 0 the
   * batch is filled in pieces with event-loop turns between them (readers see the previous version).
   */
  commit(sliceMs?: number): Promise<CommitId>;
  /** The first commit gets this version (InitChain's initial_height). Only before any commit. */
  setInitialVersion(version: number): void;
  /**
   * A write cache over the last *committed* version, ignoring uncommitted working writes — the
   * CheckTx state; reset it after each commit. Its `write()` is not meant to be called.
   */
  branchCommitted(): CacheMultiStore;
  /** Sync point read at a retained version; throws `StoreError(VERSION_PRUNED)` otherwise. */
  readAt(version: number, store: string, key: Uint8Array): Uint8Array | undefined;
  /** A read view pinned to a retained version (queries with `height`); writes throw. */
  storeAt(version: number, store: string): KVStoreReader;
  /** A write cache over every sub-store pinned at a retained version (Simulate at a height). */
  branchAt(version: number): CacheMultiStore;
  /**
   * ICS23 membership or non-membership proof of `key` at a retained version, verifiable against
   * the app hash of `version` (the one in the block header at version + 1). Throws
   * `StoreError` VERSION_PRUNED / VERSION_NOT_FOUND (naming the retained range), UNKNOWN_STORE,
   * or INVALID_KEY (empty key, or a store whose tree is empty at that version).
   */
  prove(version: number, store: string, key: Uint8Array): Promise<QueryProof>;
  /** Every store's tree at a retained version, as snapshot items (state sync). */
  exportSnapshot(version: number): AsyncIterable<SnapshotItem>;
  /**
   * Rebuild the state from snapshot items as version `version` on an empty store (state sync).
   * Every tree is rebuilt and hashed first; if an item is malformed or `expectedAppHash` is given
   * and the resulting app hash differs, it throws `StoreError(INVALID_VALUE)` and writes nothing.
   * Otherwise one batch writes nodes, values and the commit, and `version` becomes the latest
   * (and earliest) version.
   */
  importSnapshot(version: number, items: AsyncIterable<SnapshotItem>, expectedAppHash?: Uint8Array): Promise<CommitId>;
  /** Delete the latest version; the previous one becomes latest. No pending writes allowed. */
  rollback(): Promise<CommitId>;
  /** Make a retained version the latest by rolling back every later version (destructive). */
  loadVersion(version: number): Promise<CommitId>;
  /**
   * Wait for background pruning and release memory. Call before closing the database; does not
   * close it.
   */
  close(): Promise<void>;
}

/** Gas accounting for one tx (or for a block). Amounts are JavaScript safe integers. */
export interface GasMeter {
  limit(): number;
  gasConsumed(): number;
  /** min(consumed, limit). */
  gasConsumedToLimit(): number;
  gasRemaining(): number;
  isPastLimit(): boolean;
  isOutOfGas(): boolean;
  /** Add `amount`; throws `OutOfGasError(descriptor)` when consumed exceeds the limit. */
  consumeGas(amount: number, descriptor: string): void;
  refundGas(amount: number, descriptor: string): void;
}

/** The SDK's KV gas schedule (store/types/gas.go KVGasConfig). */
export interface GasConfig {
  hasCost: number;
  deleteCost: number;
  readCostFlat: number;
  readCostPerByte: number;
  writeCostFlat: number;
  writeCostPerByte: number;
  iterNextCostFlat: number;
}
