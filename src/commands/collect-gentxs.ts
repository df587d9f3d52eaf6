import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';

interface CollectResult {
  genesis_file: string;
  gentxs: string[];
}

export default class CollectGentxs extends BaseCommand<typeof CollectGentxs, CollectResult> {
  static override summary = 'Collect genesis transactions into genesis.json';
  static override examples = ['<%= config.bin %> collect-gentxs'];
  static override flags = {
    'gentx-dir': Flags.string({ description: 'Directory of gentx files (default config/gentx)' }),
  };

  async execute(): Promise<CollectResult> {
    const { collectGentxsIntoFile } = await import('../node/genesis/setup.js');
    return collectGentxsIntoFile(this.home, this.flags['gentx-dir']);
  }

  protected override async renderText(result: CollectResult): Promise<string> {
    return `Collected ${result.gentxs.length} gentx(s) into ${result.genesis_file}`;
  }
}
