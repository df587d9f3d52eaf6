/** cosmos.slashing.v1beta1.Query: Params, SigningInfo, SigningInfos. */
import { create } from '@bufbuild/protobuf';
import { Query, QueryParamsResponseSchema, QuerySigningInfoResponseSchema, QuerySigningInfosResponseSchema } from '../../../gen/cosmos/slashing/v1beta1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { parseConsAddress } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { SlashingKeeper } from './keeper.js';
import { SigningInfos } from './keys.js';

export function slashingQueryService(keeper: SlashingKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
    async signingInfo(request, ctx) {
      if (request.consAddress === '') throw grpcError('InvalidArgument', 'invalid request');
      const parsed = parseConsAddress(request.consAddress);
      if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
      const info = keeper.getSigningInfo(ctx, parsed.bytes);
      if (info === undefined) throw grpcError('NotFound', `SigningInfo not found for validator ${request.consAddress}`);
      return create(QuerySigningInfoResponseSchema, { valSigningInfo: info });
    },
    async signingInfos(request, ctx) {
      const page = await paginate(ctx, SigningInfos, request.pagination, { map: (_key, info) => info });
      return create(QuerySigningInfosResponseSchema, { info: page.items, pagination: page.pagination });
    },
  });
}
