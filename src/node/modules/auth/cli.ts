/** The auth module's command line: `tokend query auth …`, `tokend tx auth …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/cosmos/auth/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/auth/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const authCli: ModuleCli = {
  module: 'auth',
  comments,
  querySummary: 'Querying commands for the auth module (accounts, params, addresses)',
  txSummary: 'Auth transaction subcommands',
  query: {
    service: Query,
    overrides: {
      AccountAddressByID: { use: 'address-by-acc-num', positional: ['account_id'], examples: ['<%= config.bin %> query auth address-by-acc-num 1'] },
      ModuleAccountByName: { use: 'module-account', examples: ['<%= config.bin %> query auth module-account fee_collector'] },
      Accounts: { examples: ['<%= config.bin %> query auth accounts --limit 10'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      UpdateParams: { positional: ['params'] },
    },
  },
};
