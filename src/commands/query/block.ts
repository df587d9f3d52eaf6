import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';

export default class QueryBlock extends NodeCommand<typeof QueryBlock, unknown> {
  static override summary = 'Get the block at a height (default latest), as the consensus RPC returns it';
  static override examples = ['<%= config.bin %> query block', '<%= config.bin %> query block 42 -o json'];
  static override args = { height: Args.string({ description: 'Block height (default latest)' }) };
  static override flags = { ...nodeFlag };

  async execute(): Promise<unknown> {
    const raw = this.args.height;
    if (raw !== undefined && !/^[1-9]\d*$/.test(raw)) throw new TokendError('INVALID_ARGUMENT', `invalid height "${raw}"`, { hint: 'give a positive integer', exitCode: 2 });
    return (await this.rpc()).block(raw === undefined ? undefined : Number(raw));
  }
}
