/**
 * cosmos.upgrade.v1beta1.Query: CurrentPlan (none → no plan, not an error), AppliedPlan (height 0
 * when never applied), UpgradedConsensusState (empty when none), ModuleVersions (all, or one by
 * name: NotFound for an unknown module), Authority.
 */
import { create } from '@bufbuild/protobuf';
import {
  Query,
  QueryAppliedPlanResponseSchema,
  QueryAuthorityResponseSchema,
  QueryCurrentPlanResponseSchema,
  QueryModuleVersionsResponseSchema,
  QueryUpgradedConsensusStateResponseSchema,
} from '../../../gen/cosmos/upgrade/v1beta1/query_pb.js';
import { ModuleVersionSchema } from '../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { accString } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { UpgradeKeeper } from './keeper.js';

export function upgradeQueryService(keeper: UpgradeKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async currentPlan(_request, ctx) {
      const plan = keeper.getUpgradePlan(ctx);
      return create(QueryCurrentPlanResponseSchema, plan === undefined ? {} : { plan });
    },
    async appliedPlan(request, ctx) {
      return create(QueryAppliedPlanResponseSchema, { height: await keeper.getDoneHeight(ctx, request.name) });
    },
    async upgradedConsensusState(request, ctx) {
      const state = keeper.getUpgradedConsensusState(ctx, request.lastHeight);
      return create(QueryUpgradedConsensusStateResponseSchema, state === undefined ? {} : { upgradedConsensusState: state });
    },
    async moduleVersions(request, ctx) {
      if (request.moduleName !== '') {
        const version = keeper.getModuleVersion(ctx, request.moduleName);
        if (version === undefined) throw grpcError('NotFound', `x/upgrade: QueryModuleVersions module ${request.moduleName} not found: not found`);
        return create(QueryModuleVersionsResponseSchema, { moduleVersions: [create(ModuleVersionSchema, { name: request.moduleName, version })] });
      }
      const versions = await keeper.getModuleVersions(ctx);
      return create(QueryModuleVersionsResponseSchema, { moduleVersions: versions.map((entry) => create(ModuleVersionSchema, entry)) });
    },
    async authority() {
      return create(QueryAuthorityResponseSchema, { address: accString(keeper.authority) });
    },
  });
}
