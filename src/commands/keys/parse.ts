import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';

interface ParseResult {
  input: string;
  format: 'bech32' | 'hex';
  prefix?: string;
  hex: string;
  bytes: string;
  formats: string[];
}

export default class KeysParse extends BaseCommand<typeof KeysParse, ParseResult> {
  static override summary = 'Convert an address between bech32 and hex';
  static override description = 'Given a bech32 address (any chain prefix), prints its hex forms; given a hex address, prints its bech32 forms (token, tokenvaloper, tokenvalcons).';
  static override examples = ['<%= config.bin %> keys parse token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '<%= config.bin %> keys parse 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'];
  static override args = { address: Args.string({ required: true, description: 'bech32 or hex address' }) };

  async execute(): Promise<ParseResult> {
    const { convertAddress } = await import('../../keyring/address.js');
    const converted = convertAddress(this.args.address);
    const { forms } = converted;
    return {
      input: this.args.address.trim(),
      format: converted.input.format,
      prefix: converted.input.format === 'bech32' ? converted.input.prefix : undefined,
      hex: forms.hex,
      bytes: forms.bytes,
      formats: [forms.account, forms.validatorOperator, forms.consensus],
    };
  }

  protected override async renderText(result: ParseResult): Promise<string> {
    if (result.format === 'bech32') return `human: ${result.prefix}\nbytes: ${result.bytes}\nhex: ${result.hex}`;
    return `formats:\n${result.formats.map((form) => `- ${form}`).join('\n')}`;
  }
}
