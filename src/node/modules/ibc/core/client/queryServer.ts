/**
 * ibc.core.client.v1.Query (ibc-go v6 02-client/keeper/grpc_query.go): client states (one, all
 * sorted by id), consensus states (one, latest, all, their heights — in the store's key order),
 * client status, params, and the client / consensus state committed for a scheduled upgrade.
 * States are returned as the stored Anys; proofs come from `abci_query /store/ibc/key`, so the
 * gRPC answers carry none, and proof_height is this chain's height of the query.
 */
import { create } from '@bufbuild/protobuf';
import { ConsensusStateWithHeightSchema, IdentifiedClientStateSchema } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import {
  Query,
  QueryClientParamsResponseSchema,
  QueryClientStateResponseSchema,
  QueryClientStatesResponseSchema,
  QueryClientStatusResponseSchema,
  QueryConsensusStateHeightsResponseSchema,
  QueryConsensusStateResponseSchema,
  QueryConsensusStatesResponseSchema,
  QueryUpgradedClientStateResponseSchema,
  QueryUpgradedConsensusStateResponseSchema,
} from '../../../../../gen/ibc/core/client/v1/query_pb.js';
import { paginate } from '../../../../collections/index.js';
import { grpcError } from '../../../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../../../shared/module.js';
import { decodeAny, latestHeight } from '../../lightclients/tendermint/client.js';
import { clientIdentifierError } from '../host/identifiers.js';
import { ClientErrors } from './errors.js';
import { formatHeight, newHeight, parseHeight, selfHeight } from './height.js';
import type { ClientKeeper } from './keeper.js';
import { ClientStore, SECTION_CONSENSUS_STATES, SECTION_OTHER, keyText } from './keys.js';

function checkClientId(clientId: string): void {
  const invalid = clientIdentifierError(clientId);
  if (invalid !== undefined) throw grpcError('InvalidArgument', invalid.message);
}

function consensusStateRest(rest: Uint8Array): string | undefined {
  const text = keyText(rest);
  return text.includes('/') ? undefined : text;
}

export function clientQueryService(keeper: ClientKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async clientState(request, ctx) {
      checkClientId(request.clientId);
      const any = keeper.getClientStateAny(ctx, request.clientId);
      if (any === undefined) throw grpcError('NotFound', ClientErrors.ClientNotFound.wrap(request.clientId).message);
      return create(QueryClientStateResponseSchema, { clientState: any, proofHeight: selfHeight(ctx) });
    },
    async clientStates(request, ctx) {
      const page = await paginate(ctx, ClientStore, request.pagination, {
        filter: ([, section, rest]) => section === SECTION_OTHER && keyText(rest) === 'clientState',
        map: ([clientId], value) => create(IdentifiedClientStateSchema, { clientId, clientState: decodeAny(value) }),
      });
      const clientStates = [...page.items].sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
      return create(QueryClientStatesResponseSchema, { clientStates, pagination: page.pagination });
    },
    async consensusState(request, ctx) {
      checkClientId(request.clientId);
      let height = newHeight(request.revisionNumber, request.revisionHeight);
      if (request.latestHeight) {
        const cs = keeper.getClientState(ctx, request.clientId);
        if (cs === undefined) throw grpcError('NotFound', ClientErrors.ConsensusStateNotFound.wrap(`client-id: ${request.clientId}, height: latest`).message);
        height = latestHeight(cs);
      } else if (request.revisionHeight === 0n) {
        throw grpcError('InvalidArgument', 'consensus state height cannot be 0');
      }
      const any = keeper.getClientConsensusStateAny(ctx, request.clientId, height);
      if (any === undefined) throw grpcError('NotFound', ClientErrors.ConsensusStateNotFound.wrap(`client-id: ${request.clientId}, height: ${formatHeight(height)}`).message);
      return create(QueryConsensusStateResponseSchema, { consensusState: any, proofHeight: selfHeight(ctx) });
    },
    async consensusStates(request, ctx) {
      checkClientId(request.clientId);
      const page = await paginate(ctx, ClientStore, request.pagination, {
        prefix: [request.clientId, SECTION_CONSENSUS_STATES],
        filter: ([, , rest]) => consensusStateRest(rest) !== undefined,
        map: ([, , rest], value) => create(ConsensusStateWithHeightSchema, { height: parseHeight(keyText(rest)), consensusState: decodeAny(value) }),
      });
      return create(QueryConsensusStatesResponseSchema, { consensusStates: page.items, pagination: page.pagination });
    },
    async consensusStateHeights(request, ctx) {
      checkClientId(request.clientId);
      const page = await paginate(ctx, ClientStore, request.pagination, {
        prefix: [request.clientId, SECTION_CONSENSUS_STATES],
        filter: ([, , rest]) => consensusStateRest(rest) !== undefined,
        map: ([, , rest]) => parseHeight(keyText(rest)),
      });
      return create(QueryConsensusStateHeightsResponseSchema, { consensusStateHeights: page.items, pagination: page.pagination });
    },
    async clientStatus(request, ctx) {
      checkClientId(request.clientId);
      if (keeper.getClientState(ctx, request.clientId) === undefined) throw grpcError('NotFound', ClientErrors.ClientNotFound.wrap(request.clientId).message);
      return create(QueryClientStatusResponseSchema, { status: keeper.getStatus(ctx, request.clientId) });
    },
    async clientParams(_request, ctx) {
      return create(QueryClientParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
    async upgradedClientState(_request, ctx) {
      const result = keeper.getUpgradedClientAny(ctx);
      if (result === 'no-plan') throw grpcError('NotFound', 'upgrade plan not found');
      if (result === undefined) throw grpcError('NotFound', ClientErrors.ClientNotFound.description);
      return create(QueryUpgradedClientStateResponseSchema, { upgradedClientState: result });
    },
    async upgradedConsensusState(_request, ctx) {
      const any = keeper.getUpgradedConsensusStateAny(ctx);
      if (any === undefined) throw grpcError('NotFound', `${ClientErrors.ConsensusStateNotFound.description}, height ${ctx.header.height}`);
      return create(QueryUpgradedConsensusStateResponseSchema, { upgradedConsensusState: any });
    },
  });
}
