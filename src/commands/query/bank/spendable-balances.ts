import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { defineQueryCommand } from '../../../cli/queryCommand.js';

export default defineQueryCommand({
  method: Query.method.spendableBalances,
  summary: 'Query the spendable balances of an account (paginated)',
  args: [{ field: 'address', description: 'bech32 account address' }],
  paginated: true,
  examples: ['<%= config.bin %> query bank spendable-balances token1…'],
});
