/**
 * The fee middleware's command line, under ibc-go's topic `ibc-fee`: `query ibc-fee packet|packets|
 * packets-for-channel|total-recv-fees|total-ack-fees|total-timeout-fees|payee|counterparty-payee|
 * channel|channels` and `tx ibc-fee register-payee|register-counterparty-payee` (the relayer signs
 * with --from), `tx ibc-fee pay-packet-fee <src-port> <src-channel> <sequence> --recv-fee …
 * --ack-fee … --timeout-fee …` (hand-written: MsgPayPacketFeeAsync, or MsgPayPacketFee for the next
 * packet without a sequence; refunded to --from).
 */
import { comments } from '../../../../../gen/ibc/applications/fee/v1/comments.js';
import { Query } from '../../../../../gen/ibc/applications/fee/v1/query_pb.js';
import { Msg } from '../../../../../gen/ibc/applications/fee/v1/tx_pb.js';
import type { ModuleCli } from '../../../../platform/cli.js';

export const feeCli: ModuleCli = {
  module: 'ibc-fee',
  comments,
  querySummary: 'IBC relayer incentivization query subcommands',
  txSummary: 'IBC relayer incentivization transaction subcommands',
  query: {
    service: Query,
    overrides: {
      // The packet as <port> <channel> <sequence> (src/commands/query/ibc-fee/, src/cli/ibcFee.ts).
      IncentivizedPacket: { handWritten: 'query:ibc-fee:packet' },
      IncentivizedPackets: { use: 'packets', examples: ['<%= config.bin %> query ibc-fee packets'] },
      IncentivizedPacketsForChannel: { use: 'packets-for-channel', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc-fee packets-for-channel transfer channel-0'] },
      TotalRecvFees: { handWritten: 'query:ibc-fee:total-recv-fees' },
      TotalAckFees: { handWritten: 'query:ibc-fee:total-ack-fees' },
      TotalTimeoutFees: { handWritten: 'query:ibc-fee:total-timeout-fees' },
      Payee: { use: 'payee', positional: ['channel_id', 'relayer'], examples: ['<%= config.bin %> query ibc-fee payee channel-5 token1…'] },
      CounterpartyPayee: { use: 'counterparty-payee', positional: ['channel_id', 'relayer'], examples: ['<%= config.bin %> query ibc-fee counterparty-payee channel-5 token1…'] },
      FeeEnabledChannels: { use: 'channels', examples: ['<%= config.bin %> query ibc-fee channels'] },
      FeeEnabledChannel: { use: 'channel', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc-fee channel transfer channel-6'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      RegisterPayee: { use: 'register-payee', positional: ['port_id', 'channel_id', 'payee'], examples: ['<%= config.bin %> tx ibc-fee register-payee transfer channel-0 token1… --from relayer'] },
      RegisterCounterpartyPayee: {
        use: 'register-counterparty-payee',
        positional: ['port_id', 'channel_id', 'counterparty_payee'],
        examples: ['<%= config.bin %> tx ibc-fee register-counterparty-payee transfer channel-0 cosmos1… --from relayer'],
      },
      PayPacketFeeAsync: { handWritten: 'tx:ibc-fee:pay-packet-fee' },
      // The same command without a sequence: fees for the next packet sent on the channel.
      PayPacketFee: { handWritten: 'tx:ibc-fee:pay-packet-fee' },
    },
  },
};
