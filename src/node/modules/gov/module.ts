/**
 * The gov module: cosmos.gov.v1 and cosmos.gov.v1beta1 over one state (SDK 0.47) — proposals
 * whose messages run with the gov module account as authority, deposits, weighted votes, the
 * tally by bonded stake at the end of the voting period; v1beta1 contents through the platform's
 * content router (gov itself carries out TextProposal, which changes nothing).
 */
import { Query } from '../../../gen/cosmos/gov/v1/query_pb.js';
import { Msg } from '../../../gen/cosmos/gov/v1/tx_pb.js';
import { Query as QueryV1beta1 } from '../../../gen/cosmos/gov/v1beta1/query_pb.js';
import { Msg as MsgV1beta1 } from '../../../gen/cosmos/gov/v1beta1/tx_pb.js';
import { TextProposalSchema } from '../../../gen/cosmos/gov/v1beta1/gov_pb.js';
import { contentRoute } from '../../platform/content.js';
import { defineModule } from '../../platform/module.js';
import { govCli } from './cli.js';
import { GovErrors } from './errors.js';
import type { GovAccountKeeper, GovBankKeeper, GovStakingKeeper } from './expectedKeepers.js';
import { defaultGovGenesis, exportGovGenesis, initGovGenesis, validateGovGenesis } from './genesis.js';
import { GovKeeper } from './keeper.js';
import { GOV_MODULE_ACCOUNT, MODULE_NAME, govStoreKey } from './keys.js';
import { govMsgRoutes } from './msgServer.js';
import { govParamSpace } from './paramSpace.js';
import { govLegacyQueryService, govQueryService } from './queryServer.js';
import { moduleAddress } from '../shared/address.js';
import type { Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';

export const govModule = defineModule<GovKeeper>({
  name: MODULE_NAME,
  storeKeys: [govStoreKey],
  msgService: Msg,
  queryServices: [Query, QueryV1beta1],
  // The v1beta1 Msg service shares the state; its messages and the text content go into the registry.
  interfaces: [TextProposalSchema, ...MsgV1beta1.methods.flatMap((method) => [method.input, method.output])],
  moduleAccounts: { [GOV_MODULE_ACCOUNT]: ['burner'] },
  errors: GovErrors,
  cli: govCli,
  consensusVersion: 4,
  requires: ['auth', 'bank', 'staking'],
  create(deps) {
    const bank = deps.keeper<GovBankKeeper & { getAllBalances(ctx: Context, address: Uint8Array): Promise<Coin[]> }>('bank');
    const keeper = new GovKeeper(deps.keeper<GovAccountKeeper>('auth'), bank, deps.keeper<GovStakingKeeper>('staking'), deps.router, deps.contentRouter, deps.authority);
    return {
      keeper,
      msgRoutes: govMsgRoutes(keeper, deps.authority),
      queryServices: [govQueryService(keeper), govLegacyQueryService(keeper)],
      legacyContent: [contentRoute(TextProposalSchema, async () => {})],
      paramSpace: govParamSpace(keeper),
      genesis: {
        default: (defaults) => defaultGovGenesis(defaults),
        validate: (json) => validateGovGenesis(json),
        init: (ctx, json) => initGovGenesis(ctx, keeper, bank, moduleAddress(GOV_MODULE_ACCOUNT), json),
        export: (ctx) => exportGovGenesis(ctx, keeper),
      },
      endBlock: async (ctx) => {
        await keeper.endBlock(ctx);
      },
    };
  },
});
