import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';

interface AddrResult {
  address_bytes: number[];
  address_hex: string;
  eip55: string;
  bech32_acc: string;
  bech32_val: string;
  bech32_con: string;
}

export default class DebugAddr extends BaseCommand<typeof DebugAddr, AddrResult> {
  static override summary = 'Convert an address between hex and bech32 (any of our prefixes)';
  static override examples = ['<%= config.bin %> debug addr token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', '<%= config.bin %> debug addr 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'];
  static override args = { address: Args.string({ required: true, description: 'bech32 (token/tokenvaloper/tokenvalcons) or hex address' }) };

  async execute(): Promise<AddrResult> {
    const { addressForms, parseAddress } = await import('../../keyring/address.js');
    const forms = addressForms(parseAddress(this.args.address));
    return {
      address_bytes: [...Buffer.from(forms.bytes, 'hex')],
      address_hex: forms.bytes,
      eip55: forms.hex,
      bech32_acc: forms.account,
      bech32_val: forms.validatorOperator,
      bech32_con: forms.consensus,
    };
  }

  protected override async renderText(result: AddrResult): Promise<string> {
    return [
      `Address: [${result.address_bytes.join(' ')}]`,
      `Address (hex): ${result.address_hex}`,
      `Address (EIP-55): ${result.eip55}`,
      `Bech32 Acc: ${result.bech32_acc}`,
      `Bech32 Val: ${result.bech32_val}`,
      `Bech32 Con: ${result.bech32_con}`,
    ].join('\n');
  }
}
