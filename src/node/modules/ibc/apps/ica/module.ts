/**
 * ICS-27 interchain accounts (ibc-go v6 modules/apps/27-interchain-accounts), module
 * "interchainaccounts" with two submodules, each with its own store, x/params subspace and
 * capability scope: the controller ("icacontroller": owners' ports, registration, SendTx) and
 * the host ("icahost": interchain accounts, execution of controllers' transactions).
 *
 * Both reach IBC core through the ibc module's keeper and x/capability scopes (core.ts). As in
 * ibc-go v6's app.go, each submodule's IBC callbacks (`ControllerIbcModule`, `HostIbcModule`) sit
 * under the ICS-29 fee middleware, which is what core's port router routes to under the submodule
 * names, and the controller sends packets through the middleware's ICS4 wrapper: a channel opened
 * with the fee version (`{"fee_version":"ics29-1","app_version":"<ICS-27 metadata>"}`, or an empty
 * version) is fee-enabled, one opened with plain ICS-27 metadata is not. Interchain accounts are x/auth accounts of type
 * ibc.applications.interchain_accounts.v1.InterchainAccount.
 */
import { ParamsSchema as ControllerParamsSchema } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/controller_pb.js';
import { Query as ControllerQuery } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { Msg as ControllerMsg } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { ParamsSchema as HostParamsSchema } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/host_pb.js';
import { Query as HostQuery } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/query_pb.js';
import { InterchainAccountSchema } from '../../../../../gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { defineModule } from '../../../../platform/module.js';
import { protoParamSpace } from '../../../../platform/params.js';
import { moduleAddress } from '../../../shared/address.js';
import { icaCli } from './cli.js';
import { ControllerIbcModule } from './controller/ibcModule.js';
import { ControllerKeeper } from './controller/keeper.js';
import { ibcCore } from './core.js';
import { IcaErrors } from './errors.js';
import type { IcaAccountKeeper, IcaCapabilityKeeper, IcaIbcKeeper } from './expectedKeepers.js';
import { defaultIcaGenesis, exportIcaGenesis, initIcaGenesis, validateIcaGenesis } from './genesis.js';
import { HostIbcModule } from './host/ibcModule.js';
import { HostKeeper, hostParamsProblems } from './host/keeper.js';
import { icaControllerStoreKey, icaHostStoreKey } from './keys.js';
import { icaControllerMsgRoutes } from './msgServer.js';
import { icaControllerQueryService, icaHostQueryService } from './queryServer.js';
import { ICA_CONTROLLER_NAME, ICA_HOST_NAME, ICA_MODULE_NAME } from './types.js';
import type { FeeKeeper } from '../fee/keeper.js';
import { wrapWithFeeMiddleware } from '../fee/middleware.js';

/** What other modules (icamauth) receive as the interchainaccounts keeper. */
export interface IcaKeeper {
  readonly controller: ControllerKeeper;
  readonly host: HostKeeper;
}

export const icaModule = defineModule<IcaKeeper>({
  name: ICA_MODULE_NAME,
  storeKeys: [icaControllerStoreKey, icaHostStoreKey],
  msgService: ControllerMsg,
  queryServices: [ControllerQuery, HostQuery],
  interfaces: [InterchainAccountSchema],
  aminoNames: {
    'ibc.applications.interchain_accounts.controller.v1.MsgRegisterInterchainAccount': 'cosmos-sdk/MsgRegisterInterchainAccount',
    'ibc.applications.interchain_accounts.controller.v1.MsgSendTx': 'cosmos-sdk/MsgSendTx',
  },
  moduleAccounts: { [ICA_MODULE_NAME]: [] },
  errors: IcaErrors,
  cli: icaCli,
  consensusVersion: 2,
  requires: ['auth', 'capability', 'ibc', 'feeibc'],
  create(deps) {
    const ibc = deps.keeper<IcaIbcKeeper>('ibc');
    const fee = deps.keeper<FeeKeeper>('feeibc');
    // ibc-go's stacks: controller → fee → channel keeper when sending; core → fee → controller or
    // host on callbacks. Both keepers send / read app versions through the fee middleware's ICS4
    // wrapper (the host only reads versions: it never sends).
    // The keepers are built before the controller's stack that wraps them: core reads its ICS4
    // wrapper when used.
    const core = ibcCore(ibc, deps.keeper<IcaCapabilityKeeper>('capability'), [ICA_CONTROLLER_NAME, ICA_HOST_NAME], () => controllerStack.ics4Wrapper);
    const controller = new ControllerKeeper(core, deps.router, moduleAddress(ICA_MODULE_NAME));
    const host = new HostKeeper(core, deps.keeper<IcaAccountKeeper>('auth'), deps.router);
    const controllerStack = wrapWithFeeMiddleware(new ControllerIbcModule(controller), ibc.channelKeeper, fee);
    ibc.router.addRoute(ICA_CONTROLLER_NAME, controllerStack.ibcModule);
    ibc.router.addRoute(ICA_HOST_NAME, wrapWithFeeMiddleware(new HostIbcModule(host), ibc.channelKeeper, fee).ibcModule);
    return {
      keeper: { controller, host },
      msgRoutes: icaControllerMsgRoutes(controller),
      queryServices: [icaControllerQueryService(controller), icaHostQueryService(host)],
      genesis: {
        default: () => defaultIcaGenesis(),
        validate: (json) => validateIcaGenesis(json),
        init: async (ctx, json) => initIcaGenesis(ctx, controller, host, json),
        export: (ctx) => exportIcaGenesis(ctx, controller, host),
      },
      // ibc-go v6's x/params subspaces "icacontroller" (ControllerEnabled) and "icahost" (HostEnabled, AllowMessages).
      paramSubspaces: {
        [ICA_CONTROLLER_NAME]: protoParamSpace(ControllerParamsSchema, {
          get: (ctx) => controller.getParams(ctx),
          set: (ctx, params) => controller.setParams(ctx, params),
          validate: () => [],
        }),
        [ICA_HOST_NAME]: protoParamSpace(HostParamsSchema, {
          get: (ctx) => host.getParams(ctx),
          set: (ctx, params) => host.setParams(ctx, params),
          validate: hostParamsProblems,
        }),
      },
    };
  },
});
