import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.account,
  summary: 'Query an account by address (protobuf JSON)',
  args: [{ field: 'address', description: 'bech32 account address' }],
  paginated: false,
  examples: ['<%= config.bin %> query auth account token1…'],
});
