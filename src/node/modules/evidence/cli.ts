/** The evidence module's command line: `query evidence [hash]` (all evidence without a hash), `tx evidence submit-evidence`. */
import { comments } from '../../../gen/cosmos/evidence/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/evidence/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/evidence/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const evidenceCli: ModuleCli = {
  module: 'evidence',
  comments,
  querySummary: 'Querying commands for the evidence module',
  txSummary: 'Evidence transaction subcommands',
  query: {
    service: Query,
    overrides: {
      Evidence: { examples: ['<%= config.bin %> query evidence evidence DF0C23E8634E480F84B9D5674A7CDC9816466DEC28A3358F73260F68D28D7660'] },
      AllEvidence: { use: 'list', examples: ['<%= config.bin %> query evidence list'] },
    },
  },
  tx: { service: Msg },
};
