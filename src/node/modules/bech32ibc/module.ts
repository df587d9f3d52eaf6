/**
 * The fee-routing records (osmosis-labs/bech32-ibc x/bech32ibc), module and store "bech32ibc",
 * served at /feex/txfees/v1beta1/… (spec) and /osmosis/txfees/v1beta1/… (upstream): the chain's
 * own bech32 prefix, and per foreign prefix the IBC transfer channel that reaches its chain, set
 * by UpdateHrpIbcChannelProposal (a v1beta1 gov content). No Msg service.
 */
import { UpdateHrpIbcChannelProposalSchema } from '../../../gen/bech32ibc/bech32ibc/v1beta1/gov_pb.js';
import { Query } from '../../../gen/bech32ibc/bech32ibc/v1beta1/query_pb.js';
import { contentRoute } from '../../platform/content.js';
import { defineModule } from '../../platform/module.js';
import { bech32ibcCli } from './cli.js';
import { Bech32IbcErrors } from './errors.js';
import type { Bech32IbcIbcKeeper } from './expectedKeepers.js';
import { defaultBech32IbcGenesis, exportBech32IbcGenesis, initBech32IbcGenesis, validateBech32IbcGenesis } from './genesis.js';
import { Bech32IbcKeeper, validateUpdateHrpIbcChannelProposal } from './keeper.js';
import { BECH32IBC_MODULE_NAME, bech32ibcStoreKey } from './keys.js';
import { bech32ibcQueryService } from './queryServer.js';

export const bech32ibcModule = defineModule<Bech32IbcKeeper>({
  name: BECH32IBC_MODULE_NAME,
  storeKeys: [bech32ibcStoreKey],
  queryServices: [Query],
  interfaces: [UpdateHrpIbcChannelProposalSchema],
  errors: Bech32IbcErrors,
  cli: bech32ibcCli,
  consensusVersion: 1,
  requires: ['ibc'],
  create(deps) {
    const keeper = new Bech32IbcKeeper(deps.keeper<Bech32IbcIbcKeeper>('ibc').channelState);
    return {
      keeper,
      queryServices: [bech32ibcQueryService(keeper)],
      legacyContent: [contentRoute(UpdateHrpIbcChannelProposalSchema, async (ctx, proposal) => keeper.handleUpdateProposal(ctx, proposal), validateUpdateHrpIbcChannelProposal)],
      genesis: {
        default: () => defaultBech32IbcGenesis(),
        validate: (json) => validateBech32IbcGenesis(json),
        init: (ctx, json) => initBech32IbcGenesis(ctx, keeper, json),
        export: (ctx) => exportBech32IbcGenesis(ctx, keeper),
      },
    };
  },
});
