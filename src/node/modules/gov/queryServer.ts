/**
 * cosmos.gov.v1.Query and cosmos.gov.v1beta1.Query (x/gov keeper/grpc_query.go, SDK 0.47) over
 * the one v1 state; v1beta1 answers are the v1 records converted (convert.ts).
 */
import { create } from '@bufbuild/protobuf';
import { DepositParamsSchema, ProposalStatus, TallyParamsSchema, VotingParamsSchema, type Proposal, type TallyResult } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import {
  Query,
  QueryDepositResponseSchema,
  QueryDepositsResponseSchema,
  QueryParamsResponseSchema,
  QueryProposalResponseSchema,
  QueryProposalsResponseSchema,
  QueryTallyResultResponseSchema,
  QueryVoteResponseSchema,
  QueryVotesResponseSchema,
} from '../../../gen/cosmos/gov/v1/query_pb.js';
import * as v1beta1 from '../../../gen/cosmos/gov/v1beta1/query_pb.js';
import type { PageRequest } from '../../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { paginate } from '../../collections/index.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { legacyDeposit, legacyDepositParams, legacyProposal, legacyTally, legacyTallyParams, legacyVote, legacyVotingParams } from './convert.js';
import { emptyTally, type GovKeeper } from './keeper.js';
import { Deposits, Proposals, Votes } from './keys.js';

function proposalId(id: bigint): bigint {
  if (id === 0n) throw grpcError('InvalidArgument', 'proposal id can not be 0');
  return id;
}

function accAddress(text: string, what: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', `empty ${what} address`);
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
  return parsed.bytes;
}

function mustProposal(keeper: GovKeeper, ctx: Context, id: bigint): Proposal {
  const proposal = keeper.getProposal(ctx, proposalId(id));
  if (proposal === undefined) throw grpcError('NotFound', `proposal ${id} doesn't exist`);
  return proposal;
}

async function proposals(ctx: Context, request: { proposalStatus: number; voter: string; depositor: string; pagination?: PageRequest }) {
  const voter = request.voter === '' ? undefined : accAddress(request.voter, 'voter');
  const depositor = request.depositor === '' ? undefined : accAddress(request.depositor, 'depositor');
  return paginate(ctx, Proposals, request.pagination, {
    filter: (id, proposal) =>
      (request.proposalStatus === ProposalStatus.UNSPECIFIED || proposal.status === request.proposalStatus) &&
      (voter === undefined || Votes.has(ctx, [id, voter])) &&
      (depositor === undefined || Deposits.has(ctx, [id, depositor])),
    map: (_, proposal) => proposal,
  });
}

async function tallyOf(keeper: GovKeeper, ctx: Context, id: bigint): Promise<TallyResult> {
  const proposal = mustProposal(keeper, ctx, id);
  switch (proposal.status) {
    case ProposalStatus.DEPOSIT_PERIOD:
      return emptyTally();
    case ProposalStatus.VOTING_PERIOD:
      return (await keeper.tally(ctx, proposal, false)).tally;
    default:
      return proposal.finalTallyResult ?? emptyTally();
  }
}

function paramsType(type: string): 'voting' | 'tallying' | 'deposit' {
  if (type === 'voting' || type === 'tallying' || type === 'deposit') return type;
  throw grpcError('InvalidArgument', `${type} is not a valid parameter type`);
}

export function govQueryService(keeper: GovKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async proposal(request, ctx) {
      return create(QueryProposalResponseSchema, { proposal: mustProposal(keeper, ctx, request.proposalId) });
    },
    async proposals(request, ctx) {
      const page = await proposals(ctx, request);
      return create(QueryProposalsResponseSchema, { proposals: page.items, pagination: page.pagination });
    },
    async vote(request, ctx) {
      const id = proposalId(request.proposalId);
      const vote = keeper.getVote(ctx, id, accAddress(request.voter, 'voter'));
      if (vote === undefined) throw grpcError('InvalidArgument', `voter: ${request.voter} not found for proposal: ${id}`);
      return create(QueryVoteResponseSchema, { vote });
    },
    async votes(request, ctx) {
      const id = proposalId(request.proposalId);
      const page = await paginate(ctx, Votes, request.pagination, { prefix: [id], map: (_, vote) => vote });
      return create(QueryVotesResponseSchema, { votes: page.items, pagination: page.pagination });
    },
    async params(request, ctx) {
      // An empty params_type answers all params (as SDK 0.50, where params_type is deprecated).
      const params = keeper.getParams(ctx);
      const response = create(QueryParamsResponseSchema, { params });
      if (request.paramsType === '') return response;
      const type = paramsType(request.paramsType);
      if (type === 'deposit') response.depositParams = create(DepositParamsSchema, { minDeposit: params.minDeposit, maxDepositPeriod: params.maxDepositPeriod });
      if (type === 'voting') response.votingParams = create(VotingParamsSchema, { votingPeriod: params.votingPeriod });
      if (type === 'tallying') response.tallyParams = create(TallyParamsSchema, { quorum: params.quorum, threshold: params.threshold, vetoThreshold: params.vetoThreshold });
      return response;
    },
    async deposit(request, ctx) {
      const id = proposalId(request.proposalId);
      const deposit = keeper.getDeposit(ctx, id, accAddress(request.depositor, 'depositor'));
      if (deposit === undefined) throw grpcError('InvalidArgument', `depositer: ${request.depositor} not found for proposal: ${id}`);
      return create(QueryDepositResponseSchema, { deposit });
    },
    async deposits(request, ctx) {
      const id = proposalId(request.proposalId);
      const page = await paginate(ctx, Deposits, request.pagination, { prefix: [id], map: (_, deposit) => deposit });
      return create(QueryDepositsResponseSchema, { deposits: page.items, pagination: page.pagination });
    },
    async tallyResult(request, ctx) {
      return create(QueryTallyResultResponseSchema, { tally: await tallyOf(keeper, ctx, request.proposalId) });
    },
  });
}

export function govLegacyQueryService(keeper: GovKeeper): QueryServiceImpl {
  return defineQueryService(v1beta1.Query, {
    async proposal(request, ctx) {
      return create(v1beta1.QueryProposalResponseSchema, { proposal: legacyProposal(mustProposal(keeper, ctx, request.proposalId)) });
    },
    async proposals(request, ctx) {
      const page = await proposals(ctx, request);
      return create(v1beta1.QueryProposalsResponseSchema, { proposals: page.items.map(legacyProposal), pagination: page.pagination });
    },
    async vote(request, ctx) {
      const id = proposalId(request.proposalId);
      const vote = keeper.getVote(ctx, id, accAddress(request.voter, 'voter'));
      if (vote === undefined) throw grpcError('InvalidArgument', `voter: ${request.voter} not found for proposal: ${id}`);
      return create(v1beta1.QueryVoteResponseSchema, { vote: legacyVote(vote) });
    },
    async votes(request, ctx) {
      const id = proposalId(request.proposalId);
      const page = await paginate(ctx, Votes, request.pagination, { prefix: [id], map: (_, vote) => legacyVote(vote) });
      return create(v1beta1.QueryVotesResponseSchema, { votes: page.items, pagination: page.pagination });
    },
    async params(request, ctx) {
      const type = paramsType(request.paramsType);
      const params = keeper.getParams(ctx);
      const response = create(v1beta1.QueryParamsResponseSchema);
      if (type === 'deposit') response.depositParams = legacyDepositParams(params);
      if (type === 'voting') response.votingParams = legacyVotingParams(params);
      if (type === 'tallying') response.tallyParams = legacyTallyParams(params);
      return response;
    },
    async deposit(request, ctx) {
      const id = proposalId(request.proposalId);
      const deposit = keeper.getDeposit(ctx, id, accAddress(request.depositor, 'depositor'));
      if (deposit === undefined) throw grpcError('InvalidArgument', `depositer: ${request.depositor} not found for proposal: ${id}`);
      return create(v1beta1.QueryDepositResponseSchema, { deposit: legacyDeposit(deposit) });
    },
    async deposits(request, ctx) {
      const id = proposalId(request.proposalId);
      const page = await paginate(ctx, Deposits, request.pagination, { prefix: [id], map: (_, deposit) => legacyDeposit(deposit) });
      return create(v1beta1.QueryDepositsResponseSchema, { deposits: page.items, pagination: page.pagination });
    },
    async tallyResult(request, ctx) {
      return create(v1beta1.QueryTallyResultResponseSchema, { tally: legacyTally(await tallyOf(keeper, ctx, request.proposalId)) });
    },
  });
}
