/**
 * The network's mint module (aioz.mint.v1): per-block compounding inflation of the mint denom
 * from start_height, additional allocations, the rest to the fee collector (README.md).
 */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/aioz/mint/v1/mint_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateMintParams } from './params.js';
import { Query } from '../../../gen/aioz/mint/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/mint/v1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { moduleAddress } from '../shared/address.js';
import { bytesEqual } from '../shared/keys.js';
import { mintCli } from './cli.js';
import type { MintAccountKeeper, MintBankKeeper } from './expectedKeepers.js';
import { defaultMintGenesis, exportMintGenesis, initMintGenesis, validateMintGenesis } from './genesis.js';
import { MintKeeper } from './keeper.js';
import { MINT_MODULE_ACCOUNT, MODULE_NAME, mintStoreKey } from './keys.js';
import { mintMsgRoutes } from './msgServer.js';
import { mintQueryService } from './queryServer.js';

export const mintModule = defineModule<MintKeeper>({
  name: MODULE_NAME,
  storeKeys: [mintStoreKey],
  msgService: Msg,
  queryServices: [Query],
  moduleAccounts: { [MINT_MODULE_ACCOUNT]: ['minter'] },
  cli: mintCli,
  consensusVersion: 1,
  requires: ['auth', 'bank'],
  create(deps) {
    const keeper = new MintKeeper(deps.keeper<MintAccountKeeper>('auth'), deps.keeper<MintBankKeeper>('bank'));
    // Module accounts keep their own books: an allocation may not pay one.
    const moduleAddresses = [...deps.moduleAccounts.keys()].map((name) => moduleAddress(name));
    const blocked = (address: Uint8Array): boolean => moduleAddresses.some((module) => bytesEqual(module, address));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: (p) => validateMintParams(p, blocked) }),
      msgRoutes: mintMsgRoutes(keeper, deps.authority, blocked),
      queryServices: [mintQueryService(keeper)],
      genesis: {
        default: (defaults) => defaultMintGenesis(defaults),
        validate: (json) => validateMintGenesis(json, blocked),
        init: async (ctx, json) => initMintGenesis(ctx, keeper, json),
        export: (ctx) => exportMintGenesis(ctx, keeper),
      },
      beginBlock: async (ctx) => {
        keeper.beginBlock(ctx);
      },
    };
  },
});
