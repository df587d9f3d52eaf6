/**
 * The coin ⇄ ERC-20 converter (aioz.aiozrc20.v1, module "aiozrc20", served at /net/netrc20/v1):
 * token pairs registered by governance (v1beta1 contents, carried out here), conversions in both
 * directions, and an EVM hook for Transfers to the module address. It comes after the EVM in the
 * module list (it deploys and calls contracts through the EVM keeper).
 */
import {
  RegisterAIOZRC20ProposalSchema,
  RegisterCoinProposalSchema,
  SetConverterAddressProposalSchema,
  ToggleTokenPairConversionProposalSchema,
  UpdateTokenPairProposalSchema,
} from '../../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { ParamsSchema } from '../../../gen/aioz/aiozrc20/v1/genesis_pb.js';
import { Query } from '../../../gen/aioz/aiozrc20/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/aiozrc20/v1/tx_pb.js';
import type { Log } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { contentRoute } from '../../platform/content.js';
import { defineModule } from '../../platform/module.js';
import { protoParamSpace } from '../../platform/params.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { aiozrc20Cli } from './cli.js';
import { Aiozrc20Errors } from './errors.js';
import type { Aiozrc20AccountKeeper, Aiozrc20BankKeeper, Aiozrc20EvmKeeper } from './expectedKeepers.js';
import { defaultAiozrc20Genesis, exportAiozrc20Genesis, initAiozrc20Genesis, validateAiozrc20Genesis } from './genesis.js';
import { Aiozrc20Keeper, HEX_ADDRESS, metadataProblem } from './keeper.js';
import { MODULE_NAME, aiozrc20StoreKey } from './keys.js';
import { aiozrc20MsgRoutes } from './msgServer.js';
import { aiozrc20QueryService } from './queryServer.js';

const hexAddress = (address: string, what: string): void => {
  if (!HEX_ADDRESS.test(address)) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} ${JSON.stringify(address)}`);
};

export const aiozrc20Module = defineModule<Aiozrc20Keeper>({
  name: MODULE_NAME,
  storeKeys: [aiozrc20StoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [RegisterCoinProposalSchema, RegisterAIOZRC20ProposalSchema, ToggleTokenPairConversionProposalSchema, UpdateTokenPairProposalSchema, SetConverterAddressProposalSchema],
  aminoNames: {
    'aioz.aiozrc20.v1.RegisterCoinProposal': 'aiozrc20/RegisterCoinProposal',
    'aioz.aiozrc20.v1.RegisterAIOZRC20Proposal': 'aiozrc20/RegisterAIOZRC20Proposal',
    'aioz.aiozrc20.v1.ToggleTokenPairConversionProposal': 'aiozrc20/ToggleTokenPairConversionProposal',
    'aioz.aiozrc20.v1.UpdateTokenPairProposal': 'aiozrc20/UpdateTokenPairProposal',
    'aioz.aiozrc20.v1.SetConverterAddressProposal': 'aiozrc20/SetConverterAddressProposal',
  },
  moduleAccounts: { [MODULE_NAME]: ['minter', 'burner'] },
  errors: Aiozrc20Errors,
  cli: aiozrc20Cli,
  consensusVersion: 1,
  requires: ['auth', 'bank', 'evm'],
  create(deps) {
    const keeper = new Aiozrc20Keeper(deps.keeper<Aiozrc20AccountKeeper>('auth'), deps.keeper<Aiozrc20BankKeeper>('bank'), deps.keeper<Aiozrc20EvmKeeper>('evm'));
    return {
      keeper,
      paramSpace: protoParamSpace(ParamsSchema, {
        get: (ctx) => keeper.getParams(ctx),
        set: (ctx, p) => keeper.setParams(ctx, p),
        validate: () => [],
        keyNames: { enabled: 'EnableErc20', evm_hook_enabled: 'EnableEVMHook' },
      }),
      msgRoutes: aiozrc20MsgRoutes(keeper),
      queryServices: [aiozrc20QueryService(keeper)],
      genesis: {
        default: () => defaultAiozrc20Genesis(),
        validate: (json) => validateAiozrc20Genesis(json),
        init: async (ctx, json) => initAiozrc20Genesis(ctx, keeper, json),
        export: (ctx) => exportAiozrc20Genesis(ctx, keeper),
      },
      hooks: {
        evm: {
          postTxProcessing: (ctx: Context, _sender: Uint8Array, _to: Uint8Array | undefined, logs: readonly Log[]) => keeper.postTxProcessing(ctx, logs),
        },
      },
      legacyContent: [
        contentRoute(
          RegisterCoinProposalSchema,
          async (ctx, p) => {
            await keeper.registerCoin(ctx, p.metadata!);
          },
          (p) => {
            if (p.metadata === undefined) throw SdkErrors.InvalidRequest.wrap('metadata cannot be empty');
            const problem = metadataProblem(p.metadata);
            if (problem !== undefined) throw SdkErrors.InvalidRequest.wrap(problem);
          },
        ),
        contentRoute(
          RegisterAIOZRC20ProposalSchema,
          async (ctx, p) => {
            await keeper.registerErc20(ctx, p.aiozrc20Address);
          },
          (p) => hexAddress(p.aiozrc20Address, 'ERC20 address'),
        ),
        contentRoute(
          ToggleTokenPairConversionProposalSchema,
          async (ctx, p) => {
            keeper.toggle(ctx, p.token);
          },
          (p) => {
            if (p.token === '') throw SdkErrors.InvalidRequest.wrap('token cannot be empty');
          },
        ),
        contentRoute(
          UpdateTokenPairProposalSchema,
          async (ctx, p) => {
            await keeper.updatePair(ctx, p.aiozrc20Address, p.newAiozrc20Address);
          },
          (p) => {
            hexAddress(p.aiozrc20Address, 'ERC20 address');
            hexAddress(p.newAiozrc20Address, 'new ERC20 address');
          },
        ),
        contentRoute(
          SetConverterAddressProposalSchema,
          async (ctx, p) => keeper.setConverter(ctx, p.upgradeAddress),
          (p) => {
            if (p.upgradeAddress !== '') hexAddress(p.upgradeAddress, 'converter address');
          },
        ),
      ],
    };
  },
});
