import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../../cli/nodeCommand.js';
import { queryFlags } from '../../../cli/nodeFlags.js';
import { paginationFlags } from '../../../cli/queryCommand.js';
import type { JsonValue } from '../../../node/client/query.js';

export default class QueryBankBalances extends NodeCommand<typeof QueryBankBalances, JsonValue> {
  static override summary = 'Query all balances of an account, or one denom with --denom';
  static override description =
    'Calls cosmos.bank.v1beta1.Query/AllBalances (or Balance with --denom). An account that never received tokens has balances [] and pagination.total "0".';
  static override examples = ['<%= config.bin %> query bank balances token1… -o json', '<%= config.bin %> q bank balances token1… --denom attotoken'];
  static override args = { address: Args.string({ required: true, description: 'bech32 account address' }) };
  static override flags = {
    ...queryFlags,
    ...paginationFlags,
    denom: Flags.string({ description: 'Only this denom (prints {balance})' }),
    'resolve-denom': Flags.boolean({ description: 'Accepted for compatibility; denoms print as stored' }),
  };

  async execute(): Promise<JsonValue> {
    const { queryBankBalances } = await import('../../../cli/queries.js');
    return queryBankBalances(() => this.rpc(), { ...this.flags, address: this.args.address });
  }
}
