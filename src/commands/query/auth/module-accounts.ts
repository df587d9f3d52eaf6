import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.moduleAccounts,
  summary: 'Query all module accounts',
  args: [],
  paginated: false,
  examples: ['<%= config.bin %> query auth module-accounts'],
});
