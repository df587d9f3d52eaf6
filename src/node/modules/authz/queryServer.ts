/**
 * cosmos.authz.v1beta1.Query (x/authz/keeper/grpc_query.go, SDK 0.47): Grants (of a granter to a
 * grantee, optionally one message type), GranterGrants and GranteeGrants, paginated.
 */
import { create } from '@bufbuild/protobuf';
import { GrantAuthorizationSchema, GrantSchema } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { Query, QueryGranteeGrantsResponseSchema, QueryGranterGrantsResponseSchema, QueryGrantsResponseSchema } from '../../../gen/cosmos/authz/v1beta1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { bytesEqual } from '../shared/keys.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { AuthzKeeper } from './keeper.js';
import { Grants } from './keys.js';

function requireAddress(text: string, what: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', `empty ${what} address string is not allowed`);
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', `invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

export function authzQueryService(keeper: AuthzKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async grants(request, ctx) {
      const granter = requireAddress(request.granter, 'granter');
      const grantee = requireAddress(request.grantee, 'grantee');
      if (request.msgTypeUrl !== '') {
        const grant = keeper.getAuthorization(ctx, granter, grantee, request.msgTypeUrl);
        if (grant === undefined) throw grpcError('NotFound', `no authorization found for ${request.msgTypeUrl} type`);
        return create(QueryGrantsResponseSchema, { grants: [create(GrantSchema, { authorization: grant.authorization, expiration: grant.expiration })] });
      }
      const page = await paginate(ctx, Grants, request.pagination, {
        prefix: [granter, grantee],
        map: (_key, grant) => create(GrantSchema, { authorization: grant.authorization, expiration: grant.expiration }),
      });
      return create(QueryGrantsResponseSchema, { grants: page.items, pagination: page.pagination });
    },

    async granterGrants(request, ctx) {
      const granter = requireAddress(request.granter, 'granter');
      const page = await paginate(ctx, Grants, request.pagination, {
        prefix: [granter],
        map: ([, grantee], grant) => create(GrantAuthorizationSchema, { granter: request.granter, grantee: accString(grantee), authorization: grant.authorization, expiration: grant.expiration }),
      });
      return create(QueryGranterGrantsResponseSchema, { grants: page.items, pagination: page.pagination });
    },

    async granteeGrants(request, ctx) {
      const grantee = requireAddress(request.grantee, 'grantee');
      const page = await paginate(ctx, Grants, request.pagination, {
        filter: ([, to]) => bytesEqual(to, grantee),
        map: ([granter], grant) => create(GrantAuthorizationSchema, { granter: accString(granter), grantee: request.grantee, authorization: grant.authorization, expiration: grant.expiration }),
      });
      return create(QueryGranteeGrantsResponseSchema, { grants: page.items, pagination: page.pagination });
    },
  });
}
