import { BaseCommand } from '../../cli/base.js';
import type { ResetResult } from '../../node/consensus/reset.js';

export default class ResetState extends BaseCommand<typeof ResetState, ResetResult> {
  static override summary = 'Remove all the data and WAL';
  static override description =
    "Removes the consensus data (block store, consensus state, evidence), the tx index and the consensus WAL. The application's state and the validator key and sign state are kept. The node must be stopped.";
  static override examples = ['<%= config.bin %> tendermint reset-state --home ./node1'];

  async execute(): Promise<ResetResult> {
    const { resetState } = await import('../../node/consensus/reset.js');
    const { DATABASE_DIRNAME } = await import('../../node/node.js');
    return resetState(this.home, DATABASE_DIRNAME);
  }

  protected override async renderText(result: ResetResult): Promise<string> {
    return result.removed.length ? result.removed.map((r) => `Removed ${r}`).join('\n') : 'Nothing to remove';
  }
}
