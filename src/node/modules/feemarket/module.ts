/** The fee market module (ethermint.feemarket.v1): EIP-1559 base fee, block gas, min gas price. */
import { ParamsSchema as ParamSpaceSchema } from '../../../gen/ethermint/feemarket/v1/feemarket_pb.js';
import { protoParamSpace } from '../../platform/params.js';
import { create, type JsonObject } from '@bufbuild/protobuf';
import { GenesisStateSchema } from '../../../gen/ethermint/feemarket/v1/genesis_pb.js';
import { Query, QueryBaseFeeResponseSchema, QueryBlockGasResponseSchema, QueryParamsResponseSchema } from '../../../gen/ethermint/feemarket/v1/query_pb.js';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/ethermint/feemarket/v1/tx_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { checkAuthority } from '../../platform/authority.js';
import { defineModule } from '../../platform/module.js';
import { feemarketCli } from './cli.js';
import { SdkErrors } from '../shared/errors.js';
import { defineQueryService, msgRoute } from '../shared/module.js';
import { FeeMarketKeeper } from './keeper.js';
import { MODULE_NAME, feemarketStoreKey } from './keys.js';
import { defaultFeeMarketParams, validateFeeMarketParams } from './params.js';

export const feemarketModule = defineModule<FeeMarketKeeper>({
  name: MODULE_NAME,
  storeKeys: [feemarketStoreKey],
  msgService: Msg,
  queryServices: [Query],
  cli: feemarketCli,
  consensusVersion: 4,
  create(deps) {
    const keeper = new FeeMarketKeeper();
    return {
      keeper,
      paramSpace: protoParamSpace(ParamSpaceSchema, { get: (ctx) => keeper.getParams(ctx), set: (ctx, p) => keeper.setParams(ctx, p), validate: validateFeeMarketParams }),
      msgRoutes: [
        msgRoute(Msg.method.updateParams, (ctx, msg) => {
          checkAuthority(deps.authority, msg.authority);
          if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
          const problems = validateFeeMarketParams(msg.params);
          if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
          keeper.setParams(ctx, msg.params);
          return create(MsgUpdateParamsResponseSchema);
        }),
      ],
      queryServices: [
        defineQueryService(Query, {
          params: async (_r, ctx) => create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) }),
          baseFee: async (_r, ctx) => create(QueryBaseFeeResponseSchema, { baseFee: keeper.getBaseFee(ctx)?.toString() ?? '' }),
          blockGas: async (_r, ctx) => create(QueryBlockGasResponseSchema, { gas: keeper.getBlockGas(ctx) }),
        }),
      ],
      genesis: {
        default: () => toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultFeeMarketParams(), blockGas: 0n })) as JsonObject,
        validate: (json) => {
          try {
            const state = fromGatewayJson(GenesisStateSchema, json ?? {});
            // A genesis without a feemarket entry takes the defaults.
            return state.params === undefined ? [] : validateFeeMarketParams(state.params);
          } catch (err) {
            return [`invalid feemarket genesis: ${(err as Error).message}`];
          }
        },
        init: async (ctx, json) => {
          const state = fromGatewayJson(GenesisStateSchema, json ?? {});
          keeper.setParams(ctx, state.params ?? defaultFeeMarketParams());
          keeper.setBlockGas(ctx, state.blockGas);
        },
        export: async (ctx) => toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: keeper.getParams(ctx), blockGas: keeper.getBlockGas(ctx) })) as JsonObject,
      },
      beginBlock: async (ctx) => keeper.beginBlock(ctx),
      endBlock: async (ctx) => {
        keeper.endBlock(ctx);
      },
    };
  },
});
