import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, type KeyOutput } from '../../cli/keys.js';
import { TokendError } from '../../util/errors.js';

export default class KeysImportHex extends BaseCommand<typeof KeysImportHex, KeyOutput> {
  static override summary = 'Import a key from a hex-encoded private key';
  static override examples = ['<%= config.bin %> keys import-hex alice ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'];
  static override args = {
    name: Args.string({ required: true, description: 'Name for the imported key' }),
    hex: Args.string({ required: true, description: '32-byte private key in hex (0x optional)' }),
  };
  static override flags = {
    ...keyringFlags,
    algo: Flags.option({ options: ['eth_secp256k1', 'secp256k1'] as const, default: 'eth_secp256k1', description: 'Key algorithm' })(),
  };

  async execute(): Promise<KeyOutput> {
    const { checkKeyName } = await import('../../keyring/keyring.js');
    const { parsePrivateKeyHex } = await import('../../keyring/keys.js');
    checkKeyName(this.args.name);
    const privateKey = parsePrivateKeyHex(this.args.hex);
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    if (await keyring.has(this.args.name)) {
      throw new TokendError('KEY_EXISTS', `a key named "${this.args.name}" already exists`, { hint: 'choose another name' });
    }
    return keyOutput(await keyring.importPrivateKey(this.args.name, this.flags.algo, privateKey));
  }

  protected override async renderText(result: KeyOutput): Promise<string> {
    return renderKeyTable([result]);
  }
}
