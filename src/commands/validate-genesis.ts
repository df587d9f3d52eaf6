import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';

interface ValidateResult {
  file: string;
  chain_id: string;
  valid: true;
}

export default class ValidateGenesis extends BaseCommand<typeof ValidateGenesis, ValidateResult> {
  static override summary = 'Validate the genesis file at the default location or at a given path';
  static override examples = ['<%= config.bin %> validate-genesis', '<%= config.bin %> validate-genesis ./exported.json'];
  static override args = { file: Args.string({ description: 'Path of the genesis file (default config/genesis.json)' }) };

  async execute(): Promise<ValidateResult> {
    const { defaultGenesisPath } = await import('../node/genesis/file.js');
    const { validateGenesisFile } = await import('../node/genesis/setup.js');
    const file = this.args.file ?? defaultGenesisPath(this.home);
    const { chainId } = validateGenesisFile(file);
    return { file, chain_id: chainId, valid: true };
  }

  protected override async renderText(result: ValidateResult): Promise<string> {
    return `File at ${result.file} is a valid genesis file`;
  }
}
