import { BaseCommand } from '../../cli/base.js';

export default class ShowNodeId extends BaseCommand<typeof ShowNodeId, string> {
  static override summary = "Show this node's ID";
  static override description = 'The node ID: lowercase hex of the address of config/node_key.json, as peers write it in id@host:port.';
  static override examples = ['<%= config.bin %> tendermint show-node-id --home ./node1'];

  async execute(): Promise<string> {
    const { loadNodeConfig, homePath } = await import('../../node/config/node.js');
    const { loadNodeKey } = await import('../../node/consensus/privval.js');
    return loadNodeKey(homePath(this.home, loadNodeConfig(this.home).nodeKeyFile)).id;
  }

  protected override toJson(result: string): unknown {
    return { node_id: result };
  }
}
