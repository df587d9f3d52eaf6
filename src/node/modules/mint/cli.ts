/**
 * The mint module's command line: `tokend query mint params|inflation|annual-inflation` (also
 * under the topic `minting`), `tokend tx mint update-params` (gov authority only).
 */
import { comments } from '../../../gen/aioz/mint/v1/comments.js';
import { Query } from '../../../gen/aioz/mint/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/mint/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const mintCli: ModuleCli = {
  module: 'mint',
  aliases: ['minting'],
  comments,
  querySummary: 'Querying commands for the minting module (params, per-block and annual inflation)',
  txSummary: 'Minting transaction subcommands',
  query: {
    service: Query,
    overrides: {
      Params: { examples: ['<%= config.bin %> query mint params'] },
      Inflation: { examples: ['<%= config.bin %> query mint inflation'] },
      AnnualInflation: { examples: ['<%= config.bin %> query mint annual-inflation'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      UpdateParams: { positional: ['params'] },
    },
  },
};
