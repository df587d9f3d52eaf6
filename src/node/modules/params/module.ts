/**
 * The params module (cosmos.params.v1beta1): every module's parameter space (ModuleInstance
 * `paramSpace`, platform/params.ts) as the SDK's subspaces — read by the Params and Subspaces
 * queries, changed only by a passed ParameterChangeProposal (validated as the owning module's
 * MsgUpdateParams would validate the result). It keeps no state of its own: the values live in
 * the modules' params.
 */
import { create } from '@bufbuild/protobuf';
import { ParamChangeSchema, ParameterChangeProposalSchema, type ParameterChangeProposal } from '../../../gen/cosmos/params/v1beta1/params_pb.js';
import { Query, QueryParamsResponseSchema, QuerySubspacesResponseSchema, SubspaceSchema } from '../../../gen/cosmos/params/v1beta1/query_pb.js';
import { contentRoute } from '../../platform/content.js';
import { paramsCli } from './cli.js';
import { defineModule } from '../../platform/module.js';
import { ParamsErrors, type ParamSpaces } from '../../platform/params.js';
import { StoreKey } from '../../store/storeKey.js';
import type { Context } from '../shared/context.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService } from '../shared/module.js';

export const paramsStoreKey = StoreKey.persistent('params');

/** ValidateChanges, then each change through its subspace (nothing is kept if one fails: the caller branches). */
export function applyParameterChange(ctx: Context, spaces: ParamSpaces, proposal: ParameterChangeProposal): void {
  if (proposal.changes.length === 0) throw ParamsErrors.EmptyChanges.error();
  for (const change of proposal.changes) {
    if (change.subspace === '') throw ParamsErrors.EmptySubspace.error();
    if (change.key === '') throw ParamsErrors.EmptyKey.error();
    if (change.value === '') throw ParamsErrors.EmptyValue.error();
  }
  for (const change of proposal.changes) {
    const space = spaces.get(change.subspace);
    if (space === undefined) throw ParamsErrors.UnknownSubspace.wrap(change.subspace);
    space.set(ctx, [{ key: change.key, value: change.value }]);
  }
}

export const paramsModule = defineModule<ParamSpaces>({
  name: 'params',
  storeKeys: [paramsStoreKey],
  queryServices: [Query],
  interfaces: [ParameterChangeProposalSchema],
  errors: ParamsErrors,
  cli: paramsCli,
  consensusVersion: 1,
  create(deps) {
    const spaces = deps.paramSpaces;
    return {
      keeper: spaces,
      legacyContent: [contentRoute(ParameterChangeProposalSchema, async (ctx, proposal) => applyParameterChange(ctx, spaces, proposal))],
      queryServices: [
        defineQueryService(Query, {
          async params(request, ctx) {
            if (request.subspace === '' || request.key === '') throw grpcError('InvalidArgument', 'invalid request');
            const space = spaces.get(request.subspace);
            if (space === undefined) throw grpcError('NotFound', `${ParamsErrors.UnknownSubspace.description}: ${request.subspace}`);
            const value = space.get(ctx, request.key) ?? '';
            return create(QueryParamsResponseSchema, { param: create(ParamChangeSchema, { subspace: request.subspace, key: request.key, value }) });
          },
          async subspaces() {
            const subspaces = spaces.names().map((name) => create(SubspaceSchema, { subspace: name, keys: [...spaces.get(name)!.keys] }));
            return create(QuerySubspacesResponseSchema, { subspaces });
          },
        }),
      ],
    };
  },
});
