import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyringFlags, openCliKeyring } from '../../cli/keys.js';
import { confirm, readSecret } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

interface ExportResult {
  name: string;
  armor?: string;
  private_key_hex?: string;
}

export default class KeysExport extends BaseCommand<typeof KeysExport, ExportResult> {
  static override summary = 'Export a private key as password-encrypted ASCII armor';
  static override description =
    'Prints the key in the Cosmos SDK armor format (bcrypt + xsalsa20-poly1305), importable with `keys import` here or by a Go node.\n' +
    'Asks for the keyring passphrase first (file backend), then the passphrase that encrypts the export; both can be piped one per line.';
  static override examples = [
    '<%= config.bin %> keys export alice > alice.armor',
    '<%= config.bin %> keys export alice --unarmored-hex --unsafe --yes',
  ];
  static override args = { name: Args.string({ required: true, description: 'Key name' }) };
  static override flags = {
    ...keyringFlags,
    'unarmored-hex': Flags.boolean({ description: 'Export the unencrypted private key as hex (requires --unsafe)' }),
    unsafe: Flags.boolean({ description: 'Allow exporting the unencrypted private key' }),
    yes: Flags.boolean({ char: 'y', description: 'Skip the confirmation for --unarmored-hex' }),
  };

  async execute(): Promise<ExportResult> {
    if (this.flags['unarmored-hex'] && !this.flags.unsafe) {
      throw new TokendError('INVALID_ARGUMENT', '--unarmored-hex needs --unsafe', { hint: 'the raw private key gives full control of the account', exitCode: 2 });
    }
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const record = await keyring.get(this.args.name);
    if (this.flags['unarmored-hex']) {
      if (!this.flags.yes && !(await confirm('WARNING: the private key will be printed unencrypted. Continue?'))) {
        throw new TokendError('ABORTED', 'aborted: nothing exported', { hint: 'pass --yes to skip the confirmation' });
      }
      return { name: record.name, private_key_hex: await keyring.exportPrivateKeyHex(record.name) };
    }
    const passphrase = await readSecret('Enter passphrase to encrypt the exported key: ', 'the export passphrase');
    if (passphrase.length === 0) throw new TokendError('INVALID_PASSWORD', 'the export passphrase must not be empty');
    return { name: record.name, armor: await keyring.exportArmor(record.name, passphrase) };
  }

  protected override async renderText(result: ExportResult): Promise<string> {
    return (result.armor ?? result.private_key_hex ?? '').trimEnd();
  }
}
