import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, type KeyOutput } from '../../cli/keys.js';
import { TokendError } from '../../util/errors.js';

export default class KeysShow extends BaseCommand<typeof KeysShow, KeyOutput> {
  static override summary = 'Show a key by name or address';
  static override examples = [
    '<%= config.bin %> keys show alice',
    'ADDR=$(<%= config.bin %> keys show alice -a)',
    '<%= config.bin %> keys show alice --bech val -a',
    '<%= config.bin %> keys show alice -p',
  ];
  static override args = { name: Args.string({ required: true, description: 'Key name, or its bech32/hex address' }) };
  static override flags = {
    ...keyringFlags,
    address: Flags.boolean({ char: 'a', description: 'Print only the address (bech32)' }),
    pubkey: Flags.boolean({ char: 'p', description: 'Print only the public key' }),
    bech: Flags.option({ options: ['acc', 'val', 'cons'] as const, default: 'acc', description: 'Bech32 prefix kind of the address' })(),
  };

  async execute(): Promise<KeyOutput> {
    if (this.flags.address && this.flags.pubkey) {
      throw new TokendError('INVALID_ARGUMENT', '--address and --pubkey cannot be used together', { exitCode: 2 });
    }
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    return keyOutput(await keyring.record(this.args.name), this.flags.bech);
  }

  protected override toJson(result: KeyOutput): unknown {
    if (this.flags.pubkey) return JSON.parse(result.pubkey) as unknown;
    if (this.flags.address) return { address: result.address };
    return result;
  }

  // -a and -p print the bare value in text mode, so `$(tokend keys show k -a)` works.
  protected override async renderText(result: KeyOutput): Promise<string> {
    if (this.flags.address) return result.address;
    if (this.flags.pubkey) return result.pubkey;
    return renderKeyTable([result]);
  }
}
