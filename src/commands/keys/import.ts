import { readFileSync } from 'node:fs';
import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, type KeyOutput } from '../../cli/keys.js';
import { readSecret } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

export default class KeysImport extends BaseCommand<typeof KeysImport, KeyOutput> {
  static override summary = 'Import a key from an ASCII-armored private key file';
  static override description =
    'Reads a `-----BEGIN TENDERMINT PRIVATE KEY-----` file written by `keys export` (ours or a Cosmos SDK node\'s).\n' +
    'Asks for the keyring passphrase first (file backend), then the passphrase that decrypts the file.';
  static override examples = ['<%= config.bin %> keys import alice alice.armor'];
  static override args = {
    name: Args.string({ required: true, description: 'Name for the imported key' }),
    keyfile: Args.string({ required: true, description: 'Path of the armored key file' }),
  };
  static override flags = { ...keyringFlags };

  async execute(): Promise<KeyOutput> {
    const { checkKeyName } = await import('../../keyring/keyring.js');
    const { checkPrivateKeyArmor } = await import('../../keyring/armor.js');
    checkKeyName(this.args.name);
    let armor: string;
    try {
      armor = readFileSync(this.args.keyfile, 'utf8');
    } catch (err) {
      throw new TokendError('INVALID_ARGUMENT', `cannot read ${this.args.keyfile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    checkPrivateKeyArmor(armor);
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    if (await keyring.has(this.args.name)) {
      throw new TokendError('KEY_EXISTS', `a key named "${this.args.name}" already exists`, { hint: 'choose another name' });
    }
    const passphrase = await readSecret('Enter passphrase to decrypt your key: ', 'the armor passphrase');
    return keyOutput(await keyring.importArmor(this.args.name, armor, passphrase));
  }

  protected override async renderText(result: KeyOutput): Promise<string> {
    return renderKeyTable([result]);
  }
}
