/**
 * cosmos.feegrant.v1beta1.Query (x/feegrant/keeper/grpc_query.go, SDK 0.47): Allowance,
 * Allowances (by grantee) and AllowancesByGranter, paginated.
 */
import { create } from '@bufbuild/protobuf';
import { Query, QueryAllowanceResponseSchema, QueryAllowancesByGranterResponseSchema, QueryAllowancesResponseSchema } from '../../../gen/cosmos/feegrant/v1beta1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { parseAccAddress } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { bytesEqual } from '../shared/keys.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { FeegrantKeeper } from './keeper.js';
import { Allowances } from './keys.js';

function requireAddress(text: string, what: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', `empty ${what} address string is not allowed`);
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', `invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

export function feegrantQueryService(keeper: FeegrantKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async allowance(request, ctx) {
      const granter = requireAddress(request.granter, 'granter');
      const grantee = requireAddress(request.grantee, 'grantee');
      // The SDK answers the keeper's ErrNoAllowance ("fee-grant not found: no allowance").
      return create(QueryAllowanceResponseSchema, { allowance: keeper.requireGrant(ctx, granter, grantee) });
    },

    async allowances(request, ctx) {
      const grantee = requireAddress(request.grantee, 'grantee');
      const page = await paginate(ctx, Allowances, request.pagination, { prefix: [grantee], map: (_key, grant) => grant });
      return create(QueryAllowancesResponseSchema, { allowances: page.items, pagination: page.pagination });
    },

    async allowancesByGranter(request, ctx) {
      const granter = requireAddress(request.granter, 'granter');
      const page = await paginate(ctx, Allowances, request.pagination, { filter: ([, from]) => bytesEqual(from, granter), map: (_key, grant) => grant });
      return create(QueryAllowancesByGranterResponseSchema, { allowances: page.items, pagination: page.pagination });
    },
  });
}
