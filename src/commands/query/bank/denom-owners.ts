import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.denomOwners,
  summary: 'Query the accounts holding a denom and their balances (paginated)',
  args: [{ field: 'denom', description: 'denom, e.g. attotoken' }],
  paginated: true,
  examples: ['<%= config.bin %> query bank denom-owners attotoken'],
});
