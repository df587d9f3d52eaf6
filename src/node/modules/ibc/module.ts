/**
 * IBC core (ibc-go v6), module "ibc" with its store "ibc": 02-client with the 07-tendermint light
 * client — clients of other chains, updated by relayers with signed headers, frozen by
 * misbehaviour, upgraded along the counterparty's upgrade path — and 03-connection, the
 * handshake over those clients; 05-port (port capabilities, the router of applications) and
 * 04-channel (channel handshake, packets, acknowledgements, timeouts) over the connections. The
 * applications are other modules that add their IbcModule to the router (see IbcKeeper).
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
import { redundantRelayDecorator } from './core/ante.js';
import { ClientKeeper } from './core/client/keeper.js';
import { clientMsgRoutes } from './core/client/msgServer.js';
import { clientParamsError } from './core/client/params.js';
import { clientQueryService } from './core/client/queryServer.js';
import { Query as ConnectionQuery } from '../../../gen/ibc/core/connection/v1/query_pb.js';
import { Msg as ConnectionMsg } from '../../../gen/ibc/core/connection/v1/tx_pb.js';
import { ConnectionErrors } from './core/connection/errors.js';
import { Query as ChannelQuery } from '../../../gen/ibc/core/channel/v1/query_pb.js';
import { Msg as ChannelMsg } from '../../../gen/ibc/core/channel/v1/tx_pb.js';
import { ChannelErrors } from './core/channel/errors.js';
import { ChannelKeeper } from './core/channel/keeper.js';
import { channelMsgRoutes } from './core/channel/msgServer.js';
import { PortErrors } from './core/port/errors.js';
import { PortKeeper, type IbcCapabilityKeeper } from './core/port/keeper.js';
import { IbcRouter } from './core/port/router.js';
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

/**
 * What other modules receive as the ibc keeper. An application (transfer, ICA, …) adds its
 * IbcModule with `router.addRoute(<its module name>, stack)` in its `create`, takes its own
 * ScopedKeeper from the capability module (`scopeToModule(<its module name>)`), binds its port in
 * InitGenesis (`portKeeper.bindPort` then claims "ports/{port}" with its scoped keeper), and sends
 * packets through `channelKeeper` (the Ics4Wrapper) or a middleware wrapping it.
 */
export interface IbcKeeper {
  readonly clientKeeper: ClientKeeper;
  readonly connectionKeeper: ConnectionKeeper;
  readonly portKeeper: PortKeeper;
  readonly channelKeeper: ChannelKeeper;
  readonly router: IbcRouter;
  /** 04-channel's state, read only (channel ends, next send sequences, packet commitments). */
  readonly channelState: ChannelStateReader;
}

export const ibcModule = defineModule<IbcKeeper>({
  name: IBC_MODULE_NAME,
  storeKeys: [ibcStoreKey],
  msgService: [ClientMsg, ConnectionMsg, ChannelMsg],
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
    'ibc.core.channel.v1.MsgChannelOpenInit': 'cosmos-sdk/MsgChannelOpenInit',
    'ibc.core.channel.v1.MsgChannelOpenTry': 'cosmos-sdk/MsgChannelOpenTry',
    'ibc.core.channel.v1.MsgChannelOpenAck': 'cosmos-sdk/MsgChannelOpenAck',
    'ibc.core.channel.v1.MsgChannelOpenConfirm': 'cosmos-sdk/MsgChannelOpenConfirm',
    'ibc.core.channel.v1.MsgChannelCloseInit': 'cosmos-sdk/MsgChannelCloseInit',
    'ibc.core.channel.v1.MsgChannelCloseConfirm': 'cosmos-sdk/MsgChannelCloseConfirm',
    'ibc.core.channel.v1.MsgRecvPacket': 'cosmos-sdk/MsgRecvPacket',
    'ibc.core.channel.v1.MsgTimeout': 'cosmos-sdk/MsgTimeout',
    'ibc.core.channel.v1.MsgTimeoutOnClose': 'cosmos-sdk/MsgTimeoutOnClose',
    'ibc.core.channel.v1.MsgAcknowledgement': 'cosmos-sdk/MsgAcknowledgement',
  },
  errors: { ...ClientErrors, ...ConnectionErrors, ...ChannelErrors, ...PortErrors, ...HostErrors, ...CommitmentErrors, ...TendermintErrors },
  cli: ibcCli,
  consensusVersion: 2,
  requires: ['staking', 'upgrade', 'capability'],
  create(deps) {
    const clientKeeper = new ClientKeeper(deps.keeper<IbcStakingKeeper>('staking'), deps.keeper<IbcUpgradeKeeper>('upgrade'));
    const connectionKeeper = new ConnectionKeeper(clientKeeper);
    const scopedKeeper = deps.keeper<IbcCapabilityKeeper>('capability').scopeToModule(IBC_MODULE_NAME);
    const portKeeper = new PortKeeper(scopedKeeper);
    const channelKeeper = new ChannelKeeper(connectionKeeper, portKeeper, scopedKeeper);
    const router = new IbcRouter();
    const msgRoutes = [...clientMsgRoutes(clientKeeper), ...connectionMsgRoutes(connectionKeeper), ...channelMsgRoutes(channelKeeper, portKeeper, router)];
    return {
      keeper: { clientKeeper, connectionKeeper, portKeeper, channelKeeper, router, channelState: new ChannelStateReader() },
      msgRoutes,
      // ibc-go's app.go appends its RedundantRelayDecorator to the SDK's ante chain.
      anteDecorators: [{ decorator: redundantRelayDecorator(msgRoutes) }],
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
