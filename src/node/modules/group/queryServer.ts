/**
 * cosmos.group.v1.Query: the 14 queries (the spec's 13 plus Groups). Lists are paginated over
 * the tables and their indexes; TallyResult computes the tally live while voting is open and
 * returns the stored final tally afterwards.
 */
import { create } from '@bufbuild/protobuf';
import {
  Query,
  QueryGroupInfoResponseSchema,
  QueryGroupMembersResponseSchema,
  QueryGroupPoliciesByAdminResponseSchema,
  QueryGroupPoliciesByGroupResponseSchema,
  QueryGroupPolicyInfoResponseSchema,
  QueryGroupsByAdminResponseSchema,
  QueryGroupsByMemberResponseSchema,
  QueryGroupsResponseSchema,
  QueryProposalResponseSchema,
  QueryProposalsByGroupPolicyResponseSchema,
  QueryTallyResultResponseSchema,
  QueryVoteByProposalVoterResponseSchema,
  QueryVotesByProposalResponseSchema,
  QueryVotesByVoterResponseSchema,
} from '../../../gen/cosmos/group/v1/query_pb.js';
import type { GroupInfo, GroupPolicyInfo, Proposal, Vote } from '../../../gen/cosmos/group/v1/types_pb.js';
import { paginate } from '../../collections/index.js';
import { parseAccAddress } from '../shared/address.js';
import { SdkErrors, grpcError, isSdkError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import type { GroupKeeper } from './keeper.js';
import { GroupMembers, GroupMembersByMember, GroupPolicies, GroupPoliciesByAdmin, GroupPoliciesByGroup, Groups, GroupsByAdmin, Proposals, ProposalsByPolicy, Votes, VotesByVoter } from './keys.js';

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', `${what}: ${parsed.error}`);
  return parsed.bytes;
}

/** Keeper errors as the gRPC statuses the SDK's registered errors carry. */
async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isSdkError(err)) throw err;
    throw grpcError(err.root === SdkErrors.NotFound ? 'NotFound' : 'InvalidArgument', err.log);
  }
}

function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw grpcError('NotFound', `${what}: not found`);
  return value;
}

export function groupQueryService(keeper: GroupKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async groupInfo(request, ctx) {
      return create(QueryGroupInfoResponseSchema, { info: found(Groups.get(ctx, request.groupId), 'group') });
    },
    async groupPolicyInfo(request, ctx) {
      return create(QueryGroupPolicyInfoResponseSchema, { info: found(GroupPolicies.get(ctx, address(request.address, 'group policy address')), 'group policy') });
    },
    async groupMembers(request, ctx) {
      const page = await paginate(ctx, GroupMembers, request.pagination, { prefix: [request.groupId], map: (_key, member) => member });
      return create(QueryGroupMembersResponseSchema, { members: page.items, pagination: page.pagination });
    },
    async groupsByAdmin(request, ctx) {
      const admin = address(request.admin, 'admin');
      const page = await paginate(ctx, GroupsByAdmin.keys, request.pagination, { prefix: [admin], map: ([, id]) => Groups.get(ctx, id) });
      return create(QueryGroupsByAdminResponseSchema, { groups: page.items.filter((g): g is GroupInfo => g !== undefined), pagination: page.pagination });
    },
    async groupPoliciesByGroup(request, ctx) {
      const page = await paginate(ctx, GroupPoliciesByGroup.keys, request.pagination, { prefix: [request.groupId], map: ([, policy]) => GroupPolicies.get(ctx, policy) });
      return create(QueryGroupPoliciesByGroupResponseSchema, { groupPolicies: page.items.filter((p): p is GroupPolicyInfo => p !== undefined), pagination: page.pagination });
    },
    async groupPoliciesByAdmin(request, ctx) {
      const admin = address(request.admin, 'admin');
      const page = await paginate(ctx, GroupPoliciesByAdmin.keys, request.pagination, { prefix: [admin], map: ([, policy]) => GroupPolicies.get(ctx, policy) });
      return create(QueryGroupPoliciesByAdminResponseSchema, { groupPolicies: page.items.filter((p): p is GroupPolicyInfo => p !== undefined), pagination: page.pagination });
    },
    async proposal(request, ctx) {
      return create(QueryProposalResponseSchema, { proposal: found(Proposals.get(ctx, request.proposalId), 'load proposal') });
    },
    async proposalsByGroupPolicy(request, ctx) {
      const policy = address(request.address, 'group policy address');
      const page = await paginate(ctx, ProposalsByPolicy.keys, request.pagination, { prefix: [policy], map: ([, id]) => Proposals.get(ctx, id) });
      return create(QueryProposalsByGroupPolicyResponseSchema, { proposals: page.items.filter((p): p is Proposal => p !== undefined), pagination: page.pagination });
    },
    async voteByProposalVoter(request, ctx) {
      const voter = address(request.voter, 'voter');
      return create(QueryVoteByProposalVoterResponseSchema, { vote: found(Votes.get(ctx, [request.proposalId, voter]), 'vote') });
    },
    async votesByProposal(request, ctx) {
      const page = await paginate(ctx, Votes, request.pagination, { prefix: [request.proposalId], map: (_key, vote) => vote });
      return create(QueryVotesByProposalResponseSchema, { votes: page.items, pagination: page.pagination });
    },
    async votesByVoter(request, ctx) {
      const voter = address(request.voter, 'voter');
      const page = await paginate(ctx, VotesByVoter.keys, request.pagination, { prefix: [voter], map: ([, id]) => Votes.get(ctx, [id, voter]) });
      return create(QueryVotesByVoterResponseSchema, { votes: page.items.filter((v): v is Vote => v !== undefined), pagination: page.pagination });
    },
    async groupsByMember(request, ctx) {
      const member = address(request.address, 'member address');
      const page = await paginate(ctx, GroupMembersByMember.keys, request.pagination, { prefix: [member], map: ([, id]) => Groups.get(ctx, id) });
      return create(QueryGroupsByMemberResponseSchema, { groups: page.items.filter((g): g is GroupInfo => g !== undefined), pagination: page.pagination });
    },
    async tallyResult(request, ctx) {
      return create(QueryTallyResultResponseSchema, { tally: await answer(() => keeper.tallyResult(ctx, request.proposalId)) });
    },
    async groups(request, ctx) {
      const page = await paginate(ctx, Groups, request.pagination, { map: (_id, group) => group });
      return create(QueryGroupsResponseSchema, { groups: page.items, pagination: page.pagination });
    },
  });
}
