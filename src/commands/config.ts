import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import {
  assertClientConfigKey,
  readClientConfigFile,
  setClientConfigValue,
  CLIENT_CONFIG_DEFAULTS,
  type ClientConfig,
} from '../node/config/client.js';

type ConfigResult = ClientConfig | { key: string; value: string | boolean };

export default class Config extends BaseCommand<typeof Config, ConfigResult> {
  static override summary = 'Create or query the client configuration (client.toml)';
  static override description =
    'With no argument, print every client setting; with KEY, print one; with KEY VALUE, set one in <home>/config/client.toml.\n' +
    'Keys: chain-id, keyring-backend, output, node, broadcast-mode, trust-node.';
  static override examples = [
    '<%= config.bin %> config',
    '<%= config.bin %> config node tcp://localhost:26657',
    '<%= config.bin %> config chain-id testnet',
    '<%= config.bin %> config trust-node false',
  ];
  static override args = {
    key: Args.string({ description: 'Config key' }),
    value: Args.string({ description: 'New value' }),
  };

  async execute(): Promise<ConfigResult> {
    const { key, value } = this.args;
    if (key === undefined) return { ...CLIENT_CONFIG_DEFAULTS, ...readClientConfigFile(this.home) };
    assertClientConfigKey(key);
    if (value === undefined) return { key, value: { ...CLIENT_CONFIG_DEFAULTS, ...readClientConfigFile(this.home) }[key] };
    const next = setClientConfigValue(this.home, key, value);
    return { key, value: next[key] };
  }

  protected override async renderText(result: ConfigResult): Promise<string | undefined> {
    if ('key' in result) return this.args.value === undefined ? String(result.value) : undefined;
    return super.renderText(result);
  }
}
