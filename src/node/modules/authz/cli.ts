/** The authz module's command line: `tokend query authz …`, `tokend tx authz …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/cosmos/authz/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/authz/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/authz/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const authzCli: ModuleCli = {
  module: 'authz',
  comments,
  querySummary: 'Querying commands for the authz module (grants)',
  txSummary: 'Authorization transactions subcommands',
  query: {
    service: Query,
    overrides: {
      Grants: {
        positional: ['granter', 'grantee', { field: 'msg_type_url', optional: true }],
        examples: ['<%= config.bin %> query authz grants token1… token1… /cosmos.bank.v1beta1.MsgSend'],
      },
      GranterGrants: { use: 'grants-by-granter', examples: ['<%= config.bin %> query authz grants-by-granter token1…'] },
      GranteeGrants: { use: 'grants-by-grantee', examples: ['<%= config.bin %> query authz grants-by-grantee token1…'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      Grant: { handWritten: 'tx:authz:grant' },
      Revoke: { handWritten: 'tx:authz:revoke' },
      Exec: { handWritten: 'tx:authz:exec' },
    },
  },
};
