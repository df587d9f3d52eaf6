/**
 * Options of the application (the state machine), with defaults. app.toml keys map onto them in
 * one place (`appOptionsFromAppToml`):
 *
 *   minimum-gas-prices  minGasPrices   "0attotoken"; enforced in CheckTx/ReCheck only
 *   pruning, pruning-keep-recent, pruning-interval
 *                       pruning        passed through to the state store (openApp)
 *   halt-height         haltHeight     FinalizeBlock above it fails; Commit at it asks to halt
 *   index-events        indexEvents    ["type.key", …]; empty = index every attribute
 *
 * Performance knobs (not in app.toml): the size of the decoded-tx/verified-signature cache, the
 * worker threads used to verify the signatures of a block that were not seen in CheckTx, and
 * the slice after which block execution yields to the event loop.
 */
import { availableParallelism } from 'node:os';
import { pruningFromAppToml, PRUNING_DEFAULT, type PruningOptions } from '../store/index.js';
import { parseDecCoins, type DecCoin } from '../modules/shared/coins.js';
import { TokendError } from '../../util/errors.js';
import { nullLogger, type Logger } from '../logger.js';
import type { ModuleDeclaration, ModuleOrders } from '../platform/module.js';
import type { UpgradeHandlerEntry } from '../platform/upgrades.js';


export interface AppOptions {
  /** Expected chain id; checked against InitChain and the stored one. Empty = take InitChain's. */
  chainId: string;
  /** Minimum gas prices (app.toml minimum-gas-prices), e.g. "0attotoken" or "0.025attotoken". */
  minGasPrices: string;
  pruning: PruningOptions;
  /** 0 = never halt. */
  haltHeight: number;
  /** Unix seconds; 0 = never. */
  haltTime: number;
  /** "type.key" attributes to index; empty = all. */
  indexEvents: string[];
  /** Decoded txs and verified signatures remembered between CheckTx and FinalizeBlock. */
  txCacheSize: number;
  /** Worker threads verifying a block's unseen signatures; 0 disables. */
  sigVerifyWorkers: number;
  /** Fewest unseen signatures in a block worth handing to the workers. */
  parallelVerifyThreshold: number;
  /**
   * Longest stretch (ms) FinalizeBlock runs txs before it lets the event loop serve queries,
   * CheckTx and sockets (they read committed state, which a block in progress does not touch);
   * 0 runs a block's txs in one go.
   */
  executionSliceMs: number;
  /** Application version reported by Info (app_version). */
  appVersion: bigint;
  /** Software version string reported by Info. */
  version: string;
  logger: Logger;
  /**
   * Another module list than the app's (tests, tools); default src/node/app/modules.ts. The
   * state store must have been opened with these modules' stores.
   */
  moduleSet?: { modules: readonly ModuleDeclaration[]; orders: ModuleOrders };
  /** Called once after Commit of the halt height (the node shuts down). */
  onHalt?: (reason: string) => void;
  /**
   * x/upgrade: this binary's upgrade handlers (default src/node/app/upgrades.ts), the heights
   * whose due plans are skipped (`start --unsafe-skip-upgrades`), and the home whose data/ gets
   * upgrade-info.json when the node stops for an upgrade (unset: no file).
   */
  upgrades?: { handlers?: readonly UpgradeHandlerEntry[]; skipHeights?: readonly number[]; homeDir?: string };
}

export const APP_NAME = 'tokend';

export const defaultAppOptions: AppOptions = {
  chainId: '',
  minGasPrices: '',
  pruning: PRUNING_DEFAULT,
  haltHeight: 0,
  haltTime: 0,
  indexEvents: [],
  txCacheSize: 50_000,
  sigVerifyWorkers: Math.max(0, Math.min(4, availableParallelism() - 1)),
  parallelVerifyThreshold: 256,
  executionSliceMs: 4,
  appVersion: 0n,
  version: '0.1.0',
  logger: nullLogger,
};

export function resolveAppOptions(options: Partial<AppOptions> = {}): AppOptions {
  const resolved = { ...defaultAppOptions, ...options };
  parseMinGasPrices(resolved.minGasPrices);
  if (!Number.isSafeInteger(resolved.haltHeight) || resolved.haltHeight < 0) {
    throw new TokendError('CONFIG_INVALID', `halt-height must be a non-negative integer, got ${resolved.haltHeight}`);
  }
  for (const height of resolved.upgrades?.skipHeights ?? []) {
    if (!Number.isSafeInteger(height) || height <= 0) throw new TokendError('CONFIG_INVALID', `unsafe-skip-upgrades heights must be positive integers, got ${height}`);
  }
  return resolved;
}

/** Parses minimum-gas-prices; throws CONFIG_INVALID with the offending text. */
export function parseMinGasPrices(text: string): DecCoin[] {
  try {
    return parseDecCoins(text);
  } catch (err) {
    throw new TokendError('CONFIG_INVALID', `invalid minimum-gas-prices "${text}": ${(err as Error).message}`, {
      hint: 'use <decimal><denom>[,…], e.g. 0.025attotoken',
    });
  }
}

/** The app.toml values this app reads (structurally: the node's AppConfig fits). */
export interface AppTomlValues {
  minimumGasPrices: string;
  pruning: string;
  pruningKeepRecent: number;
  pruningInterval: number;
  haltHeight: number;
  haltTime?: number;
  indexEvents: string[];
}

export function appOptionsFromAppToml(values: AppTomlValues, extra: Partial<AppOptions> = {}): AppOptions {
  return resolveAppOptions({
    ...extra,
    minGasPrices: values.minimumGasPrices,
    pruning: pruningFromAppToml(values.pruning, values.pruningKeepRecent, values.pruningInterval),
    haltHeight: values.haltHeight,
    haltTime: values.haltTime ?? 0,
    indexEvents: values.indexEvents,
  });
}
