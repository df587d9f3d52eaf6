import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.moduleAccountByName,
  summary: 'Query a module account by name',
  args: [{ field: 'name', description: 'module name, e.g. fee_collector' }],
  paginated: false,
  examples: ['<%= config.bin %> query auth module-account fee_collector'],
});
