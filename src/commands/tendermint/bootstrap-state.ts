import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';

export default class BootstrapState extends BaseCommand<typeof BootstrapState, { height: number; app_hash: string }> {
  static override summary = 'Bootstrap CometBFT state at an arbitrary block height using a light client';
  static override description =
    'Writes the consensus state (validators, params, the commit) of --height, verified by the light client configured in config.toml [statesync] ' +
    '(rpc_servers, trust_height, trust_hash, trust_period). The application state of that height must already be in the home (e.g. restored from a snapshot). ' +
    'Refuses a home that already has consensus state. The node must be stopped.';
  static override examples = ['<%= config.bin %> tendermint bootstrap-state --height 1000000'];
  static override flags = {
    height: Flags.integer({ description: "Block height to bootstrap state at (default: the app state's latest height)", min: 0, default: 0 }),
  };

  async execute(): Promise<{ height: number; app_hash: string }> {
    const { bootstrapNodeState } = await import('../../node/node.js');
    return bootstrapNodeState(this.home, this.flags.height || undefined);
  }
}
