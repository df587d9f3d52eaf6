/**
 * ICS-29 relayer incentivisation (ibc-go v6 modules/apps/29-fee), module and store "feeibc" with
 * its module account "feeibc" (the escrow). The module holds the state and serves the Msg and
 * Query services; the middleware itself (middleware.ts, `wrapWithFeeMiddleware`) is mounted around
 * an application's IbcModule and Ics4Wrapper by whoever builds that application's stack, with this
 * module's keeper (`deps.keeper<FeeKeeper>('feeibc')`).
 */
import { Query } from '../../../../../gen/ibc/applications/fee/v1/query_pb.js';
import { Msg } from '../../../../../gen/ibc/applications/fee/v1/tx_pb.js';
import { defineModule } from '../../../../platform/module.js';
import { feeCli } from './cli.js';
import { FeeErrors } from './errors.js';
import type { FeeAccountKeeper, FeeBankKeeper, FeeIbcKeeper } from './expectedKeepers.js';
import { defaultFeeGenesis, exportFeeGenesis, initFeeGenesis, validateFeeGenesis } from './genesis.js';
import { FeeKeeper } from './keeper.js';
import { FEE_MODULE_NAME, feeStoreKey } from './keys.js';
import { feeMsgRoutes } from './msgServer.js';
import { feeQueryService } from './queryServer.js';

export const feeModule = defineModule<FeeKeeper>({
  name: FEE_MODULE_NAME,
  storeKeys: [feeStoreKey],
  msgService: Msg,
  queryServices: [Query],
  moduleAccounts: { [FEE_MODULE_NAME]: [] },
  errors: FeeErrors,
  cli: feeCli,
  consensusVersion: 1,
  requires: ['auth', 'bank', 'ibc'],
  create(deps) {
    const bank = deps.keeper<FeeBankKeeper>('bank');
    const keeper = new FeeKeeper(deps.keeper<FeeAccountKeeper>('auth'), bank, deps.keeper<FeeIbcKeeper>('ibc').channelState);
    return {
      keeper,
      msgRoutes: feeMsgRoutes(keeper, bank),
      queryServices: [feeQueryService(keeper)],
      genesis: {
        default: () => defaultFeeGenesis(),
        validate: (json) => validateFeeGenesis(json),
        init: (ctx, json) => initFeeGenesis(ctx, keeper, json),
        export: (ctx) => exportFeeGenesis(ctx, keeper),
      },
    };
  },
});
