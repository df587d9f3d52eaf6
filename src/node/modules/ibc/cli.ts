/**
 * The ibc module's command line: `tokend query ibc client states|state|status|consensus-states|
 * consensus-state|consensus-state-heights|params|upgraded-client-state|upgraded-consensus-state`
 * and `tokend query ibc connection connections|end|path|params|client-state|consensus-state`
 * (ibc-go's `q ibc client …` / `q ibc connection …` names and argument order), one service per
 * submodule under the same `ibc` topic. Client, handshake and packet messages are sent by relayers,
 * which build headers and proofs from a counterparty's RPC; `tx ibc client|connection|channel …`
 * take their message fields as JSON.
 */
import { comments as clientComments } from '../../../gen/ibc/core/client/v1/comments.js';
import { Query } from '../../../gen/ibc/core/client/v1/query_pb.js';
import { Msg } from '../../../gen/ibc/core/client/v1/tx_pb.js';
import { comments as connectionComments } from '../../../gen/ibc/core/connection/v1/comments.js';
import { Query as ConnectionQuery } from '../../../gen/ibc/core/connection/v1/query_pb.js';
import { Msg as ConnectionMsg } from '../../../gen/ibc/core/connection/v1/tx_pb.js';
import { comments as channelComments } from '../../../gen/ibc/core/channel/v1/comments.js';
import { Query as ChannelQuery } from '../../../gen/ibc/core/channel/v1/query_pb.js';
import { Msg as ChannelMsg } from '../../../gen/ibc/core/channel/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const ibcCli: ModuleCli = {
  module: 'ibc',
  comments: { ...clientComments, ...connectionComments, ...channelComments },
  querySummary: 'Querying commands for the IBC module (light clients, connections, channels)',
  txSummary: 'IBC transaction subcommands (light clients, connection and channel handshakes, packets)',
  query: [
    {
      service: Query,
      overrides: {
        ClientStates: { use: 'client:states', examples: ['<%= config.bin %> query ibc client states'] },
        ClientState: { use: 'client:state', examples: ['<%= config.bin %> query ibc client state 07-tendermint-0'] },
        ClientStatus: { use: 'client:status', examples: ['<%= config.bin %> query ibc client status 07-tendermint-0'] },
        ConsensusStates: { use: 'client:consensus-states', examples: ['<%= config.bin %> query ibc client consensus-states 07-tendermint-0'] },
        ConsensusStateHeights: { use: 'client:consensus-state-heights', examples: ['<%= config.bin %> query ibc client consensus-state-heights 07-tendermint-0'] },
        ConsensusState: {
          use: 'client:consensus-state',
          examples: ['<%= config.bin %> query ibc client consensus-state 07-tendermint-0 1 42', '<%= config.bin %> query ibc client consensus-state 07-tendermint-0 0 0 --latest-height'],
        },
        ClientParams: { use: 'client:params', examples: ['<%= config.bin %> query ibc client params'] },
        UpgradedClientState: { use: 'client:upgraded-client-state' },
        UpgradedConsensusState: { use: 'client:upgraded-consensus-state' },
      },
    },
    {
      service: ConnectionQuery,
      overrides: {
        Connections: { use: 'connection:connections', examples: ['<%= config.bin %> query ibc connection connections'] },
        Connection: { use: 'connection:end', examples: ['<%= config.bin %> query ibc connection end connection-0'] },
        ClientConnections: { use: 'connection:path', examples: ['<%= config.bin %> query ibc connection path 07-tendermint-0'] },
        ConnectionParams: { use: 'connection:params', examples: ['<%= config.bin %> query ibc connection params'] },
        ConnectionClientState: { use: 'connection:client-state', examples: ['<%= config.bin %> query ibc connection client-state connection-0'] },
        ConnectionConsensusState: { use: 'connection:consensus-state', examples: ['<%= config.bin %> query ibc connection consensus-state connection-0 1 42'] },
      },
    },
    {
      service: ChannelQuery,
      overrides: {
        Channels: { use: 'channel:channels', examples: ['<%= config.bin %> query ibc channel channels'] },
        Channel: { use: 'channel:end', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc channel end transfer channel-0'] },
        ConnectionChannels: { use: 'channel:connections', examples: ['<%= config.bin %> query ibc channel connections connection-0'] },
        ChannelClientState: { use: 'channel:client-state', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc channel client-state transfer channel-0'] },
        ChannelConsensusState: { use: 'channel:consensus-state', positional: ['port_id', 'channel_id', 'revision_number', 'revision_height'] },
        PacketCommitment: { use: 'channel:packet-commitment', positional: ['port_id', 'channel_id', 'sequence'], examples: ['<%= config.bin %> query ibc channel packet-commitment transfer channel-0 1'] },
        PacketCommitments: { use: 'channel:packet-commitments', positional: ['port_id', 'channel_id'], examples: ['<%= config.bin %> query ibc channel packet-commitments transfer channel-0'] },
        PacketReceipt: { use: 'channel:packet-receipt', positional: ['port_id', 'channel_id', 'sequence'] },
        PacketAcknowledgement: { use: 'channel:packet-ack', positional: ['port_id', 'channel_id', 'sequence'] },
        PacketAcknowledgements: { use: 'channel:packet-acks', positional: ['port_id', 'channel_id'] },
        UnreceivedPackets: { use: 'channel:unreceived-packets', positional: ['port_id', 'channel_id', 'packet_commitment_sequences'] },
        UnreceivedAcks: { use: 'channel:unreceived-acks', positional: ['port_id', 'channel_id', 'packet_ack_sequences'] },
        NextSequenceReceive: { use: 'channel:next-sequence-receive', positional: ['port_id', 'channel_id'] },
      },
    },
  ],
  tx: [
    {
      service: Msg,
      overrides: {
        CreateClient: { use: 'client:create' },
        UpdateClient: { use: 'client:update' },
        UpgradeClient: { use: 'client:upgrade' },
        SubmitMisbehaviour: { use: 'client:misbehaviour' },
      },
    },
    {
      service: ConnectionMsg,
      overrides: {
        ConnectionOpenInit: { use: 'connection:open-init' },
        ConnectionOpenTry: { use: 'connection:open-try' },
        ConnectionOpenAck: { use: 'connection:open-ack' },
        ConnectionOpenConfirm: { use: 'connection:open-confirm' },
      },
    },
    {
      service: ChannelMsg,
      overrides: {
        ChannelOpenInit: { use: 'channel:open-init' },
        ChannelOpenTry: { use: 'channel:open-try' },
        ChannelOpenAck: { use: 'channel:open-ack' },
        ChannelOpenConfirm: { use: 'channel:open-confirm' },
        ChannelCloseInit: { use: 'channel:close-init' },
        ChannelCloseConfirm: { use: 'channel:close-confirm' },
        RecvPacket: { use: 'channel:recv-packet' },
        Timeout: { use: 'channel:timeout' },
        TimeoutOnClose: { use: 'channel:timeout-on-close' },
        Acknowledgement: { use: 'channel:acknowledgement' },
      },
    },
  ],
};
