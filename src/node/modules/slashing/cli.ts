/** The slashing module's command line: `query slashing params|signing-info|signing-infos`, `tx slashing unjail`. */
import { comments } from '../../../gen/cosmos/slashing/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/slashing/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/slashing/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const slashingCli: ModuleCli = {
  module: 'slashing',
  comments,
  querySummary: 'Querying commands for the slashing module (params, signing infos)',
  txSummary: 'Slashing transaction subcommands',
  query: {
    service: Query,
    overrides: {
      SigningInfo: { examples: ['<%= config.bin %> query slashing signing-info tokenvalcons1…'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      Unjail: { examples: ['<%= config.bin %> tx slashing unjail --from validator'] },
    },
  },
};
