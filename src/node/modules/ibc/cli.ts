/**
 * The ibc module's command line: `tokend query ibc client states|state|status|consensus-states|
 * consensus-state|consensus-state-heights|params|upgraded-client-state|upgraded-consensus-state`
 * (ibc-go's `q ibc client …` names and argument order). Client messages are sent by relayers,
 * which build headers from a counterparty's RPC; `tx ibc client …` commands take their Anys as JSON.
 */
import { comments } from '../../../gen/ibc/core/client/v1/comments.js';
import { Query } from '../../../gen/ibc/core/client/v1/query_pb.js';
import { Msg } from '../../../gen/ibc/core/client/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const ibcCli: ModuleCli = {
  module: 'ibc',
  comments,
  querySummary: 'Querying commands for the IBC module (light clients)',
  txSummary: 'IBC transaction subcommands (light clients)',
  query: {
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
  tx: {
    service: Msg,
    overrides: {
      CreateClient: { use: 'client:create' },
      UpdateClient: { use: 'client:update' },
      UpgradeClient: { use: 'client:upgrade' },
      SubmitMisbehaviour: { use: 'client:misbehaviour' },
    },
  },
};
