import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.params,
  summary: 'Query the bank module parameters',
  args: [],
  paginated: false,
  examples: ['<%= config.bin %> query bank params'],
});
