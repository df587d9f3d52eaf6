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
import { prefixEnd } from '../../../../store/bytes.js';
import { feeCli } from './cli.js';
import { FeeErrors } from './errors.js';
import type { FeeAccountKeeper, FeeBankKeeper, FeeIbcKeeper } from './expectedKeepers.js';
import { defaultFeeGenesis, exportFeeGenesis, initFeeGenesis, validateFeeGenesis } from './genesis.js';
import { FeeKeeper } from './keeper.js';
import { FEE_MODULE_NAME, feeStoreKey, LEGACY_ESCROW_INDEX_PREFIX } from './keys.js';
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
  consensusVersion: 2,
  migrations: {
    // Version 1 kept escrowIndex/{port}/{channel} (every escrowed sequence of a channel), which
    // version 2 reads from feesInEscrow/{port}/{channel}/ itself: drop the old records.
    1: async (ctx) => {
      const store = ctx.kv(feeStoreKey);
      const prefix = new TextEncoder().encode(LEGACY_ESCROW_INDEX_PREFIX);
      const stale: Uint8Array[] = [];
      for await (const [key] of store.iterator(prefix, prefixEnd(prefix))) stale.push(key);
      for (const key of stale) store.delete(key);
    },
  },
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
