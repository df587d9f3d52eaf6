/** aioz.bonus.v1.Query: Params. */
import { create } from '@bufbuild/protobuf';
import { Query, QueryParamsResponseSchema } from '../../../gen/aioz/bonus/v1/query_pb.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { BonusKeeper } from './keeper.js';

export function bonusQueryService(keeper: BonusKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}
