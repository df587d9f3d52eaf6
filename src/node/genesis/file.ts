/**
 * genesis.json as a file: the Cosmos SDK 0.50 layout
 *   { app_name, app_version, genesis_time, chain_id, initial_height (number), app_hash, app_state,
 *     consensus: { params } }
 * Reading keeps unknown members; writing is atomic (temp file + rename).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TokendError } from '../../util/errors.js';
import { APP_NAME, appVersion } from '../version/version.js';
import { configDir } from '../config/home.js';

export type JsonObject = Record<string, unknown>;

export interface GenesisJson extends JsonObject {
  app_name?: string;
  app_version?: string;
  genesis_time: string;
  chain_id: string;
  initial_height: number | string;
  app_hash: string | null;
  app_state: JsonObject;
  consensus?: { params?: JsonObject; validators?: unknown[] };
}

/** CometBFT's default consensus params, in the JSON form genesis files use. */
export function defaultConsensusParamsJson(): JsonObject {
  return {
    block: { max_bytes: '22020096', max_gas: '-1' },
    evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
    validator: { pub_key_types: ['ed25519'] },
    version: { app: '0' },
    abci: { vote_extensions_enable_height: '0' },
  };
}

export function defaultGenesisPath(home: string): string {
  return join(configDir(home), 'genesis.json');
}

export function newGenesis(options: { chainId: string; appState: JsonObject; genesisTime?: Date; initialHeight?: number }): GenesisJson {
  return {
    app_name: APP_NAME,
    app_version: appVersion(),
    genesis_time: (options.genesisTime ?? new Date()).toISOString().replace(/\.000Z$/, 'Z'),
    chain_id: options.chainId,
    initial_height: options.initialHeight ?? 1,
    app_hash: null,
    app_state: options.appState,
    consensus: { params: defaultConsensusParamsJson() },
  };
}

export function readGenesisJson(path: string): GenesisJson {
  if (!existsSync(path)) {
    throw new TokendError('NOT_FOUND', `genesis file ${path} does not exist`, { hint: 'run `tokend init <moniker>` first, or pass the path of a genesis file' });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TokendError('INVALID_GENESIS', `${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new TokendError('INVALID_GENESIS', `${path} must hold a JSON object`);
  const genesis = doc as GenesisJson;
  if (!genesis.app_state || typeof genesis.app_state !== 'object') genesis.app_state = {};
  return genesis;
}

export function writeGenesisJson(path: string, genesis: GenesisJson): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(genesis, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
}
