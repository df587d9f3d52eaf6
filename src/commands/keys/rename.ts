import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, type KeyOutput } from '../../cli/keys.js';
import { confirm } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

export default class KeysRename extends BaseCommand<typeof KeysRename, KeyOutput> {
  static override summary = 'Rename a key';
  static override examples = ['<%= config.bin %> keys rename alice treasury --yes'];
  static override args = {
    old: Args.string({ required: true, description: 'Current name' }),
    new: Args.string({ required: true, description: 'New name' }),
  };
  static override flags = {
    ...keyringFlags,
    yes: Flags.boolean({ char: 'y', description: 'Skip the confirmation' }),
  };

  async execute(): Promise<KeyOutput> {
    const { checkKeyName } = await import('../../keyring/keyring.js');
    checkKeyName(this.args.new);
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    await keyring.record(this.args.old);
    if (await keyring.has(this.args.new)) {
      throw new TokendError('KEY_EXISTS', `a key named "${this.args.new}" already exists`, { hint: 'choose another name' });
    }
    if (!this.flags.yes && !(await confirm(`Key "${this.args.old}" will be renamed to "${this.args.new}". Continue?`))) {
      throw new TokendError('ABORTED', 'aborted: key not renamed', { hint: 'pass --yes to skip the confirmation' });
    }
    return keyOutput(await keyring.rename(this.args.old, this.args.new));
  }

  protected override async renderText(result: KeyOutput): Promise<string> {
    return renderKeyTable([result]);
  }
}
