import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyringFlags, openCliKeyring } from '../../cli/keys.js';
import { confirm } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

export default class KeysDelete extends BaseCommand<typeof KeysDelete, { deleted: string }> {
  static override summary = 'Delete a key';
  static override examples = ['<%= config.bin %> keys delete alice --yes'];
  static override args = { name: Args.string({ required: true, description: 'Key name' }) };
  static override flags = {
    ...keyringFlags,
    yes: Flags.boolean({ char: 'y', description: 'Skip the confirmation' }),
  };

  async execute(): Promise<{ deleted: string }> {
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    const record = await keyring.record(this.args.name);
    if (!this.flags.yes && !(await confirm(`Key "${record.name}" will be deleted. Continue?`))) {
      throw new TokendError('ABORTED', 'aborted: key not deleted', { hint: 'pass --yes to skip the confirmation' });
    }
    await keyring.delete(record.name);
    return { deleted: record.name };
  }

  protected override async renderText(result: { deleted: string }): Promise<string | undefined> {
    this.note(`Key "${result.deleted}" deleted.`);
    return undefined;
  }
}
