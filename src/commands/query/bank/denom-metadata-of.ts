import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.denomMetadata,
  summary: 'Query the metadata of one denom',
  args: [{ field: 'denom', description: 'denom, e.g. attotoken' }],
  paginated: false,
  examples: ['<%= config.bin %> query bank denom-metadata-of attotoken'],
});
