/**
 * Options of the state store, with defaults. `config/app.toml` keys map onto these in one place
 * (`pruningFromAppToml`), with the Cosmos SDK's meanings:
 *
 *   pruning = "default"     keep the last 362880 versions, prune every 10 blocks
 *   pruning = "nothing"     keep every version (archive node)
 *   pruning = "everything"  keep the last 2 versions, prune every 10 blocks
 *   pruning = "custom"      use pruning-keep-recent and pruning-interval (interval >= 10,
 *                           keep-recent >= 2, as the SDK validates)
 *
 * Pruning runs when a committed height h is a multiple of the interval and h > keep-recent: every
 * version <= h - keep-recent - 1 becomes unavailable at once (readAt/prove report the retained
 * range); its data is deleted in the background in small batches.
 */
import { StoreError } from './errors.js';

export type PruningStrategy = 'default' | 'nothing' | 'everything' | 'custom';

export interface PruningOptions {
  strategy: PruningStrategy;
  /** How many recent versions to keep (besides the latest). 0 with "nothing". */
  keepRecent: number;
  /** Prune when the committed version is a multiple of this. 0 with "nothing". */
  interval: number;
}

export const PRUNING_DEFAULT: PruningOptions = { strategy: 'default', keepRecent: 362_880, interval: 10 };
export const PRUNING_NOTHING: PruningOptions = { strategy: 'nothing', keepRecent: 0, interval: 0 };
export const PRUNING_EVERYTHING: PruningOptions = { strategy: 'everything', keepRecent: 2, interval: 10 };

const MIN_KEEP_RECENT = 2;
const MIN_INTERVAL = 10;

/** Throws `StoreError(INVALID_OPTIONS)` with the SDK's wording when the options are unusable. */
export function validatePruning(options: PruningOptions): void {
  if (options.strategy === 'nothing') return;
  if (!Number.isSafeInteger(options.interval) || options.interval < 0 || !Number.isSafeInteger(options.keepRecent) || options.keepRecent < 0) {
    throw new StoreError('INVALID_OPTIONS', `'pruning-keep-recent' and 'pruning-interval' must be non-negative integers`);
  }
  if (options.interval === 0) {
    throw new StoreError('INVALID_OPTIONS', `'pruning-interval' must not be 0. If you want to disable pruning, select pruning = "nothing"`);
  }
  if (options.interval < MIN_INTERVAL) {
    throw new StoreError('INVALID_OPTIONS', `'pruning-interval' must not be less than ${MIN_INTERVAL}. For the most aggressive pruning, select pruning = "everything"`);
  }
  if (options.keepRecent < MIN_KEEP_RECENT) {
    throw new StoreError('INVALID_OPTIONS', `'pruning-keep-recent' must not be less than ${MIN_KEEP_RECENT}. For the most aggressive pruning, select pruning = "everything"`);
  }
}

/** Map the app.toml trio onto `PruningOptions` (keep-recent/interval only matter for "custom"). */
export function pruningFromAppToml(strategy: string, keepRecent = 0, interval = 0): PruningOptions {
  let options: PruningOptions;
  switch (strategy) {
    case 'default':
    case '':
      options = PRUNING_DEFAULT;
      break;
    case 'nothing':
      options = PRUNING_NOTHING;
      break;
    case 'everything':
      options = PRUNING_EVERYTHING;
      break;
    case 'custom':
      options = { strategy: 'custom', keepRecent, interval };
      break;
    default:
      throw new StoreError('INVALID_OPTIONS', `unknown pruning strategy ${strategy}`, {
        hint: 'use one of default, nothing, everything, custom',
      });
  }
  validatePruning(options);
  return { ...options };
}

/**
 * The version below which `version` data may be deleted after committing `version`, or 0 when
 * nothing becomes prunable at this height (the SDK's pruning-manager rule).
 */
export function pruneHeightAfterCommit(options: PruningOptions, version: number): number {
  if (options.strategy === 'nothing' || options.interval <= 0) return 0;
  if (version % options.interval !== 0 || version <= options.keepRecent) return 0;
  return version - options.keepRecent - 1;
}

export interface CommitMultiStoreOptions {
  /** Module store names (auth, bank, staking, params, …). Order does not matter. */
  stores: readonly string[];
  pruning: PruningOptions;
  /** fsync the commit batch (one fsync per block). Off trades power-loss safety for latency. */
  syncCommits: boolean;
  /** Decoded buckets kept in memory per store (LRU-ish, FIFO eviction). ~0.6 KB each at 3 keys. */
  bucketCacheSize: number;
  /** Ops per background pruning batch; keeps a commit from waiting long behind the pruner. */
  pruneBatchSize: number;
  /**
   * Tree nodes per store loaded at open, top levels first (the upper levels every write goes
   * through); the rest is read on first use and by the background warm-up.
   */
  preloadNodes: number;
  /**
   * After an open, load the rest of every tree in the background (a few thousand nodes per
   * event-loop turn), so blocks stop paying for reading nodes from disk.
   */
  warmUp: boolean;
}

export const defaultCommitMultiStoreOptions: Omit<CommitMultiStoreOptions, 'stores'> = {
  pruning: PRUNING_DEFAULT,
  syncCommits: true,
  bucketCacheSize: 65_536,
  pruneBatchSize: 5_000,
  preloadNodes: 1_024,
  warmUp: true,
};
