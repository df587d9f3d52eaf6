import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.totalSupply,
  summary: 'Query the total supply of every coin (paginated)',
  args: [],
  paginated: true,
  examples: ['<%= config.bin %> query bank total'],
});
