/**
 * The v1 state seen as cosmos.gov.v1beta1 (x/gov migrations/v3 ConvertToLegacy*): a proposal
 * with exactly one message, its content (a MsgExecLegacyContent's content, or the message
 * itself); weights as LegacyDec wire text; params split into deposit, voting and tally params.
 */
import { create } from '@bufbuild/protobuf';
import { TimestampSchema, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { Deposit, Params, Proposal, TallyResult, Vote } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import {
  DepositParamsSchema,
  DepositSchema,
  ProposalSchema,
  TallyParamsSchema,
  TallyResultSchema,
  VoteOption,
  VoteSchema,
  VotingParamsSchema,
  WeightedVoteOptionSchema,
  type DepositParams,
  type Deposit as LegacyDeposit,
  type Proposal as LegacyProposal,
  type TallyParams,
  type TallyResult as LegacyTallyResult,
  type Vote as LegacyVote,
  type VotingParams,
} from '../../../gen/cosmos/gov/v1beta1/gov_pb.js';
import { legacyDecToWire } from '../../codec/decimal.js';
import { SdkErrors } from '../shared/errors.js';
import { emptyTally, MSG_EXEC_LEGACY_CONTENT_URL } from './keeper.js';
import { fromBinary } from '@bufbuild/protobuf';
import { MsgExecLegacyContentSchema } from '../../../gen/cosmos/gov/v1/tx_pb.js';

/** Go's zero time (0001-01-01T00:00:00Z), what a non-nullable unset time shows in v1beta1. */
const ZERO_TIME: Timestamp = create(TimestampSchema, { seconds: -62135596800n, nanos: 0 });

function orZero(time: Timestamp | undefined): Timestamp {
  return time ?? ZERO_TIME;
}

export function legacyTally(tally: TallyResult | undefined): LegacyTallyResult {
  const t = tally ?? emptyTally();
  return create(TallyResultSchema, { yes: t.yesCount || '0', abstain: t.abstainCount || '0', no: t.noCount || '0', noWithVeto: t.noWithVetoCount || '0' });
}

export function legacyProposal(proposal: Proposal): LegacyProposal {
  if (proposal.messages.length !== 1) {
    throw SdkErrors.InvalidType.wrap("can't convert a gov/v1 Proposal to gov/v1beta1 Proposal when amount of proposal messages not exactly one");
  }
  const msg = proposal.messages[0]!;
  const content = msg.typeUrl === MSG_EXEC_LEGACY_CONTENT_URL ? fromBinary(MsgExecLegacyContentSchema, msg.value).content : msg;
  return create(ProposalSchema, {
    proposalId: proposal.id,
    content,
    status: proposal.status,
    finalTallyResult: legacyTally(proposal.finalTallyResult),
    submitTime: orZero(proposal.submitTime),
    depositEndTime: orZero(proposal.depositEndTime),
    totalDeposit: proposal.totalDeposit,
    votingStartTime: orZero(proposal.votingStartTime),
    votingEndTime: orZero(proposal.votingEndTime),
  });
}

export function legacyVote(vote: Vote): LegacyVote {
  const options = vote.options.map((option) => create(WeightedVoteOptionSchema, { option: option.option, weight: legacyDecToWire(option.weight) }));
  const single = vote.options.length === 1 && legacyDecToWire(vote.options[0]!.weight) === legacyDecToWire('1');
  return create(VoteSchema, { proposalId: vote.proposalId, voter: vote.voter, option: single ? vote.options[0]!.option : VoteOption.UNSPECIFIED, options });
}

export function legacyDeposit(deposit: Deposit): LegacyDeposit {
  return create(DepositSchema, { proposalId: deposit.proposalId, depositor: deposit.depositor, amount: deposit.amount });
}

const encoder = new TextEncoder();

export function legacyDepositParams(params: Params): DepositParams {
  return create(DepositParamsSchema, { minDeposit: params.minDeposit, maxDepositPeriod: params.maxDepositPeriod });
}

export function legacyVotingParams(params: Params): VotingParams {
  return create(VotingParamsSchema, { votingPeriod: params.votingPeriod });
}

export function legacyTallyParams(params: Params): TallyParams {
  return create(TallyParamsSchema, {
    quorum: encoder.encode(legacyDecToWire(params.quorum)),
    threshold: encoder.encode(legacyDecToWire(params.threshold)),
    vetoThreshold: encoder.encode(legacyDecToWire(params.vetoThreshold)),
  });
}
