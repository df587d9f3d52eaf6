import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.bech32Prefix,
  summary: 'Query the chain bech32 prefix',
  args: [],
  paginated: false,
  examples: ['<%= config.bin %> query auth bech32-prefix'],
});
