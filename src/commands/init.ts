import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { parseClientConfigValue, CLIENT_CONFIG_DEFAULTS } from '../node/config/client.js';
import type { InitResult } from '../node/genesis/setup.js';

export default class Init extends BaseCommand<typeof Init, InitResult> {
  static override summary = 'Initialize private validator, p2p, genesis and application configuration files';
  static override description =
    'Writes config/{config.toml,app.toml,client.toml,genesis.json,priv_validator_key.json,node_key.json} and data/ under --home.\n' +
    'Refuses to replace an existing genesis.json unless --overwrite is given; an existing validator key is kept.';
  static override examples = ['<%= config.bin %> init mynode --chain-id testnet', '<%= config.bin %> init mynode --overwrite --default-denom attotoken'];
  static override args = { moniker: Args.string({ required: true, description: 'Human-readable name of this node' }) };
  static override flags = {
    'chain-id': Flags.string({ description: 'Genesis chain id (default testnet)' }),
    overwrite: Flags.boolean({ description: 'Overwrite the existing genesis.json and configuration' }),
    'default-denom': Flags.string({ description: 'Denom of the native token in the genesis (staking, fees)', default: 'attotoken' }),
    'initial-height': Flags.integer({ description: 'Height of the first block', default: 1, min: 1 }),
  };

  async execute(): Promise<InitResult> {
    const chainId = parseClientConfigValue('chain-id', this.flags['chain-id'] ?? CLIENT_CONFIG_DEFAULTS['chain-id']);
    const { initHome } = await import('../node/genesis/setup.js');
    return initHome({
      home: this.home,
      moniker: this.args.moniker,
      chainId,
      denom: this.flags['default-denom'],
      overwrite: this.flags.overwrite,
      initialHeight: this.flags['initial-height'],
    });
  }

  protected override async renderText(result: InitResult): Promise<string> {
    return JSON.stringify(result, null, 2);
  }
}
