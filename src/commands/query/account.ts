import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { queryFlags } from '../../cli/nodeFlags.js';
import type { JsonValue } from '../../node/client/query.js';

export default class QueryAccount extends NodeCommand<typeof QueryAccount, JsonValue> {
  static override summary = 'Query an account: type, account number, public key and sequence';
  static override examples = ['<%= config.bin %> query account token1… -o json'];
  static override args = { address: Args.string({ required: true, description: 'bech32 or hex account address' }) };
  static override flags = { ...queryFlags };

  async execute(): Promise<JsonValue> {
    const { queryAccount } = await import('../../cli/queries.js');
    return queryAccount(() => this.rpc(), { address: this.args.address, height: this.flags.height });
  }
}
