/**
 * The EVM module (ethermint.evm.v1): Ethereum transactions on @ethereumjs/evm over tokend's
 * stores, its ante chains for ExtensionOptionsEthereumTx and (eip712/) ExtensionOptionsWeb3Tx, queries
 * and genesis. The fee market
 * comes before it in the module list (it needs nothing of the EVM).
 */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { validateEvmParams } from './params.js';
import { ExtensionOptionsEthereumTxSchema, AccessListTxSchema, DynamicFeeTxSchema, LegacyTxSchema, Msg } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { Query } from '../../../gen/ethermint/evm/v1/query_pb.js';
import { defineModule } from '../../platform/module.js';
import { evmAnteChain, evmCosmosDecorators, evmSignaturePrecheck } from './ante.js';
import { EXTENSION_OPTIONS_WEB3_TX_URL, web3AnteChain } from './eip712/ante.js';
import { eip712SignatureFallback } from './eip712/encoding.js';
import { ExtensionOptionsWeb3TxSchema } from '../../../gen/ethermint/types/v1/web3_pb.js';
import { evmCli } from './cli.js';
import { EvmErrors } from './errors.js';
import { MSG_ETHEREUM_TX_URL } from './keys.js';
import { loadEvmLibraries } from './lib.js';
import type { EvmAccountKeeper, EvmBankKeeper, EvmFeeMarketKeeper } from './expectedKeepers.js';
import { defaultEvmGenesis, exportEvmGenesis, initEvmGenesis, validateEvmGenesis } from './genesis.js';
import type { EvmHooks } from './hooks.js';
import { EvmKeeper } from './keeper.js';
import { MODULE_NAME, evmStoreKey } from './keys.js';
import { evmMsgRoutes } from './msgServer.js';
import { evmQueryService } from './queryServer.js';

export const EXTENSION_OPTIONS_ETHEREUM_TX_URL = `/${ExtensionOptionsEthereumTxSchema.typeName}`;

export const evmModule = defineModule<EvmKeeper>({
  name: MODULE_NAME,
  storeKeys: [evmStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [LegacyTxSchema, AccessListTxSchema, DynamicFeeTxSchema, ExtensionOptionsEthereumTxSchema, ExtensionOptionsWeb3TxSchema],
  errors: EvmErrors,
  cli: evmCli,
  consensusVersion: 5,
  requires: ['auth', 'bank', 'feemarket'],
  create(deps) {
    const keeper = new EvmKeeper(deps.keeper<EvmAccountKeeper>('auth'), deps.keeper<EvmBankKeeper>('bank'));
    const feeMarket = deps.keeper<EvmFeeMarketKeeper>('feemarket');
    keeper.setFeeMarket(feeMarket);
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateEvmParams, keyNames: { evm_denom: 'EVMDenom', extra_eips: 'EnableExtraEIPs' } }),
      msgRoutes: evmMsgRoutes(keeper, deps.authority, () => deps.hooks<EvmHooks>()),
      queryServices: [evmQueryService(keeper)],
      endBlock: async (ctx) => keeper.endBlock(ctx),
      genesis: {
        default: (defaults) => defaultEvmGenesis(defaults),
        validate: (json) => validateEvmGenesis(json),
        init: async (ctx, json) => initEvmGenesis(ctx, keeper, json),
        export: (ctx) => exportEvmGenesis(ctx, keeper),
      },
      ready: async () => {
        await loadEvmLibraries();
      },
      anteChains: {
        [EXTENSION_OPTIONS_ETHEREUM_TX_URL]: evmAnteChain(keeper, () => feeMarket),
        // Cosmos txs signed as EIP-712 typed data by an Ethereum wallet (eip712/).
        [EXTENSION_OPTIONS_WEB3_TX_URL]: web3AnteChain({ chainId: (state) => keeper.chainId(state.ctx) }, evmCosmosDecorators(keeper, () => feeMarket)),
      },
      anteDecorators: evmCosmosDecorators(keeper, () => feeMarket),
      // An eth_secp256k1 signature over the EIP-712 typed data of a plain Cosmos tx (eip712/encoding.ts).
      signatureFallback: eip712SignatureFallback,
      // Ethereum senders recovered on the app's worker threads ahead of CheckTx (ante.ts).
      signaturePrecheck: evmSignaturePrecheck(keeper),
    };
  },
});

export { MSG_ETHEREUM_TX_URL };
