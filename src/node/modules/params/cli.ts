/** The params module's command line: `tokend query params subspace <subspace> <key>`, `query params subspaces`. */
import { comments } from '../../../gen/cosmos/params/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/params/v1beta1/query_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const paramsCli: ModuleCli = {
  module: 'params',
  comments,
  querySummary: 'Querying commands for the params module (subspaces and their parameters)',
  query: {
    service: Query,
    overrides: {
      Params: { use: 'subspace', positional: ['subspace', 'key'], examples: ['<%= config.bin %> query params subspace staking MaxValidators'] },
      Subspaces: { examples: ['<%= config.bin %> query params subspaces'] },
    },
  },
};
