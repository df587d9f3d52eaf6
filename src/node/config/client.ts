/**
 * Client configuration: `<home>/config/client.toml`.
 *
 * Precedence for every key: command-line flag > environment (`TOKEND_<KEY>`, dashes as
 * underscores) > client.toml > built-in default.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { TokendError } from '../../util/errors.js';
import { configDir, ensureWritableDir } from './home.js';

export const OUTPUT_FORMATS = ['text', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const KEYRING_BACKENDS = ['os', 'file', 'test', 'memory'] as const;
export type KeyringBackendName = (typeof KEYRING_BACKENDS)[number];
export const BROADCAST_MODES = ['sync', 'async', 'block'] as const;
export type BroadcastMode = (typeof BROADCAST_MODES)[number];

export interface ClientConfig {
  'chain-id': string;
  'keyring-backend': KeyringBackendName;
  output: OutputFormat;
  node: string;
  'broadcast-mode': BroadcastMode;
  'trust-node': boolean;
}

export type ClientConfigKey = keyof ClientConfig;

export const CLIENT_CONFIG_DEFAULTS: Readonly<ClientConfig> = Object.freeze({
  'chain-id': 'testnet',
  'keyring-backend': 'os',
  output: 'text',
  node: 'tcp://localhost:26657',
  'broadcast-mode': 'sync',
  'trust-node': false,
});

export const CLIENT_CONFIG_KEYS = Object.keys(CLIENT_CONFIG_DEFAULTS) as ClientConfigKey[];

const CHAIN_ID_PATTERN = /^[a-zA-Z0-9_.-]{1,50}$/;

function oneOf<T extends string>(key: string, allowed: readonly T[], value: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new TokendError('CONFIG_INVALID', `invalid value "${value}" for ${key}`, { hint: `use one of: ${allowed.join(', ')}` });
}

/** Validate and normalise a node address: `host:port`, `tcp://…`, `http(s)://…`. */
export function normalizeNodeAddress(value: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(value) ? value : `tcp://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme.replace(/^tcp:/i, 'http:'));
  } catch {
    throw new TokendError('CONFIG_INVALID', `invalid node address "${value}"`, { hint: 'use <host>:<port>, e.g. tcp://localhost:26657' });
  }
  const scheme = withScheme.slice(0, withScheme.indexOf(':')).toLowerCase();
  if (!['tcp', 'http', 'https'].includes(scheme) || !url.hostname) {
    throw new TokendError('CONFIG_INVALID', `invalid node address "${value}"`, { hint: 'use <host>:<port>, e.g. tcp://localhost:26657' });
  }
  return withScheme;
}

/** Parse a user-supplied string for `key` into its typed value, or fail with one clear line. */
export function parseClientConfigValue<K extends ClientConfigKey>(key: K, raw: string): ClientConfig[K] {
  const value = raw.trim();
  switch (key) {
    case 'chain-id':
      if (!CHAIN_ID_PATTERN.test(value)) {
        throw new TokendError('CONFIG_INVALID', `invalid chain-id "${raw}"`, { hint: 'use 1–50 letters, digits, "_", "-" or "."' });
      }
      return value as ClientConfig[K];
    case 'keyring-backend':
      return oneOf(key, KEYRING_BACKENDS, value) as ClientConfig[K];
    case 'output':
      return oneOf(key, OUTPUT_FORMATS, value) as ClientConfig[K];
    case 'broadcast-mode':
      return oneOf(key, BROADCAST_MODES, value) as ClientConfig[K];
    case 'node':
      return normalizeNodeAddress(value) as ClientConfig[K];
    case 'trust-node':
      if (value !== 'true' && value !== 'false') {
        throw new TokendError('CONFIG_INVALID', `invalid value "${raw}" for trust-node`, { hint: 'use true or false' });
      }
      return (value === 'true') as ClientConfig[K];
    default:
      throw unknownKey(key);
  }
}

function unknownKey(key: string): TokendError {
  return new TokendError('CONFIG_UNKNOWN_KEY', `unknown config key "${key}"`, { hint: `known keys: ${CLIENT_CONFIG_KEYS.join(', ')}` });
}

export function assertClientConfigKey(key: string): asserts key is ClientConfigKey {
  if (!(CLIENT_CONFIG_KEYS as string[]).includes(key)) throw unknownKey(key);
}

export function clientConfigPath(home: string): string {
  return join(configDir(home), 'client.toml');
}

/** The keys set in client.toml (validated); missing file → {}. */
export function readClientConfigFile(home: string): Partial<ClientConfig> {
  const path = clientConfigPath(home);
  if (!existsSync(path)) return {};
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new TokendError('CONFIG_INVALID', `cannot parse ${path}: ${(err as Error).message.split('\n')[0]}`, {
      hint: 'fix the file or delete it to fall back to defaults',
    });
  }
  const out: Partial<ClientConfig> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!(CLIENT_CONFIG_KEYS as string[]).includes(key)) continue; // tolerate keys from newer versions
    const typedKey = key as ClientConfigKey;
    try {
      (out as Record<string, unknown>)[typedKey] = parseClientConfigValue(typedKey, String(value));
    } catch (err) {
      throw new TokendError('CONFIG_INVALID', `${path}: ${(err as TokendError).line}`);
    }
  }
  return out;
}

export function renderClientToml(config: ClientConfig): string {
  const lines = [
    '# tokend client configuration: defaults for commands that talk to a node.',
    '# Precedence: command-line flag > TOKEND_* environment variable > this file > built-in default.',
    '',
    '# The chain id used when signing transactions.',
    `chain-id = ${JSON.stringify(config['chain-id'])}`,
    '# Keyring backend: os | file | test | memory.',
    `keyring-backend = ${JSON.stringify(config['keyring-backend'])}`,
    '# Output format of commands: text | json.',
    `output = ${JSON.stringify(config.output)}`,
    '# The consensus RPC address of the node to talk to (<host>:<port>).',
    `node = ${JSON.stringify(config.node)}`,
    '# How transactions are broadcast: sync | async | block.',
    `broadcast-mode = ${JSON.stringify(config['broadcast-mode'])}`,
    '# Trust the node\'s answers without verifying proofs (true only for a light client setup).',
    `trust-node = ${config['trust-node']}`,
    '',
  ];
  return lines.join('\n');
}

/** Write a complete client.toml atomically (temp file + rename). */
export function writeClientConfigFile(home: string, config: ClientConfig): void {
  ensureWritableDir(configDir(home));
  const path = clientConfigPath(home);
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, renderClientToml(config), { mode: 0o644 });
  renameSync(tmp, path);
}

/** Set one key in client.toml, keeping the others. Validates before writing anything. */
export function setClientConfigValue(home: string, key: string, raw: string): ClientConfig {
  assertClientConfigKey(key);
  const value = parseClientConfigValue(key, raw);
  const next: ClientConfig = { ...CLIENT_CONFIG_DEFAULTS, ...readClientConfigFile(home), [key]: value };
  writeClientConfigFile(home, next);
  return next;
}

export function envName(key: ClientConfigKey): string {
  return `TOKEND_${key.toUpperCase().replace(/-/g, '_')}`;
}

/** Resolve the effective client configuration. `flags` holds only values the user typed. */
export function resolveClientConfig(
  home: string,
  flags: Partial<Record<ClientConfigKey, string | boolean | undefined>> = {},
  env: NodeJS.ProcessEnv = process.env,
): ClientConfig {
  const file = readClientConfigFile(home);
  const out = { ...CLIENT_CONFIG_DEFAULTS, ...file } as ClientConfig;
  for (const key of CLIENT_CONFIG_KEYS) {
    const fromEnv = env[envName(key)];
    if (fromEnv !== undefined && fromEnv !== '') {
      try {
        (out as unknown as Record<string, unknown>)[key] = parseClientConfigValue(key, fromEnv);
      } catch (err) {
        throw new TokendError('CONFIG_INVALID', `${envName(key)}: ${(err as TokendError).line}`);
      }
    }
    const fromFlag = flags[key];
    if (fromFlag !== undefined) {
      (out as unknown as Record<string, unknown>)[key] = parseClientConfigValue(key, String(fromFlag));
    }
  }
  return out;
}
