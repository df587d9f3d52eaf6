/** aioz.icamauth.v1beta1.Query: InterchainAccount (Gaia v8 x/icamauth/keeper/grpc_query.go). */
import { create } from '@bufbuild/protobuf';
import { Query, QueryInterchainAccountResponseSchema } from '../../../gen/aioz/icamauth/v1beta1/query_pb.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { IcamauthKeeper } from './keeper.js';

export function icamauthQueryService(keeper: IcamauthKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async interchainAccount(request, ctx) {
      let found: { portId: string; address: string | undefined };
      try {
        found = keeper.interchainAccountAddress(ctx, request.owner, request.connectionId);
      } catch (err) {
        throw grpcError('InvalidArgument', `could not find account: ${(err as Error).message}`);
      }
      if (found.address === undefined) throw grpcError('NotFound', `no account found for portID ${found.portId}`);
      return create(QueryInterchainAccountResponseSchema, { interchainAccountAddress: found.address });
    },
  });
}
