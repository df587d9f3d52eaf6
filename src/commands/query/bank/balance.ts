import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.balance,
  summary: 'Query the balance of one denom of an account',
  args: [{ field: 'address', description: 'bech32 account address' }, { field: 'denom', description: 'denom, e.g. attotoken' }],
  paginated: false,
  examples: ['<%= config.bin %> query bank balance token1… attotoken'],
});
