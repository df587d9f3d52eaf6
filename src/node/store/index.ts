/** The state store: versioned, committed multi-store, branches, gas metering, proofs. */
export type * from './interface.js';
export * from './options.js';
export * from './errors.js';
export { CacheKVStoreImpl } from './cachekv.js';
export { CacheMultiStoreImpl } from './cachemulti.js';
export { MemKVStore } from './memkv.js';
export { PrefixStore } from './prefix.js';
export { storeChunks, flatten, scanStore, type ChunkedReader, type ScanVisitor } from './chunks.js';
export { BasicGasMeter, InfiniteGasMeter, GasKVStore, KV_GAS_CONFIG, TRANSIENT_GAS_CONFIG, GAS_DESCRIPTOR } from './gas.js';
export { openCommitMultiStore, type RootMultiStore, type CommitMultiStoreStats } from './commitmulti.js';
export { appHashOf, PROOF_OP_IAVL, PROOF_OP_SIMPLE } from './iavl/ics23.js';
export { prefixEnd, compareBytes } from './bytes.js';
