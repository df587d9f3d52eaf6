/** The EVM module's command line: `tokend query evm …`, `tokend tx evm …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/ethermint/evm/v1/comments.js';
import { Query } from '../../../gen/ethermint/evm/v1/query_pb.js';
import { Msg } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const evmCli: ModuleCli = {
  module: 'evm',
  comments,
  querySummary: 'Querying commands for the evm module (accounts, code, storage, params, calls)',
  txSummary: 'EVM transaction subcommands',
  query: {
    service: Query,
    overrides: {
      CosmosAccount: { use: 'cosmos-account' },
      Code: { use: 'code' },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      UpdateParams: { positional: ['params'] },
      EthereumTx: { handWritten: 'tx:evm:raw' },
    },
  },
};
