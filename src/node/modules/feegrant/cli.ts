/** The feegrant module's command line: `tokend query feegrant …`, `tokend tx feegrant …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/cosmos/feegrant/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/feegrant/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/feegrant/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const feegrantCli: ModuleCli = {
  module: 'feegrant',
  comments,
  querySummary: 'Querying commands for the feegrant module (fee allowances)',
  txSummary: 'Feegrant transactions subcommands',
  query: {
    service: Query,
    overrides: {
      Allowance: { use: 'grant', examples: ['<%= config.bin %> query feegrant grant token1…granter token1…grantee'] },
      Allowances: { use: 'grants-by-grantee', examples: ['<%= config.bin %> query feegrant grants-by-grantee token1…'] },
      AllowancesByGranter: { use: 'grants-by-granter', examples: ['<%= config.bin %> query feegrant grants-by-granter token1…'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      GrantAllowance: { handWritten: 'tx:feegrant:grant' },
      RevokeAllowance: { handWritten: 'tx:feegrant:revoke' },
      PruneAllowances: { use: 'prune', examples: ['<%= config.bin %> tx feegrant prune --from mykey'] },
    },
  },
};
