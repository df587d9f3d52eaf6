import { BaseCommand } from '../../cli/base.js';

export default class KeysMnemonic extends BaseCommand<typeof KeysMnemonic, { mnemonic: string }> {
  static override summary = 'Generate a new 24-word BIP-39 mnemonic from system entropy (nothing is stored)';
  static override examples = ['<%= config.bin %> keys mnemonic'];

  async execute(): Promise<{ mnemonic: string }> {
    const { generateMnemonic } = await import('../../keyring/hd.js');
    return { mnemonic: generateMnemonic(24) };
  }

  protected override async renderText(result: { mnemonic: string }): Promise<string> {
    return result.mnemonic;
  }
}
