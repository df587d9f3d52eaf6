/** The fee market's command line: `tokend query feemarket …`, `tokend tx feemarket …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/ethermint/feemarket/v1/comments.js';
import { Query } from '../../../gen/ethermint/feemarket/v1/query_pb.js';
import { Msg } from '../../../gen/ethermint/feemarket/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const feemarketCli: ModuleCli = {
  module: 'feemarket',
  comments,
  querySummary: 'Querying commands for the fee market module (params, base fee, block gas)',
  txSummary: 'Fee market transaction subcommands',
  query: { service: Query, overrides: {} },
  tx: { service: Msg, overrides: { UpdateParams: { positional: ['params'] } } },
};

