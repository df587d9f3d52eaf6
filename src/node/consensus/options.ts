/**
 * Consensus and mempool options with CometBFT config.toml names and defaults
 * ([consensus] and [mempool] sections). The node's config loader maps config.toml onto these.
 */

export interface ConsensusOptions {
  /** timeout_propose: how long to wait for a proposal block before prevoting nil. */
  timeoutProposeMs: number;
  /** timeout_propose_delta: added per round. */
  timeoutProposeDeltaMs: number;
  /** timeout_prevote: after +2/3 prevotes for anything, wait this long for more. */
  timeoutPrevoteMs: number;
  timeoutPrevoteDeltaMs: number;
  /** timeout_precommit: after +2/3 precommits for anything, wait this long for more. */
  timeoutPrecommitMs: number;
  timeoutPrecommitDeltaMs: number;
  /** timeout_commit: after committing a block, wait this long before starting the next height. */
  timeoutCommitMs: number;
  /** skip_timeout_commit: start the next height as soon as all precommits are in. */
  skipTimeoutCommit: boolean;
  /** create_empty_blocks: false = wait for txs (except proof blocks after an app-hash change). */
  createEmptyBlocks: boolean;
  /** create_empty_blocks_interval: with create_empty_blocks=false, still make an empty block this often (0 = never). */
  createEmptyBlocksIntervalMs: number;
  /** double_sign_check_height: refuse to start if our signature is among the last N commits (0 = off). */
  doubleSignCheckHeight: number;
  /** wal_file: write-ahead log path (CometBFT default data/cs.wal/wal); undefined = no WAL (tests). */
  walFile?: string;
  /** Roll the WAL over to a fresh file at an end-height marker once it exceeds this size. */
  walMaxBytes: number;
  /** Buffered WAL entries are flushed at least this often (CometBFT walDefaultFlushInterval). */
  walFlushIntervalMs: number;
}

export const defaultConsensusOptions: Readonly<ConsensusOptions> = Object.freeze({
  timeoutProposeMs: 3000,
  timeoutProposeDeltaMs: 500,
  timeoutPrevoteMs: 1000,
  timeoutPrevoteDeltaMs: 500,
  timeoutPrecommitMs: 1000,
  timeoutPrecommitDeltaMs: 500,
  timeoutCommitMs: 1000,
  skipTimeoutCommit: false,
  createEmptyBlocks: true,
  createEmptyBlocksIntervalMs: 0,
  doubleSignCheckHeight: 0,
  walMaxBytes: 64 * 1024 * 1024,
  walFlushIntervalMs: 2000,
});

export interface MempoolOptions {
  /** size: maximum number of txs. */
  size: number;
  /** max_txs_bytes: maximum total bytes of all txs. */
  maxTxsBytes: number;
  /** max_tx_bytes: maximum size of one tx. */
  maxTxBytes: number;
  /** cache_size: recently seen txs remembered to reject duplicates. */
  cacheSize: number;
  /** keep-invalid-txs-in-cache: keep txs that failed CheckTx (or execution) in the cache. */
  keepInvalidTxsInCache: boolean;
  /** recheck: re-run CheckTx on the remaining txs after every block. */
  recheck: boolean;
}

export const defaultMempoolOptions: Readonly<MempoolOptions> = Object.freeze({
  size: 5000,
  maxTxsBytes: 1073741824,
  maxTxBytes: 1048576,
  cacheSize: 10000,
  keepInvalidTxsInCache: false,
  recheck: true,
});

export function proposeTimeoutMs(o: ConsensusOptions, round: number): number {
  return o.timeoutProposeMs + o.timeoutProposeDeltaMs * round;
}

export function prevoteTimeoutMs(o: ConsensusOptions, round: number): number {
  return o.timeoutPrevoteMs + o.timeoutPrevoteDeltaMs * round;
}

export function precommitTimeoutMs(o: ConsensusOptions, round: number): number {
  return o.timeoutPrecommitMs + o.timeoutPrecommitDeltaMs * round;
}

/** create_empty_blocks=false or an interval > 0 means "wait for txs" (WaitForTxs). */
export function waitForTxs(o: ConsensusOptions): boolean {
  return !o.createEmptyBlocks || o.createEmptyBlocksIntervalMs > 0;
}

/** Decoded FinalizeBlock responses the state store keeps for the latest heights (app.toml [cache] recent-block-results). */
export const DEFAULT_RECENT_RESPONSES = 16;
