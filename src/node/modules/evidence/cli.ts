/** The evidence module's command line: `query evidence [hash]` (src/commands/query/evidence.ts; all evidence without a hash), `tx evidence submit-evidence`. */
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
      // `query evidence [hash]`, as the SDK: one hand-written command for both.
      Evidence: { handWritten: 'query:evidence' },
      AllEvidence: { handWritten: 'query:evidence' },
    },
  },
  tx: { service: Msg },
};
