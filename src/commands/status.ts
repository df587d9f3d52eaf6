import { NodeCommand } from '../cli/nodeCommand.js';
import { nodeFlag } from '../cli/nodeFlags.js';

export default class Status extends NodeCommand<typeof Status, unknown> {
  static override summary = 'Query a node for its status (node info, sync info, validator info)';
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --node tcp://node.example:26657 -o json'];
  static override flags = { ...nodeFlag };

  async execute(): Promise<unknown> {
    return (await this.rpc()).status();
  }
}
