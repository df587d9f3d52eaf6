import { BaseCommand } from '../cli/base.js';

export default class Rollback extends BaseCommand<typeof Rollback, { height: number; app_hash: string }> {
  static override summary = 'Roll back application and consensus state by one height';
  static override description =
    'The node must be stopped. The last block stays in the block store and is executed again on the next start, so a node can recover from a bad app state (e.g. after an app-hash mismatch).';
  static override examples = ['<%= config.bin %> rollback'];

  async execute(): Promise<{ height: number; app_hash: string }> {
    const { rollbackNode } = await import('../node/node.js');
    return rollbackNode(this.home);
  }

  protected override async renderText(result: { height: number; app_hash: string }): Promise<string> {
    return `Rolled back state to height ${result.height} and hash ${result.app_hash}`;
  }
}
