/** cosmos.evidence.v1beta1.Query: Evidence by hash, AllEvidence paginated. */
import { create } from '@bufbuild/protobuf';
import { Query, QueryAllEvidenceResponseSchema, QueryEvidenceResponseSchema } from '../../../gen/cosmos/evidence/v1beta1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { EvidenceKeeper } from './keeper.js';
import { Evidence } from './keys.js';

export function evidenceQueryService(keeper: EvidenceKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async evidence(request, ctx) {
      if (request.evidenceHash.length === 0) throw grpcError('InvalidArgument', 'invalid request; hash is empty');
      const evidence = keeper.getEvidence(ctx, request.evidenceHash);
      if (evidence === undefined) throw grpcError('NotFound', `evidence ${Buffer.from(request.evidenceHash).toString('hex').toUpperCase()} not found`);
      return create(QueryEvidenceResponseSchema, { evidence });
    },
    async allEvidence(request, ctx) {
      const page = await paginate(ctx, Evidence, request.pagination, { map: (_hash, evidence) => evidence });
      return create(QueryAllEvidenceResponseSchema, { evidence: page.items, pagination: page.pagination });
    },
  });
}
