/**
 * The transfer module's command line under ibc-go's topic `ibc-transfer`: `query ibc-transfer
 * denom-trace|denom-traces|denom-hash|escrow-address|params`, and `tx ibc-transfer transfer`,
 * hand-written because relative timeouts are resolved against the counterparty's client on the
 * node (src/commands/tx/ibc-transfer/transfer.ts).
 */
import { comments } from '../../../../../gen/ibc/applications/transfer/v1/comments.js';
import { Query } from '../../../../../gen/ibc/applications/transfer/v1/query_pb.js';
import { Msg } from '../../../../../gen/ibc/applications/transfer/v1/tx_pb.js';
import type { ModuleCli } from '../../../../platform/cli.js';

export const transferCli: ModuleCli = {
  module: 'ibc-transfer',
  comments,
  querySummary: 'IBC fungible token transfer query subcommands',
  txSummary: 'IBC fungible token transfer transaction subcommands',
  query: {
    service: Query,
    overrides: {
      DenomTrace: { use: 'denom-trace', examples: ['<%= config.bin %> query ibc-transfer denom-trace 27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C'] },
      DenomTraces: { use: 'denom-traces', examples: ['<%= config.bin %> query ibc-transfer denom-traces'] },
      DenomHash: { use: 'denom-hash', examples: ['<%= config.bin %> query ibc-transfer denom-hash transfer/channel-0/uatom'] },
      EscrowAddress: { use: 'escrow-address', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc-transfer escrow-address transfer channel-0'] },
      Params: { use: 'params', examples: ['<%= config.bin %> query ibc-transfer params'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      Transfer: { handWritten: 'tx:ibc-transfer:transfer' },
    },
  },
};
