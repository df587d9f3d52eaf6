/** The bank module: balances, supply, metadata, send-enabled flags, its Msg and Query services. */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateBankParams } from './params.js';
import { Query } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/bank/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { bankCli } from './cli.js';
import { defaultBankGenesis, exportBankGenesis, initBankGenesis, validateBankGenesis } from './genesis.js';
import { BankErrors } from './errors.js';
import type { BankAccountKeeper } from './expectedKeepers.js';
import { BankKeeper } from './keeper.js';
import { MODULE_NAME, bankStoreKey } from './keys.js';
import { bankMsgRoutes } from './msgServer.js';
import { bankQueryService } from './queryServer.js';
import { moduleAddress } from '../shared/address.js';

export const bankModule = defineModule<BankKeeper>({
  name: MODULE_NAME,
  storeKeys: [bankStoreKey],
  msgService: Msg,
  queryServices: [Query],
  errors: BankErrors,
  cli: bankCli,
  consensusVersion: 4,
  requires: ['auth'],
  create(deps) {
    // Module accounts cannot receive funds through MsgSend/MsgMultiSend (x/bank BlockedAddrs).
    const blocked = [...deps.moduleAccounts.keys()].map((name) => moduleAddress(name));
    const keeper = new BankKeeper(deps.keeper<BankAccountKeeper>('auth'), blocked);
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateBankParams }),
      msgRoutes: bankMsgRoutes(keeper, deps.authority),
      queryServices: [bankQueryService(keeper)],
      genesis: {
        default: (defaults) => defaultBankGenesis(defaults),
        validate: (json) => validateBankGenesis(json),
        init: async (ctx, json) => initBankGenesis(ctx, keeper, json),
        export: (ctx) => exportBankGenesis(ctx, keeper),
      },
      afterCommit: (height) => keeper.onCommit(height),
    };
  },
});
