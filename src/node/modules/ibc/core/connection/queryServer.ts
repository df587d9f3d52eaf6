/**
 * ibc.core.connection.v1.Query (ibc-go v6 03-connection/keeper/grpc_query.go): one connection end,
 * all of them (store order), a client's connections, the client state and a consensus state of a
 * connection's client, params. As with the client queries, proofs come from
 * `abci_query /store/ibc/key`, so the answers carry none and proof_height is the query's height.
 */
import { create } from '@bufbuild/protobuf';
import { IdentifiedClientStateSchema } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { IdentifiedConnectionSchema } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import {
  Query,
  QueryClientConnectionsResponseSchema,
  QueryConnectionClientStateResponseSchema,
  QueryConnectionConsensusStateResponseSchema,
  QueryConnectionParamsResponseSchema,
  QueryConnectionResponseSchema,
  QueryConnectionsResponseSchema,
} from '../../../../../gen/ibc/core/connection/v1/query_pb.js';
import { paginate } from '../../../../collections/index.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import { ClientErrors } from '../client/errors.js';
import { newHeight, selfHeight } from '../client/height.js';
import { clientIdentifierError, connectionIdentifierError } from '../host/identifiers.js';
import { ConnectionErrors } from './errors.js';
import type { ConnectionKeeper } from './keeper.js';
import { Connections } from './keys.js';

function checkConnectionId(connectionId: string): void {
  const invalid = connectionIdentifierError(connectionId);
  if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
}

export function connectionQueryService(keeper: ConnectionKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async connection(request, ctx) {
      checkConnectionId(request.connectionId);
      const connection = keeper.getConnection(ctx, request.connectionId);
      if (connection === undefined) throw grpcError('NotFound', ConnectionErrors.ConnectionNotFound.wrap(request.connectionId).message);
      return create(QueryConnectionResponseSchema, { connection, proofHeight: selfHeight(ctx) });
    },
    async connections(request, ctx) {
      const page = await paginate(ctx, Connections, request.pagination, {
        map: (id, end) => create(IdentifiedConnectionSchema, { id, clientId: end.clientId, versions: end.versions, state: end.state, counterparty: end.counterparty, delayPeriod: end.delayPeriod }),
      });
      return create(QueryConnectionsResponseSchema, { connections: page.items, pagination: page.pagination, height: selfHeight(ctx) });
    },
    async clientConnections(request, ctx) {
      const invalid = clientIdentifierError(request.clientId);
      if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
      const paths = keeper.getClientConnectionPaths(ctx, request.clientId);
      if (paths === undefined) throw grpcError('NotFound', ConnectionErrors.ClientConnectionPathsNotFound.wrap(request.clientId).message);
      return create(QueryClientConnectionsResponseSchema, { connectionPaths: paths, proofHeight: selfHeight(ctx) });
    },
    async connectionClientState(request, ctx) {
      checkConnectionId(request.connectionId);
      const connection = keeper.getConnection(ctx, request.connectionId);
      if (connection === undefined) throw grpcError('NotFound', ConnectionErrors.ConnectionNotFound.wrap(`connection-id: ${request.connectionId}`).message);
      const clientState = keeper.clientKeeper.getClientStateAny(ctx, connection.clientId);
      if (clientState === undefined) throw grpcError('NotFound', ClientErrors.ClientNotFound.wrap(`client-id: ${connection.clientId}`).message);
      return create(QueryConnectionClientStateResponseSchema, {
        identifiedClientState: create(IdentifiedClientStateSchema, { clientId: connection.clientId, clientState }),
        proofHeight: selfHeight(ctx),
      });
    },
    async connectionConsensusState(request, ctx) {
      checkConnectionId(request.connectionId);
      const connection = keeper.getConnection(ctx, request.connectionId);
      if (connection === undefined) throw grpcError('NotFound', ConnectionErrors.ConnectionNotFound.wrap(`connection-id: ${request.connectionId}`).message);
      const consensusState = keeper.clientKeeper.getClientConsensusStateAny(ctx, connection.clientId, newHeight(request.revisionNumber, request.revisionHeight));
      if (consensusState === undefined) throw grpcError('NotFound', ClientErrors.ConsensusStateNotFound.wrap(`client-id: ${connection.clientId}`).message);
      return create(QueryConnectionConsensusStateResponseSchema, { consensusState, clientId: connection.clientId, proofHeight: selfHeight(ctx) });
    },
    async connectionParams(_request, ctx) {
      return create(QueryConnectionParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}
