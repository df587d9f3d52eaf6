import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.denomsMetadata,
  summary: 'Query the metadata of every denom (paginated)',
  args: [],
  paginated: true,
  examples: ['<%= config.bin %> query bank denom-metadata'],
});
