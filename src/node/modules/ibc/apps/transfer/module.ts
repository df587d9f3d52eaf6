/**
 * ICS-20 fungible token transfer (ibc-go v6 apps/transfer), module "transfer" with its store, its
 * x/params subspace and its module account (minter, burner: vouchers are minted on receive and
 * burned when they go home). It sits on IBC core: it registers its callbacks (`TransferIbcModule`)
 * with the ibc module's port router for the port it binds ("transfer"), and sends packets through
 * core's ICS-4 wrapper. CLI topic `ibc-transfer`.
 */
import { ParamsSchema } from '../../../../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { Query } from '../../../../../gen/ibc/applications/transfer/v1/query_pb.js';
import { Msg } from '../../../../../gen/ibc/applications/transfer/v1/tx_pb.js';
import { defineModule } from '../../../../platform/module.js';
import { protoParamSpace } from '../../../../platform/params.js';
import { transferCli } from './cli.js';
import { TransferErrors } from './errors.js';
import type { TransferAccountKeeper, TransferBankKeeper, TransferCapabilityKeeper, TransferIbcHost, TransferIbcKeeper } from './expectedKeepers.js';
import { defaultTransferGenesis, exportTransferGenesis, initTransferGenesis, validateTransferGenesis } from './genesis.js';
import { TransferIbcModule } from './ibcModule.js';
import { TransferKeeper } from './keeper.js';
import { TRANSFER_MODULE_NAME, transferStoreKey } from './keys.js';
import { transferMsgRoutes } from './msgServer.js';
import { transferQueryService } from './queryServer.js';
import type { IbcModule, Ics4Wrapper } from '../../core/port/types.js';
import type { FeeKeeper } from '../fee/keeper.js';
import { wrapWithFeeMiddleware } from '../fee/middleware.js';

/** What the transfer module offers other modules: its keeper (the callbacks are only core's route). */
export interface TransferModuleKeeper {
  readonly keeper: TransferKeeper;
}

export const transferModule = defineModule<TransferModuleKeeper>({
  name: TRANSFER_MODULE_NAME,
  storeKeys: [transferStoreKey],
  msgService: Msg,
  queryServices: [Query],
  aminoNames: { 'ibc.applications.transfer.v1.MsgTransfer': 'cosmos-sdk/MsgTransfer' },
  moduleAccounts: { [TRANSFER_MODULE_NAME]: ['minter', 'burner'] },
  errors: TransferErrors,
  cli: transferCli,
  consensusVersion: 2,
  requires: ['auth', 'bank', 'capability', 'ibc', 'feeibc'],
  create(deps) {
    const ibc = deps.keeper<TransferIbcKeeper>('ibc');
    // ibc-go's transfer stack: transfer under the ICS-29 fee middleware, which also sits between
    // transfer and the channel keeper when sending (a channel opened with the fee version is
    // fee-enabled; any other channel passes straight through).
    const wired: { stack?: { ibcModule: IbcModule; ics4Wrapper: Ics4Wrapper } } = {};
    const host: TransferIbcHost = {
      get ics4Wrapper() {
        return wired.stack!.ics4Wrapper;
      },
      channelKeeper: ibc.channelKeeper,
      portKeeper: ibc.portKeeper,
      scopedKeeper: deps.keeper<TransferCapabilityKeeper>('capability').scopeToModule(TRANSFER_MODULE_NAME),
    };
    const keeper = new TransferKeeper(deps.keeper<TransferAccountKeeper>('auth'), deps.keeper<TransferBankKeeper>('bank'), host);
    wired.stack = wrapWithFeeMiddleware(new TransferIbcModule(keeper), ibc.channelKeeper, deps.keeper<FeeKeeper>('feeibc'));
    ibc.router.addRoute(TRANSFER_MODULE_NAME, wired.stack.ibcModule);
    return {
      keeper: { keeper },
      msgRoutes: transferMsgRoutes(keeper),
      queryServices: [transferQueryService(keeper)],
      genesis: {
        default: () => defaultTransferGenesis(),
        validate: (json) => validateTransferGenesis(json),
        init: async (ctx, json) => initTransferGenesis(ctx, keeper, json),
        export: (ctx) => exportTransferGenesis(ctx, keeper),
      },
      // ibc-go v6's x/params subspace "transfer": SendEnabled, ReceiveEnabled.
      paramSpace: protoParamSpace(ParamsSchema, {
        get: (ctx) => keeper.getParams(ctx),
        set: (ctx, params) => keeper.setParams(ctx, params),
        validate: () => [],
      }),
    };
  },
});
