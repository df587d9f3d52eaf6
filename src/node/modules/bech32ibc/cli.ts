/**
 * The bech32ibc module's command line: `tokend query bech32ibc hrp-ibc-records`,
 * `hrp-source-channel <hrp>`, `native-hrp`. Records change only by proposal:
 * `tokend tx gov submit-legacy-proposal update-hrp-ibc-record <hrp> <channel> …` (hand-written, gov's command).
 */
import { comments } from '../../../gen/bech32ibc/bech32ibc/v1beta1/comments.js';
import { Query } from '../../../gen/bech32ibc/bech32ibc/v1beta1/query_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const bech32ibcCli: ModuleCli = {
  module: 'bech32ibc',
  comments,
  querySummary: 'Querying commands for the bech32ibc module (bech32 prefix → IBC transfer channel records)',
  query: {
    service: Query,
    overrides: {
      HrpIbcRecords: { use: 'hrp-ibc-records', examples: ['<%= config.bin %> query bech32ibc hrp-ibc-records'] },
      HrpIbcRecord: { use: 'hrp-source-channel', examples: ['<%= config.bin %> query bech32ibc hrp-source-channel cosmos'] },
      NativeHrp: { use: 'native-hrp', examples: ['<%= config.bin %> query bech32ibc native-hrp'] },
    },
  },
};
