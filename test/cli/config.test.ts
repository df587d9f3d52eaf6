import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  resolveClientConfig,
  setClientConfigValue,
  readClientConfigFile,
  clientConfigPath,
  CLIENT_CONFIG_DEFAULTS,
} from '../../src/node/config/client.js';
import { TokendError } from '../../src/util/errors.js';
import { tempHome } from '../helpers/cli.js';

describe('client config', () => {
  test('defaults when no client.toml exists', () => {
    const home = tempHome();
    expect(resolveClientConfig(home, {}, {})).toEqual(CLIENT_CONFIG_DEFAULTS);
    expect(CLIENT_CONFIG_DEFAULTS).toMatchObject({ 'chain-id': 'testnet', 'keyring-backend': 'os', node: 'tcp://localhost:26657', 'broadcast-mode': 'sync' });
  });

  test('precedence: flag > env > client.toml > default', () => {
    const home = tempHome();
    setClientConfigValue(home, 'chain-id', 'from-file');
    expect(resolveClientConfig(home, {}, {})['chain-id']).toBe('from-file');
    expect(resolveClientConfig(home, {}, { TOKEND_CHAIN_ID: 'from-env' })['chain-id']).toBe('from-env');
    expect(resolveClientConfig(home, { 'chain-id': 'from-flag' }, { TOKEND_CHAIN_ID: 'from-env' })['chain-id']).toBe('from-flag');
    expect(resolveClientConfig(home, {}, { TOKEND_KEYRING_BACKEND: 'test' })['keyring-backend']).toBe('test');
  });

  test('set keeps other keys and normalises node addresses', () => {
    const home = tempHome();
    setClientConfigValue(home, 'node', 'example.org:26657');
    setClientConfigValue(home, 'trust-node', 'false');
    const file = readClientConfigFile(home);
    expect(file.node).toBe('tcp://example.org:26657');
    expect(file['trust-node']).toBe(false);
    expect(readFileSync(clientConfigPath(home), 'utf8')).toContain('node = "tcp://example.org:26657"');
  });

  test.each([
    ['nodex', 'x', 'CONFIG_UNKNOWN_KEY', /unknown config key "nodex"/],
    ['output', 'xml', 'CONFIG_INVALID', /invalid value "xml" for output/],
    ['keyring-backend', 'vault', 'CONFIG_INVALID', /use one of: os, file, test, memory/],
    ['broadcast-mode', 'fast', 'CONFIG_INVALID', /broadcast-mode/],
    ['trust-node', 'maybe', 'CONFIG_INVALID', /true or false/],
    ['node', 'ftp://x:1', 'CONFIG_INVALID', /invalid node address/],
    ['chain-id', 'bad chain id', 'CONFIG_INVALID', /invalid chain-id/],
  ])('rejects %s=%s without writing anything', (key, value, code, message) => {
    const home = tempHome();
    let caught: unknown;
    try {
      setClientConfigValue(home, key, value);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TokendError);
    expect((caught as TokendError).code).toBe(code);
    expect((caught as TokendError).line).toMatch(message);
    expect(existsSync(clientConfigPath(home))).toBe(false);
  });

  test('a corrupt client.toml is reported with its path', () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(clientConfigPath(home), 'node = [unclosed');
    expect(() => readClientConfigFile(home)).toThrow(/cannot parse .*client.toml/);
  });

  test('an invalid environment value names the variable', () => {
    const home = tempHome();
    expect(() => resolveClientConfig(home, {}, { TOKEND_OUTPUT: 'xml' })).toThrow(/TOKEND_OUTPUT/);
  });
});
