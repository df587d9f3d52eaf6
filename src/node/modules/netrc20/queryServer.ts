/** aioz.aiozrc20.v1.Query: ConverterAddress, TokenPairs (paginated), TokenPair, Params. */
import { create } from '@bufbuild/protobuf';
import {
  Query,
  QueryConverterAddressResponseSchema,
  QueryParamsResponseSchema,
  QueryTokenPairResponseSchema,
  QueryTokenPairsResponseSchema,
} from '../../../gen/aioz/aiozrc20/v1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { isValidDenom } from '../shared/coins.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { HEX_ADDRESS, type Aiozrc20Keeper } from './keeper.js';
import { TokenPairs } from './keys.js';

export function aiozrc20QueryService(keeper: Aiozrc20Keeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async converterAddress(_request, ctx) {
      return create(QueryConverterAddressResponseSchema, { converterAddress: await keeper.converterAddress(ctx) });
    },
    async tokenPairs(request, ctx) {
      const page = await paginate(ctx, TokenPairs, request.pagination, { map: (_key, pair) => pair });
      return create(QueryTokenPairsResponseSchema, { tokenPairs: page.items, pagination: page.pagination });
    },
    async tokenPair(request, ctx) {
      if (!HEX_ADDRESS.test(request.token) && !isValidDenom(request.token)) {
        throw grpcError('InvalidArgument', `invalid format for token ${request.token}, should be either hex ('0x...') cosmos denom`);
      }
      const pair = keeper.getPair(ctx, request.token);
      if (pair === undefined) throw grpcError('NotFound', `token pair with token '${request.token}'`);
      return create(QueryTokenPairResponseSchema, { tokenPair: pair });
    },
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}
