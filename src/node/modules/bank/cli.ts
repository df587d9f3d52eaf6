/** The bank module's command line: `tokend query bank …`, `tokend tx bank …` (see node/platform/cli.ts). */
import { comments } from '../../../gen/cosmos/bank/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/bank/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const bankCli: ModuleCli = {
  module: 'bank',
  comments,
  querySummary: 'Querying commands for the bank module (balances, supply, metadata)',
  txSummary: 'Bank transaction subcommands',
  query: {
    service: Query,
    overrides: {
      // Hand-written: AllBalances with --denom switching to Balance, and one command for one or all metadata.
      AllBalances: { handWritten: 'query:bank:balances' },
      DenomMetadata: { handWritten: 'query:bank:denom-metadata' },
      // The denom is a query parameter on REST (denoms may contain '/'); on the command line it is positional.
      Balance: { positional: ['address', 'denom'], examples: ['<%= config.bin %> query bank balance token1… attotoken'] },
      SpendableBalanceByDenom: { use: 'spendable-balance', positional: ['address', 'denom'] },
      TotalSupply: { use: 'total-supply', aliases: ['total'] },
      SupplyOf: { use: 'total-supply-of', aliases: ['supply-of'], positional: ['denom'], examples: ['<%= config.bin %> query bank total-supply-of attotoken'] },
      DenomMetadataByQueryString: { positional: ['denom'] },
      DenomOwnersByQuery: { positional: ['denom'] },
      SendEnabled: { positional: [{ field: 'denoms', optional: true }], examples: ['<%= config.bin %> query bank send-enabled', '<%= config.bin %> query bank send-enabled attotoken stake'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      Send: { handWritten: 'tx:send' },
      MultiSend: { handWritten: 'tx:bank:multi-send' },
      UpdateParams: { positional: ['params'] },
    },
  },
};
