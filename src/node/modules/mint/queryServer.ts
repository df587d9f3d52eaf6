/**
 * aioz.mint.v1.Query: Params, Inflation (the per-block rate in force at the queried height: the
 * parameter from start_height on, zero before) and AnnualInflation (that rate compounded over
 * blocks_per_year). Both decimals are LegacyDec wire text in bytes fields.
 */
import { create } from '@bufbuild/protobuf';
import { Query, QueryAnnualInflationResponseSchema, QueryInflationResponseSchema, QueryParamsResponseSchema } from '../../../gen/aioz/mint/v1/query_pb.js';
import { decToWire } from '../shared/dec.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { MintKeeper } from './keeper.js';

const encoder = new TextEncoder();

export function mintQueryService(keeper: MintKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
    async inflation(_request, ctx) {
      return create(QueryInflationResponseSchema, { inflation: encoder.encode(decToWire(keeper.currentInflation(ctx))) });
    },
    async annualInflation(_request, ctx) {
      return create(QueryAnnualInflationResponseSchema, { annualInflation: encoder.encode(decToWire(keeper.currentAnnualInflation(ctx))) });
    },
  });
}
