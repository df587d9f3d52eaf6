/**
 * The authz module (cosmos.authz.v1beta1, SDK 0.47): grants that let a grantee execute messages
 * on a granter's behalf — generic, bank send (spend limit, allow list) and staking
 * authorizations — MsgGrant / MsgRevoke / MsgExec, expired grants pruned in BeginBlock.
 */
import { GenericAuthorizationSchema } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { EventGrantSchema, EventRevokeSchema } from '../../../gen/cosmos/authz/v1beta1/event_pb.js';
import { Query } from '../../../gen/cosmos/authz/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../../gen/cosmos/bank/v1beta1/authz_pb.js';
import { StakeAuthorizationSchema } from '../../../gen/cosmos/staking/v1beta1/authz_pb.js';
import { defineModule } from '../../platform/module.js';
import { authzCli } from './cli.js';
import { AuthzErrors } from './errors.js';
import type { AuthzAccountKeeper } from './expectedKeepers.js';
import { defaultAuthzGenesis, exportAuthzGenesis, initAuthzGenesis, validateAuthzGenesis } from './genesis.js';
import { AuthzKeeper } from './keeper.js';
import { MODULE_NAME, authzStoreKey } from './keys.js';
import { authzMsgRoutes } from './msgServer.js';
import { authzQueryService } from './queryServer.js';

export const authzModule = defineModule<AuthzKeeper>({
  name: MODULE_NAME,
  storeKeys: [authzStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [GenericAuthorizationSchema, SendAuthorizationSchema, StakeAuthorizationSchema, EventGrantSchema, EventRevokeSchema],
  errors: AuthzErrors,
  cli: authzCli,
  consensusVersion: 2,
  requires: ['auth'],
  create(deps) {
    const keeper = new AuthzKeeper(deps.keeper<AuthzAccountKeeper>('auth'), deps.router);
    return {
      keeper,
      msgRoutes: authzMsgRoutes(keeper),
      queryServices: [authzQueryService(keeper)],
      genesis: {
        default: () => defaultAuthzGenesis(),
        validate: (json) => validateAuthzGenesis(json),
        init: async (ctx, json) => initAuthzGenesis(ctx, keeper, json),
        export: (ctx) => exportAuthzGenesis(ctx, keeper),
      },
      beginBlock: (ctx) => keeper.deleteExpiredGrants(ctx),
    };
  },
});
