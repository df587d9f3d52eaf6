import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.accountAddressByID,
  summary: 'Query an account address by account number',
  args: [{ field: 'account_id', description: 'account number' }],
  paginated: false,
  examples: ['<%= config.bin %> query auth address-by-acc-num 1'],
});
