/**
 * x/group genesis: the three sequences and every group, member, policy, proposal and vote.
 * Validation follows GenesisState.Validate: ids within their sequences, members and policies of
 * existing groups, valid decision policies, proposals of existing policies, votes on existing
 * proposals by members of the proposal's group.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/group/v1/genesis_pb.js';
import { ProposalStatus, VoteOption } from '../../../gen/cosmos/group/v1/types_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { parseNonNegativeDec, parsePositiveDec } from './decimal.js';
import { GroupMembers, GroupPolicies, GroupPolicySeq, GroupSeq, Groups, ProposalSeq, Proposals, Votes } from './keys.js';
import { decodeDecisionPolicy } from './policy.js';

export function defaultGroupGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema)) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

function addressProblem(text: string, what: string): string | undefined {
  const parsed = parseAccAddress(text);
  return parsed.ok ? undefined : `${what}: ${parsed.error}`;
}

function decProblem(text: string, what: string, positive: boolean): string | undefined {
  try {
    if (positive) parsePositiveDec(text);
    else parseNonNegativeDec(text);
    return undefined;
  } catch (err) {
    return `${what}: ${(err as Error).message}`;
  }
}

export function validateGroupGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid group genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const push = (problem: string | undefined): void => {
    if (problem !== undefined) problems.push(problem);
  };
  const groups = new Map<bigint, string>();
  for (const group of state.groups) {
    if (group.id === 0n) problems.push('group: id must be > 0');
    else if (group.id > state.groupSeq) problems.push(`group ${group.id}: id greater than group_seq ${state.groupSeq}`);
    if (groups.has(group.id)) problems.push(`group ${group.id}: duplicate id`);
    groups.set(group.id, group.totalWeight);
    push(addressProblem(group.admin, `group ${group.id} admin`));
    push(decProblem(group.totalWeight, `group ${group.id} total weight`, false));
    if (group.version === 0n) problems.push(`group ${group.id}: version must be > 0`);
  }
  const members = new Set<string>();
  for (const member of state.groupMembers) {
    if (!groups.has(member.groupId)) problems.push(`group member ${member.member?.address ?? ''}: group ${member.groupId} does not exist`);
    if (member.member === undefined) {
      problems.push(`group member of group ${member.groupId}: member is empty`);
      continue;
    }
    push(addressProblem(member.member.address, `group ${member.groupId} member`));
    push(decProblem(member.member.weight, `group ${member.groupId} member ${member.member.address} weight`, true));
    const key = `${member.groupId}/${member.member.address}`;
    if (members.has(key)) problems.push(`group ${member.groupId}: duplicate member ${member.member.address}`);
    members.add(key);
  }
  const policies = new Map<string, bigint>();
  for (const policy of state.groupPolicies) {
    push(addressProblem(policy.address, 'group policy address'));
    push(addressProblem(policy.admin, `group policy ${policy.address} admin`));
    if (!groups.has(policy.groupId)) problems.push(`group policy ${policy.address}: group ${policy.groupId} does not exist`);
    if (policies.has(policy.address)) problems.push(`group policy ${policy.address}: duplicate address`);
    policies.set(policy.address, policy.groupId);
    try {
      decodeDecisionPolicy(policy.decisionPolicy);
    } catch (err) {
      problems.push(`group policy ${policy.address}: ${(err as Error).message}`);
    }
  }
  const proposals = new Map<bigint, bigint>();
  for (const proposal of state.proposals) {
    if (proposal.id === 0n) problems.push('proposal: id must be > 0');
    else if (proposal.id > state.proposalSeq) problems.push(`proposal ${proposal.id}: id greater than proposal_seq ${state.proposalSeq}`);
    const groupId = policies.get(proposal.groupPolicyAddress);
    if (groupId === undefined) problems.push(`proposal ${proposal.id}: group policy ${proposal.groupPolicyAddress} does not exist`);
    if (proposal.proposers.length === 0) problems.push(`proposal ${proposal.id}: proposers: value is empty`);
    for (const proposer of proposal.proposers) push(addressProblem(proposer, `proposal ${proposal.id} proposer`));
    if (proposal.status === ProposalStatus.UNSPECIFIED) problems.push(`proposal ${proposal.id}: status is unspecified`);
    proposals.set(proposal.id, groupId ?? 0n);
  }
  for (const vote of state.votes) {
    const groupId = proposals.get(vote.proposalId);
    if (groupId === undefined) problems.push(`vote of ${vote.voter}: proposal ${vote.proposalId} does not exist`);
    push(addressProblem(vote.voter, `vote on proposal ${vote.proposalId} voter`));
    if (groupId !== undefined && groupId !== 0n && !members.has(`${groupId}/${vote.voter}`)) problems.push(`vote on proposal ${vote.proposalId}: ${vote.voter} is not a member of group ${groupId}`);
    if (vote.option === VoteOption.UNSPECIFIED) problems.push(`vote on proposal ${vote.proposalId} by ${vote.voter}: vote option: value is empty`);
  }
  return problems;
}

function bytesOf(text: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw new Error(`invalid group genesis address ${text}: ${parsed.error}`);
  return parsed.bytes;
}

export async function initGroupGenesis(ctx: Context, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  GroupSeq.set(ctx, state.groupSeq);
  GroupPolicySeq.set(ctx, state.groupPolicySeq);
  ProposalSeq.set(ctx, state.proposalSeq);
  for (const group of state.groups) Groups.set(ctx, group.id, group);
  for (const member of state.groupMembers) GroupMembers.set(ctx, [member.groupId, bytesOf(member.member!.address)], member);
  for (const policy of state.groupPolicies) GroupPolicies.set(ctx, bytesOf(policy.address), policy);
  for (const proposal of state.proposals) Proposals.set(ctx, proposal.id, proposal);
  for (const vote of state.votes) Votes.set(ctx, [vote.proposalId, bytesOf(vote.voter)], vote);
}

export async function exportGroupGenesis(ctx: Context): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { groupSeq: GroupSeq.peek(ctx), groupPolicySeq: GroupPolicySeq.peek(ctx), proposalSeq: ProposalSeq.peek(ctx) });
  for await (const group of Groups.values(ctx)) state.groups.push(group);
  for await (const member of GroupMembers.values(ctx)) state.groupMembers.push(member);
  for await (const policy of GroupPolicies.values(ctx)) state.groupPolicies.push(policy);
  for await (const proposal of Proposals.values(ctx)) state.proposals.push(proposal);
  for await (const vote of Votes.values(ctx)) state.votes.push(vote);
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
