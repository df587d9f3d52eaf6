/** The controller's and the host's Query services (ibc-go v6 controller/keeper/grpc_query.go, host/keeper/grpc_query.go). */
import { create } from '@bufbuild/protobuf';
import { Query as ControllerQuery, QueryInterchainAccountResponseSchema, QueryParamsResponseSchema as ControllerParamsResponseSchema } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { Query as HostQuery, QueryParamsResponseSchema as HostParamsResponseSchema } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/query_pb.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import type { ControllerKeeper } from './controller/keeper.js';
import type { HostKeeper } from './host/keeper.js';
import { controllerPortId } from './types.js';

export function icaControllerQueryService(keeper: ControllerKeeper): QueryServiceImpl {
  return defineQueryService(ControllerQuery, {
    async interchainAccount(request, ctx) {
      let portId: string;
      try {
        portId = controllerPortId(request.owner);
      } catch (err) {
        throw grpcError('InvalidArgument', `failed to generate portID from owner address: ${(err as Error).message}`);
      }
      const address = keeper.getInterchainAccountAddress(ctx, request.connectionId, portId);
      if (address === undefined) throw grpcError('NotFound', `failed to retrieve account address for ${portId} on connection ${request.connectionId}`);
      return create(QueryInterchainAccountResponseSchema, { address });
    },
    async params(_request, ctx) {
      return create(ControllerParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}

export function icaHostQueryService(keeper: HostKeeper): QueryServiceImpl {
  return defineQueryService(HostQuery, {
    async params(_request, ctx) {
      return create(HostParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}
