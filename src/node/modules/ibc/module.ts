/**
 * IBC core (ibc-go v6), module "ibc" with its store "ibc": 02-client with the 07-tendermint light
 * client — clients of other chains, updated by relayers with signed headers, frozen by
 * misbehaviour, upgraded along the counterparty's upgrade path — and 03-connection, the
 * handshake over those clients. 04-channel, 05-port and the applications slot in beside them (their keys on the same
 * store builder, their genesis sections in genesis.ts, their services in this declaration).
 */
import { ClientUpdateProposalSchema, ParamsSchema, UpgradeProposalSchema } from '../../../gen/ibc/core/client/v1/client_pb.js';
import { contentRoute } from '../../platform/content.js';
import { validateClientUpdateProposal, validateUpgradeProposal } from './core/client/proposal.js';
import { Query as ClientQuery } from '../../../gen/ibc/core/client/v1/query_pb.js';
import { Msg as ClientMsg } from '../../../gen/ibc/core/client/v1/tx_pb.js';
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema, MisbehaviourSchema } from '../../../gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { defineModule } from '../../platform/module.js';
import { mergedParamSpace, protoParamSpace } from '../../platform/params.js';
import { ParamsSchema as ConnectionParamsSchema } from '../../../gen/ibc/core/connection/v1/connection_pb.js';
import { ibcCli } from './cli.js';
import { ClientErrors } from './core/client/errors.js';
import type { IbcStakingKeeper, IbcUpgradeKeeper } from './core/client/expectedKeepers.js';
import { ClientKeeper } from './core/client/keeper.js';
import { clientMsgRoutes } from './core/client/msgServer.js';
import { clientParamsError } from './core/client/params.js';
import { clientQueryService } from './core/client/queryServer.js';
import { Query as ConnectionQuery } from '../../../gen/ibc/core/connection/v1/query_pb.js';
import { Msg as ConnectionMsg } from '../../../gen/ibc/core/connection/v1/tx_pb.js';
import { ConnectionErrors } from './core/connection/errors.js';
import { Query as ChannelQuery } from '../../../gen/ibc/core/channel/v1/query_pb.js';
import { ChannelErrors } from './core/channel/errors.js';
import { channelQueryService } from './core/channel/queryServer.js';
import { ChannelStateReader } from './core/channel/state.js';
import { ConnectionKeeper } from './core/connection/keeper.js';
import { connectionMsgRoutes } from './core/connection/msgServer.js';
import { connectionQueryService } from './core/connection/queryServer.js';
import { CommitmentErrors } from './core/commitment/errors.js';
import { HostErrors } from './core/host/errors.js';
import { defaultIbcGenesis, exportIbcGenesis, initIbcGenesis, validateIbcGenesis } from './genesis.js';
import { ibcStoreKey } from './keys.js';
import { TendermintErrors } from './lightclients/tendermint/errors.js';
import { IBC_MODULE_NAME } from './store.js';

/** What other modules (connection, channel, apps next) receive as the ibc keeper. */
export interface IbcKeeper {
  readonly clientKeeper: ClientKeeper;
  readonly connectionKeeper: ConnectionKeeper;
  /** 04-channel's state, read only (channel ends, next send sequences, packet commitments). */
  readonly channelState: ChannelStateReader;
}

export const ibcModule = defineModule<IbcKeeper>({
  name: IBC_MODULE_NAME,
  storeKeys: [ibcStoreKey],
  msgService: [ClientMsg, ConnectionMsg],
  queryServices: [ClientQuery, ConnectionQuery, ChannelQuery],
  interfaces: [ClientStateSchema, ConsensusStateSchema, HeaderSchema, MisbehaviourSchema, ClientUpdateProposalSchema, UpgradeProposalSchema],
  aminoNames: {
    'ibc.core.client.v1.MsgCreateClient': 'cosmos-sdk/MsgCreateClient',
    'ibc.core.client.v1.MsgUpdateClient': 'cosmos-sdk/MsgUpdateClient',
    'ibc.core.client.v1.MsgUpgradeClient': 'cosmos-sdk/MsgUpgradeClient',
    'ibc.core.client.v1.MsgSubmitMisbehaviour': 'cosmos-sdk/MsgSubmitMisbehaviour',
    'ibc.core.connection.v1.MsgConnectionOpenInit': 'cosmos-sdk/MsgConnectionOpenInit',
    'ibc.core.connection.v1.MsgConnectionOpenTry': 'cosmos-sdk/MsgConnectionOpenTry',
    'ibc.core.connection.v1.MsgConnectionOpenAck': 'cosmos-sdk/MsgConnectionOpenAck',
    'ibc.core.connection.v1.MsgConnectionOpenConfirm': 'cosmos-sdk/MsgConnectionOpenConfirm',
  },
  errors: { ...ClientErrors, ...ConnectionErrors, ...ChannelErrors, ...HostErrors, ...CommitmentErrors, ...TendermintErrors },
  cli: ibcCli,
  consensusVersion: 2,
  requires: ['staking', 'upgrade'],
  create(deps) {
    const clientKeeper = new ClientKeeper(deps.keeper<IbcStakingKeeper>('staking'), deps.keeper<IbcUpgradeKeeper>('upgrade'));
    const connectionKeeper = new ConnectionKeeper(clientKeeper);
    return {
      keeper: { clientKeeper, connectionKeeper, channelState: new ChannelStateReader() },
      msgRoutes: [...clientMsgRoutes(clientKeeper), ...connectionMsgRoutes(connectionKeeper)],
      queryServices: [clientQueryService(clientKeeper), connectionQueryService(connectionKeeper), channelQueryService(connectionKeeper)],
      beginBlock: async (ctx) => clientKeeper.beginBlock(ctx),
      legacyContent: [
        contentRoute(ClientUpdateProposalSchema, (ctx, proposal) => clientKeeper.handleClientUpdateProposal(ctx, proposal), validateClientUpdateProposal),
        contentRoute(UpgradeProposalSchema, (ctx, proposal) => clientKeeper.handleUpgradeProposal(ctx, proposal), validateUpgradeProposal),
      ],
      genesis: {
        default: () => defaultIbcGenesis(),
        validate: (json) => validateIbcGenesis(json),
        init: (ctx, json) => initIbcGenesis(ctx, clientKeeper, connectionKeeper, json),
        export: (ctx) => exportIbcGenesis(ctx, clientKeeper, connectionKeeper),
      },
      // ibc-go v6's x/params subspace "ibc": AllowedClients (02-client), MaxExpectedTimePerBlock (03-connection).
      paramSpace: mergedParamSpace(
        protoParamSpace(ParamsSchema, {
          get: (ctx) => clientKeeper.getParams(ctx),
          set: (ctx, params) => clientKeeper.setParams(ctx, params),
          validate: (params) => {
            const problem = clientParamsError(params);
            return problem === undefined ? [] : [problem];
          },
        }),
        protoParamSpace(ConnectionParamsSchema, {
          get: (ctx) => connectionKeeper.getParams(ctx),
          set: (ctx, params) => connectionKeeper.setParams(ctx, params),
          validate: (params) => (params.maxExpectedTimePerBlock === 0n ? ['MaxExpectedTimePerBlock cannot be zero'] : []),
        }),
      ),
    };
  },
});
