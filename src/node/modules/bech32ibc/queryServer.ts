/** bech32ibc.bech32ibc.v1beta1.Query: the routing records, one prefix's record, the native prefix. */
import { create } from '@bufbuild/protobuf';
import { Query, QueryHrpIbcRecordResponseSchema, QueryHrpIbcRecordsResponseSchema, QueryNativeHrpResponseSchema } from '../../../gen/bech32ibc/bech32ibc/v1beta1/query_pb.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { Bech32IbcKeeper } from './keeper.js';

export function bech32ibcQueryService(keeper: Bech32IbcKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async hrpIbcRecords(_request, ctx) {
      return create(QueryHrpIbcRecordsResponseSchema, { hrpIbcRecords: await keeper.getHrpIbcRecords(ctx) });
    },
    async hrpIbcRecord(request, ctx) {
      return create(QueryHrpIbcRecordResponseSchema, { hrpIbcRecord: keeper.getHrpIbcRecord(ctx, request.hrp) });
    },
    async nativeHrp(_request, ctx) {
      return create(QueryNativeHrpResponseSchema, { nativeHrp: keeper.getNativeHrp(ctx) });
    },
  });
}
