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
  // ---- state store (src/node/store) ----
  /** Reserved for the state store; see src/node/store for the layout of 0x01–0x1f. */
  stateReserved = 0x01,

  // ---- consensus (src/node/consensus) ----
  /** Reserved for consensus; see src/node/consensus for the layout of 0x20–0x3f. */
  consensusReserved = 0x20,

  // ---- indexers ----
  /** Reserved for indexers; see the indexer modules for the layout of 0x40–0x5f. */
  indexReserved = 0x40,

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
