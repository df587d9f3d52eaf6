import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.supplyOf,
  summary: 'Query the total supply of one denom',
  args: [{ field: 'denom', description: 'denom, e.g. attotoken' }],
  paginated: false,
  examples: ['<%= config.bin %> query bank supply-of attotoken'],
});
