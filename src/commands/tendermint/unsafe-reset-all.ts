import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import type { ResetResult } from '../../node/consensus/reset.js';

type Result = ResetResult & { validator_state: string };

export default class UnsafeResetAll extends BaseCommand<typeof UnsafeResetAll, Result> {
  static override summary = '(unsafe) Remove all the data and WAL, reset this node\'s validator to genesis state';
  static override description =
    'Removes every byte of data under data/ (application state, blocks, indexes), the WAL and the address book (unless --keep-addr-book), ' +
    'and resets the validator sign state to height 0 (the key is kept). The node must be stopped. Never run it on a validator that may have signed blocks the chain still has: it can double-sign.';
  static override examples = ['<%= config.bin %> tendermint unsafe-reset-all --home ./node1 --keep-addr-book'];
  static override flags = {
    'keep-addr-book': Flags.boolean({ description: 'Keep the address book intact' }),
  };

  async execute(): Promise<Result> {
    const { unsafeResetAll } = await import('../../node/consensus/reset.js');
    const { DATABASE_DIRNAME } = await import('../../node/node.js');
    return unsafeResetAll(this.home, DATABASE_DIRNAME, this.flags['keep-addr-book']);
  }

  protected override async renderText(result: Result): Promise<string> {
    return [...result.removed.map((r) => `Removed ${r}`), result.validator_state].join('\n');
  }
}
