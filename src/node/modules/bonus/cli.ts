/** The bonus module's command line: `tokend query bonus params`, `tokend tx bonus update-params` (gov authority only). */
import { comments } from '../../../gen/aioz/bonus/v1/comments.js';
import { Query } from '../../../gen/aioz/bonus/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/bonus/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const bonusCli: ModuleCli = {
  module: 'bonus',
  comments,
  querySummary: 'Querying commands for the bonus module (the per-block bonus paid from the bonus pool)',
  txSummary: 'Bonus transaction subcommands',
  query: {
    service: Query,
    overrides: {
      Params: { examples: ['<%= config.bin %> query bonus params'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      UpdateParams: { positional: ['params'] },
    },
  },
};
