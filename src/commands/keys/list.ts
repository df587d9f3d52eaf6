import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, type KeyOutput } from '../../cli/keys.js';

export default class KeysList extends BaseCommand<typeof KeysList, KeyOutput[]> {
  static override summary = 'List all keys';
  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list -o json --keyring-backend test'];
  static override flags = {
    ...keyringFlags,
    'list-names': Flags.boolean({ char: 'n', description: 'List names only' }),
  };

  async execute(): Promise<KeyOutput[]> {
    const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const records = await keyring.list();
    return Promise.all(records.map((record) => keyOutput(record)));
  }

  protected override toJson(result: KeyOutput[]): unknown {
    return this.flags['list-names'] ? result.map((key) => key.name) : result;
  }

  protected override async renderText(result: KeyOutput[]): Promise<string | undefined> {
    if (this.flags['list-names']) return result.map((key) => key.name).join('\n') || undefined;
    if (result.length === 0) {
      this.note('No keys in this keyring. Create one with `tokend keys add <name>`.');
      return undefined;
    }
    return renderKeyTable(result);
  }
}
