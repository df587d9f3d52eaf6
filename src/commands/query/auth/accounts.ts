import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.accounts,
  summary: 'Query all accounts (paginated)',
  args: [],
  paginated: true,
  examples: ['<%= config.bin %> query auth accounts --limit 10'],
});
