import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.addressStringToBytes,
  summary: 'Convert a bech32 address string to bytes',
  args: [{ field: 'address_string', description: 'bech32 address' }],
  paginated: false,
  examples: ['<%= config.bin %> query auth address-string-to-bytes token1…'],
});
