/**
 * The auth module: accounts (EthAccount, BaseAccount, ModuleAccount), account numbers, module
 * accounts, auth params and MsgUpdateParams (gov authority). The ante chain in src/node/app uses
 * the keeper.
 */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { create } from '@bufbuild/protobuf';
import { BaseAccountSchema, ModuleAccountSchema, ModuleCredentialSchema } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { Query } from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/cosmos/auth/v1beta1/tx_pb.js';
import { EthAccountSchema } from '../../../gen/ethermint/types/v1/account_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { defineModule } from '../../platform/module.js';
import { authCli } from './cli.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute } from '../shared/module.js';
import { defaultAuthGenesis, exportAuthGenesis, initAuthGenesis, validateAuthGenesis } from './genesis.js';
import { AccountKeeper } from './keeper.js';
import { FEE_COLLECTOR_NAME, MODULE_NAME, authStoreKey } from './keys.js';
import { validateAuthParams } from './params.js';
import { authQueryService } from './queryServer.js';

export const authModule = defineModule<AccountKeeper>({
  name: MODULE_NAME,
  storeKeys: [authStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [EthAccountSchema, BaseAccountSchema, ModuleAccountSchema, ModuleCredentialSchema],
  moduleAccounts: { [FEE_COLLECTOR_NAME]: [] },
  cli: authCli,
  consensusVersion: 5,
  create(deps) {
    const keeper = new AccountKeeper(Object.fromEntries(deps.moduleAccounts));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateAuthParams, keyNames: { sig_verify_cost_ed25519: 'SigVerifyCostED25519' } }),
      queryServices: [authQueryService(keeper)],
      msgRoutes: [
        msgRoute(Msg.method.updateParams, (ctx, msg) => {
          checkAuthority(deps.authority, msg.authority);
          if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
          const problems = validateAuthParams(msg.params);
          if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
          keeper.setParams(ctx, msg.params);
          return create(MsgUpdateParamsResponseSchema);
        }),
      ],
      genesis: {
        default: () => defaultAuthGenesis(),
        validate: (json) => validateAuthGenesis(json),
        init: async (ctx, json) => initAuthGenesis(ctx, keeper, json),
        export: (ctx) => exportAuthGenesis(ctx, keeper),
      },
    };
  },
});
