/**
 * The one registry of key-space buckets in a node's LevelDB databases.
 *
 * Every key written through `Database` starts with one bucket byte. A byte is never reused for
 * another meaning, even after a bucket is retired. Numeric key parts after the bucket byte are
 * big-endian so that ranges sort by number. Ranges by owner:
 *   0x01–0x1f  state store (versioned application state, commitment)
 *   0x20–0x3f  consensus (block store, consensus state, evidence)
 *   0x40–0x5f  indexers (tx and block event indexes)
 *   0x60–0x7f  node metadata
 */
export enum Bucket {
  // ---- state store (src/node/store; layout in src/node/store/README.md) ----
  // storeId = u8 assigned per module store name (persisted in stateMeta); bucket = u24 (top 20
  // bits of sha256(key)); version = u64. Integers big-endian.
  /** utf8 name → value: "latest" | "earliest" | "first" | "pruned-below" → u64; "store:<name>" → u8 storeId. */
  stateMeta = 0x01,
  /** version → commit info: u16 count, then per store (sorted by name) u8 nameLen ‖ name ‖ root[32] ‖ u8 hasRoot ‖ [u64 rootVersion ‖ u32 rootIndex] ‖ u32 nodes created. */
  stateCommitInfo = 0x02,
  /** storeId ‖ bucket → bucket blob at the latest version (live entries, tombstones; see bucket.ts). */
  stateBucket = 0x03,
  /** storeId ‖ bucket ‖ version → diff: each key changed at `version` with its previous state. */
  stateBucketHistory = 0x04,
  /** storeId ‖ key → empty (live) | u64 version it was deleted at (kept while that matters). */
  stateKeyIndex = 0x05,
  /** version → changeset: per store, the buckets changed and the keys deleted at `version`. */
  stateChangeset = 0x06,
  /** retired (the hash-bucket tree's per-version top levels); never reuse. */
  stateTreeLevel = 0x07,
  /** retired (the hash-bucket tree's shutdown snapshot); never reuse. */
  stateTreeSnapshot = 0x08,
  /**
   * storeId ‖ version u64 ‖ chunk u32 → the IAVL nodes that `version` created in that store,
   * post-order, 128 per chunk (format in src/node/store/iavl/nodes.ts).
   */
  stateNode = 0x09,
  /** storeId ‖ version u64 → the addresses (uvarint version ‖ uvarint index)… of the nodes `version` orphaned. */
  stateNodeOrphans = 0x0a,
  /** storeId ‖ version u64 ‖ chunk u32 → u16 number of that chunk's nodes no retained version uses any more. */
  stateNodeDead = 0x0b,

  // ---- consensus (src/node/consensus) ----
  // Heights are uint64 big-endian (8 bytes). Block and commit values are tendermint.types protobuf;
  // state-store values are tagged JSON (src/node/consensus/store/codec.ts).
  /** block store: height → tendermint.types.BlockMeta (block_id, block_size, header, num_txs). */
  consensusBlockMeta = 0x20,
  /** block store: height → tendermint.types.Block protobuf (the bytes the part set is cut from). */
  consensusBlock = 0x21,
  /** block store: block hash (32 bytes) → height. */
  consensusBlockHash = 0x22,
  /** block store: height → tendermint.types.Commit for that height (the next block's last_commit). */
  consensusBlockCommit = 0x23,
  /** block store: height → tendermint.types.Commit this node saw (+2/3 precommits); kept for the latest height. */
  consensusSeenCommit = 0x24,
  /** block store: (empty key) → base ‖ height (two uint64 big-endian). */
  consensusBlockStoreState = 0x25,
  /** state store: height → the ResponseFinalizeBlock's block-level events (their only copy; read without decoding the tx results). */
  consensusFinalizeBlockEvents = 0x26,
  /** state store: height → {lastHeightChanged, validatorSet?} (the set is stored at change heights and checkpoints). */
  consensusValidators = 0x28,
  /** state store: height → {lastHeightChanged, params?} (params stored at change heights). */
  consensusParams = 0x29,
  /** state store: height → ABCI ResponseFinalizeBlock without its block-level events (in 0x26; heights stored before 0x26 existed hold them here) — served by block_results, used by crash recovery. */
  consensusFinalizeBlockResponse = 0x2a,
  /** state store: (empty key) → the latest committed chain state (validators, params, app hash, …). */
  consensusChainState = 0x2b,
  /** evidence pool: 0x00 ‖ height ‖ hash → pending tendermint.types.Evidence; 0x01 ‖ hash → height it was committed at. */
  consensusEvidence = 0x2c,
  /** durable mempool: tx hash (32 bytes) → admission seq u64 ‖ height u64 ‖ tx (kept until committed or evicted). */
  mempoolTx = 0x2d,
  /** durable mempool: tx hash (32 bytes) → why it was evicted (tagged JSON {height, reason, timeMs}). */
  mempoolEvicted = 0x2e,

  // ---- indexers (src/node/indexer) ----
  // attrKey = u16 len ‖ compositeKey utf8 ("transfer.recipient") ‖ u32 len ‖ value utf8; heights u64,
  // tx indexes u32, counts and sequence numbers u64, all big-endian. `seq` numbers the txs (blocks)
  // carrying one attribute value from 0 in (height, index) order, so any page is a direct lookup.
  /** utf8 "tx" | "block" → earliest indexed height u64 ‖ latest indexed height u64 ‖ number of indexed txs (blocks) u64. */
  indexMeta = 0x40,
  /** tx index: tx hash (32 bytes) → height u64 ‖ index u32 ‖ tx length u32 ‖ tx ‖ ExecTxResult (tagged JSON). */
  txIndexByHash = 0x41,
  /** tx index: height u64 ‖ index u32 → tx hash (32 bytes); every indexed tx (tx.height queries, full scans). */
  txIndexByHeight = 0x42,
  /** tx index: attrKey ‖ seq u64 → height u64 ‖ index u32 ‖ tx hash (32 bytes), for each index:true event attribute (once per tx). */
  txIndexEvent = 0x43,
  /** tx index: attrKey → count u64 (txs carrying that attribute value; also the next seq). */
  txIndexEventCount = 0x44,
  /** block index: height u64 → the block's index:true finalize_block_events (tagged JSON [{type, attributes:[{key, value}]}]). */
  blockIndexByHeight = 0x48,
  /** block index: attrKey ‖ seq u64 → height u64, for each index:true finalize_block_events attribute (once per block). */
  blockIndexEvent = 0x49,
  /** block index: attrKey → count u64 (blocks carrying that attribute value; also the next seq). */
  blockIndexEventCount = 0x4a,

  // ---- node metadata ----
  /** utf8 metadata name → value bytes (schema version, chain id). */
  nodeMeta = 0x60,
}

/** Prefix `key` with the bucket byte. */
export function bucketKey(bucket: Bucket, key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length + 1);
  out[0] = bucket;
  out.set(key, 1);
  return out;
}

/** The [gte, lt) range covering every key of one bucket. */
export function bucketRange(bucket: Bucket): { gte: Uint8Array; lt: Uint8Array } {
  return { gte: Uint8Array.of(bucket), lt: Uint8Array.of(bucket + 1) };
}
