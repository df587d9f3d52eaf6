import { writeFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';

export default class Export extends BaseCommand<typeof Export, Record<string, unknown>> {
  static override summary = 'Export state to JSON';
  static override description = 'Writes the state at --height (default latest) as a genesis document that validate-genesis accepts and that starts a new chain with the same balances. The node must be stopped.';
  static override examples = ['<%= config.bin %> export > exported.json', '<%= config.bin %> export --height 42 --output-document exported.json'];
  static override flags = {
    height: Flags.integer({ description: 'Height to export (default latest)', min: 1 }),
    'output-document': Flags.string({ description: 'Write the genesis here instead of stdout' }),
  };

  async execute(): Promise<Record<string, unknown>> {
    const { exportGenesis } = await import('../node/node.js');
    const genesis = await exportGenesis(this.home, this.flags.height);
    if (this.flags['output-document']) writeFileSync(this.flags['output-document'], `${JSON.stringify(genesis, null, 2)}\n`);
    return genesis;
  }

  protected override async print(result: Record<string, unknown>): Promise<void> {
    if (this.flags['output-document']) {
      this.note(`Exported genesis written to ${this.flags['output-document']}`);
      return;
    }
    // A genesis document is JSON whatever the output format.
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  }
}
