import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.addressBytesToString,
  summary: 'Convert address bytes (base64) to a bech32 string',
  args: [{ field: 'address_bytes', description: 'address bytes, base64' }],
  paginated: false,
  examples: ['<%= config.bin %> query auth address-bytes-to-string 8/b9/WWqxx/IxvtZqkYnf6Ro5SE='],
});
