/**
 * The CometBFT part of a genesis file (types/genesis.go), read from either layout:
 *
 * - Cosmos SDK 0.50 `genesis.json`: {app_name, app_version, genesis_time, chain_id,
 *   initial_height (JSON number), app_hash (null | base64), app_state, consensus: {validators, params}}
 * - CometBFT: {genesis_time, chain_id, initial_height ("1"), consensus_params, validators,
 *   app_hash (hex), app_state}
 *
 * `app_state` stays opaque: its exact JSON text is kept (JSON.parse would round large numbers).
 */
import { parseGoDurationNanos } from '../../../util/goDuration.js';
import { readFile } from 'node:fs/promises';
import type { ConsensusParams } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import { MAX_CHAIN_ID_LENGTH } from './block.js';
import { EMPTY_BYTES, bytesEqual, fromBase64, fromHex, toHexUpper } from './bytes.js';
import { ED25519_PUBKEY_SIZE, SECP256K1_PUBKEY_SIZE, pubKeyAddress, type PubKey, type PubKeyType } from './keys.js';
import { defaultConsensusParams, validateConsensusParams } from './params.js';
import { parseRfc3339, timestampNow, isZeroTime, type Timestamp } from './time.js';

export interface GenesisValidator {
  address: Uint8Array;
  pubKey: PubKey;
  power: bigint;
  name: string;
}

export type GenesisLayout = 'sdk' | 'cometbft';

export interface GenesisDoc {
  genesisTime: Timestamp;
  chainId: string;
  initialHeight: number;
  consensusParams: ConsensusParams;
  validators: GenesisValidator[];
  appHash: Uint8Array;
  /** Exact JSON text of app_state ("" when absent). */
  appStateJson: string;
  /** SDK layout only. */
  appName?: string;
  appVersion?: string;
  layout: GenesisLayout;
}

function genesisError(message: string, hint?: string): ConsensusError {
  return new ConsensusError('INVALID_GENESIS', message, hint ? { hint } : {});
}

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** int64 given as a JSON string ("5") or number (5). */
function parseInt64(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw genesisError(`${field} must be an integer (got ${JSON.stringify(value)})`);
}

/** Duration as nanoseconds: an int64 (string or number) or a Go duration string ("48h0m0s"). */
function parseDurationNs(value: unknown, field: string): bigint {
  if (typeof value === 'string' && /[a-zµμ]/.test(value)) {
    const nanos = /^[+-]/.test(value) ? undefined : parseGoDurationNanos(value);
    if (nanos === undefined) throw genesisError(`${field} is not a valid duration (got ${JSON.stringify(value)})`);
    return nanos;
  }
  return parseInt64(value, field);
}

/** Parse consensus params JSON (CometBFT field names); missing sections take the defaults. */
export function parseConsensusParamsJson(value: unknown, field = 'consensus_params'): ConsensusParams {
  const params = defaultConsensusParams();
  if (value === undefined || value === null) return params;
  if (!isObject(value)) throw genesisError(`${field} must be an object`);
  const block = value['block'];
  if (isObject(block)) {
    if (block['max_bytes'] !== undefined) params.block.maxBytes = parseInt64(block['max_bytes'], `${field}.block.max_bytes`);
    if (block['max_gas'] !== undefined) params.block.maxGas = parseInt64(block['max_gas'], `${field}.block.max_gas`);
  }
  const evidence = value['evidence'];
  if (isObject(evidence)) {
    if (evidence['max_age_num_blocks'] !== undefined) {
      params.evidence.maxAgeNumBlocks = parseInt64(evidence['max_age_num_blocks'], `${field}.evidence.max_age_num_blocks`);
    }
    if (evidence['max_age_duration'] !== undefined) {
      params.evidence.maxAgeDurationNs = parseDurationNs(evidence['max_age_duration'], `${field}.evidence.max_age_duration`);
    }
    if (evidence['max_bytes'] !== undefined) params.evidence.maxBytes = parseInt64(evidence['max_bytes'], `${field}.evidence.max_bytes`);
  }
  const validator = value['validator'];
  if (isObject(validator) && validator['pub_key_types'] !== undefined) {
    const types = validator['pub_key_types'];
    if (!Array.isArray(types) || !types.every((t) => typeof t === 'string')) {
      throw genesisError(`${field}.validator.pub_key_types must be a list of strings`);
    }
    params.validator.pubKeyTypes = types as string[];
  }
  const version = value['version'];
  if (isObject(version) && version['app'] !== undefined) params.version.app = parseInt64(version['app'], `${field}.version.app`);
  const abci = value['abci'];
  if (isObject(abci) && abci['vote_extensions_enable_height'] !== undefined) {
    params.abci.voteExtensionsEnableHeight = parseInt64(abci['vote_extensions_enable_height'], `${field}.abci.vote_extensions_enable_height`);
  }
  try {
    validateConsensusParams(params);
  } catch (err) {
    throw genesisError(`invalid ${field}: ${(err as Error).message}`);
  }
  return params;
}

const PUBKEY_JSON_TYPES: Record<string, PubKeyType> = {
  'tendermint/PubKeyEd25519': 'ed25519',
  'tendermint/PubKeySecp256k1': 'secp256k1',
};

/** Amino-JSON public key {"type":"tendermint/PubKeyEd25519","value":base64}. */
export function parsePubKeyJson(value: unknown, field: string): PubKey {
  if (!isObject(value)) throw genesisError(`${field} must be an object {"type","value"}`);
  const type = PUBKEY_JSON_TYPES[String(value['type'])];
  if (!type) throw genesisError(`${field}.type ${JSON.stringify(value['type'])} is not a supported key type`, 'use tendermint/PubKeyEd25519');
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(String(value['value'] ?? ''));
  } catch {
    throw genesisError(`${field}.value is not valid base64`);
  }
  const expected = type === 'ed25519' ? ED25519_PUBKEY_SIZE : SECP256K1_PUBKEY_SIZE;
  if (bytes.length !== expected) throw genesisError(`${field}.value must be a ${expected}-byte ${type} key, got ${bytes.length} bytes`);
  return { type, bytes };
}

function parseValidators(value: unknown, field: string): GenesisValidator[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw genesisError(`${field} must be a list`);
  return value.map((raw, i) => {
    const where = `${field}[${i}]`;
    if (!isObject(raw)) throw genesisError(`${where} must be an object`);
    const pubKey = parsePubKeyJson(raw['pub_key'], `${where}.pub_key`);
    const power = parseInt64(raw['power'], `${where}.power`);
    if (power <= 0n) throw genesisError(`${where}.power must be greater than 0 (got ${power})`, 'the genesis file cannot contain validators with no voting power');
    const derived = pubKeyAddress(pubKey);
    let address = derived;
    if (typeof raw['address'] === 'string' && raw['address'] !== '') {
      try {
        address = fromHex(raw['address']);
      } catch {
        throw genesisError(`${where}.address is not hex`);
      }
      if (!bytesEqual(address, derived)) {
        throw genesisError(`incorrect address for validator ${i} in the genesis file, should be ${toHexUpper(derived)}`);
      }
    }
    return { address, pubKey, power, name: typeof raw['name'] === 'string' ? raw['name'] : '' };
  });
}

/**
 * Find the exact JSON text of a top-level member of an object (so app_state is passed on
 * byte for byte). Returns undefined when absent.
 */
export function extractRawJsonMember(text: string, key: string): string | undefined {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    while (i < n && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const skipString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const skipValue = (): void => {
    ws();
    const c = text[i];
    if (c === '"') {
      skipString();
      return;
    }
    if (c === '{' || c === '[') {
      let depth = 0;
      while (i < n) {
        const ch = text[i]!;
        if (ch === '"') {
          skipString();
          continue;
        }
        if (ch === '{' || ch === '[') depth++;
        else if (ch === '}' || ch === ']') {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      return;
    }
    while (i < n && !',}] \t\r\n'.includes(text[i]!)) i++;
  };
  ws();
  if (text[i] !== '{') return undefined;
  i++;
  for (;;) {
    ws();
    if (text[i] !== '"') return undefined;
    const name = JSON.parse(skipString()) as string;
    ws();
    if (text[i] !== ':') return undefined;
    i++;
    ws();
    const start = i;
    skipValue();
    if (name === key) return text.slice(start, i);
    ws();
    if (text[i] !== ',') return undefined;
    i++;
  }
}

/** Parse and validate a genesis document (either layout). Errors name the problem. */
export function parseGenesisDoc(text: string): GenesisDoc {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw genesisError(`genesis file is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(json)) throw genesisError('genesis file must contain a JSON object');

  const chainId = json['chain_id'];
  if (typeof chainId !== 'string' || chainId === '') throw genesisError('genesis doc must include non-empty chain_id');
  if (chainId.length > MAX_CHAIN_ID_LENGTH) {
    throw genesisError(`chain_id in genesis doc is too long (max: ${MAX_CHAIN_ID_LENGTH}, got ${chainId.length})`);
  }

  const layout: GenesisLayout = isObject(json['consensus']) || 'app_name' in json ? 'sdk' : 'cometbft';

  let initialHeight = 1;
  if (json['initial_height'] !== undefined && json['initial_height'] !== null) {
    const h = parseInt64(json['initial_height'], 'initial_height');
    if (h < 0n) throw genesisError(`initial_height cannot be negative (got ${h})`);
    if (h > BigInt(Number.MAX_SAFE_INTEGER)) throw genesisError('initial_height is too large');
    initialHeight = h === 0n ? 1 : Number(h);
  }

  let genesisTime: Timestamp;
  const rawTime = json['genesis_time'];
  if (rawTime === undefined || rawTime === null || rawTime === '') {
    genesisTime = timestampNow();
  } else {
    if (typeof rawTime !== 'string') throw genesisError('genesis_time must be an RFC 3339 string');
    const parsed = parseRfc3339(rawTime);
    if (!parsed) throw genesisError(`genesis_time "${rawTime}" is not a valid RFC 3339 time`, 'use e.g. 2024-01-02T15:04:05.123456789Z');
    genesisTime = isZeroTime(parsed) ? timestampNow() : parsed;
  }

  let consensusParams: ConsensusParams;
  let validators: GenesisValidator[];
  if (layout === 'sdk') {
    const consensus = isObject(json['consensus']) ? json['consensus'] : {};
    consensusParams = parseConsensusParamsJson(consensus['params'], 'consensus.params');
    validators = parseValidators(consensus['validators'], 'consensus.validators');
  } else {
    consensusParams = parseConsensusParamsJson(json['consensus_params'], 'consensus_params');
    validators = parseValidators(json['validators'], 'validators');
  }
  const seen = new Set<string>();
  for (const v of validators) {
    const id = toHexUpper(v.address);
    if (seen.has(id)) throw genesisError(`duplicate validator ${id} in the genesis file`);
    seen.add(id);
  }

  let appHash: Uint8Array = EMPTY_BYTES;
  const rawAppHash = json['app_hash'];
  if (typeof rawAppHash === 'string' && rawAppHash !== '') {
    try {
      // SDK layout marshals []byte as base64, CometBFT's HexBytes as hex.
      appHash = layout === 'sdk' ? fromBase64(rawAppHash) : fromHex(rawAppHash);
    } catch {
      throw genesisError(`app_hash "${rawAppHash}" is not ${layout === 'sdk' ? 'base64' : 'hex'}`);
    }
  } else if (rawAppHash !== undefined && rawAppHash !== null && rawAppHash !== '') {
    throw genesisError('app_hash must be a string or null');
  }

  const appStateJson = 'app_state' in json ? (extractRawJsonMember(text, 'app_state') ?? JSON.stringify(json['app_state'])) : '';

  const doc: GenesisDoc = { genesisTime, chainId, initialHeight, consensusParams, validators, appHash, appStateJson, layout };
  if (typeof json['app_name'] === 'string') doc.appName = json['app_name'];
  if (typeof json['app_version'] === 'string') doc.appVersion = json['app_version'];
  return doc;
}

/** Read and validate a genesis file. */
export async function loadGenesisFile(path: string): Promise<GenesisDoc> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw genesisError(`couldn't read genesis file ${path}: ${(err as Error).message}`, 'run `tokend init` first or pass --home');
  }
  try {
    return parseGenesisDoc(text);
  } catch (err) {
    if (err instanceof ConsensusError) throw genesisError(`error reading genesis at ${path}: ${err.message}`, err.hint);
    throw err;
  }
}
