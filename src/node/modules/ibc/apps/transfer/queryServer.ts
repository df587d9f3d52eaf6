/**
 * ibc.applications.transfer.v1.Query (ibc-go v6 keeper/grpc_query.go): a trace by hash or by
 * `ibc/<hash>` denom, all traces (a page in store order, sorted by full path), params, the hash
 * of a known trace, and a channel's escrow address.
 */
import { create } from '@bufbuild/protobuf';
import {
  Query,
  QueryDenomHashResponseSchema,
  QueryDenomTraceResponseSchema,
  QueryDenomTracesResponseSchema,
  QueryEscrowAddressResponseSchema,
  QueryParamsResponseSchema,
} from '../../../../../gen/ibc/applications/transfer/v1/query_pb.js';
import { paginate } from '../../../../collections/index.js';
import { accString } from '../../../shared/address.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import { denomTraceError, denomTraceHash, escrowAddress, hexHash, parseDenomTrace, parseHexHash, sortDenomTraces } from './denom.js';
import { TransferErrors } from './errors.js';
import type { TransferKeeper } from './keeper.js';
import { DENOM_PREFIX, DenomTraces } from './keys.js';

export function transferQueryService(keeper: TransferKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async denomTrace(request, ctx) {
      const text = request.hash.startsWith(`${DENOM_PREFIX}/`) ? request.hash.slice(DENOM_PREFIX.length + 1) : request.hash;
      const parsed = parseHexHash(text);
      if (!parsed.ok) throw grpcError('InvalidArgument', `invalid denom trace hash: , error: ${parsed.error}`);
      const trace = keeper.getDenomTrace(ctx, parsed.hash);
      if (trace === undefined) throw grpcError('NotFound', TransferErrors.TraceNotFound.wrap(request.hash).message);
      return create(QueryDenomTraceResponseSchema, { denomTrace: trace });
    },
    async denomTraces(request, ctx) {
      const page = await paginate(ctx, DenomTraces, request.pagination, { map: (_hash, trace) => trace });
      return create(QueryDenomTracesResponseSchema, { denomTraces: sortDenomTraces(page.items), pagination: page.pagination });
    },
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
    async denomHash(request, ctx) {
      const trace = parseDenomTrace(request.trace);
      const invalid = denomTraceError(trace);
      if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
      const hash = denomTraceHash(trace);
      if (!keeper.hasDenomTrace(ctx, hash)) throw grpcError('NotFound', TransferErrors.TraceNotFound.wrap(request.trace).message);
      return create(QueryDenomHashResponseSchema, { hash: hexHash(hash) });
    },
    async escrowAddress(request) {
      return create(QueryEscrowAddressResponseSchema, { escrowAddress: accString(escrowAddress(request.portId, request.channelId)) });
    },
  });
}
