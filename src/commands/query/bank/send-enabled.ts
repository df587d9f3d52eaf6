import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.sendEnabled,
  summary: 'Query the send-enabled entries of denoms (paginated)',
  args: [],
  paginated: true,
  examples: ['<%= config.bin %> query bank send-enabled'],
});
