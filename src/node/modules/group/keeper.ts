/**
 * The group keeper (x/group/keeper, SDK 0.47): groups and members, group policies (accounts of a
 * group with a decision policy), proposals, votes, tallies and execution.
 *
 * - A group's total weight is the sum of its members' weights; every change of members, admin or
 *   metadata bumps its version. Tallies read the members' current weights (a member who left is
 *   not counted), as the SDK does; membership changes do not abort proposals.
 * - Changing a group policy (admin, decision policy, metadata) bumps its version and aborts the
 *   proposals of that policy still being voted on.
 * - A proposal is accepted or rejected as soon as its decision policy's result is final (Exec),
 *   otherwise at the end of its voting period (EndBlock); its votes are pruned then and the final
 *   tally is stored. Exec runs the messages in a branch as the policy account: SUCCESS keeps the
 *   writes and prunes the proposal, FAILURE discards them and keeps the proposal for a retry.
 * - EndBlock prunes withdrawn and aborted proposals after their voting period, and every proposal
 *   whose execution window (voting end + max execution period) has passed.
 */
import { create, type DescMessage, type Message } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Any, type Timestamp } from '@bufbuild/protobuf/wkt';
import { EventCreateGroupPolicySchema, EventCreateGroupSchema, EventExecSchema, EventLeaveGroupSchema, EventProposalPrunedSchema, EventSubmitProposalSchema, EventUpdateGroupPolicySchema, EventUpdateGroupSchema, EventVoteSchema, EventWithdrawProposalSchema } from '../../../gen/cosmos/group/v1/events_pb.js';
import { Exec } from '../../../gen/cosmos/group/v1/tx_pb.js';
import {
  GroupInfoSchema,
  GroupMemberSchema,
  GroupPolicyInfoSchema,
  MemberSchema,
  ProposalExecutorResult,
  ProposalSchema,
  ProposalStatus,
  VoteOption,
  VoteSchema,
  type GroupInfo,
  type GroupMember,
  type GroupPolicyInfo,
  type MemberRequest,
  type Proposal,
  type TallyResult,
} from '../../../gen/cosmos/group/v1/types_pb.js';
import type { Registry } from '@bufbuild/protobuf';
import { fromBinary } from '@bufbuild/protobuf';
import { messageSigners } from '../../app/tx.js';
import type { MsgRouter } from '../../platform/router.js';
import type { Account } from '../auth/account.js';
import { accString, parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors, wrapError } from '../shared/errors.js';
import { OutOfGasError, isStoreError } from '../../store/index.js';
import { EventManager } from '../shared/events.js';
import { bytesEqual } from '../shared/keys.js';
import { groupPolicyAddress } from './address.js';
import { DEC_ZERO, decString, parseNonNegativeDec, parsePositiveDec, subNonNegative } from './decimal.js';
import { GroupErrors, GroupOrmErrors } from './errors.js';
import { typedEvent } from './events.js';
import type { GroupAccountKeeper } from './expectedKeepers.js';
import { GroupMembers, GroupMembersByMember, GroupPolicies, GroupPoliciesByGroup, GroupPolicySeq, GroupSeq, Groups, ProposalSeq, Proposals, ProposalsByPolicy, ProposalsByVotingPeriodEnd, Votes } from './keys.js';
import { DEFAULT_GROUP_CONFIG, allow, decodeDecisionPolicy, emptyTally, tallyFromMessage, tallyMessage, validatePolicyForGroup, type DecisionPolicy, type GroupConfig, type Tally } from './policy.js';

/** An account address argument: ErrInvalidAddress naming the field. */
export function accAddress(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`${what}: ${parsed.error}`);
  return parsed.bytes;
}

function nowNanos(ctx: Context): bigint {
  return BigInt(ctx.blockTime.getTime()) * 1_000_000n;
}

function timestampNanos(ts: Timestamp | undefined): bigint {
  return ts === undefined ? 0n : ts.seconds * 1_000_000_000n + BigInt(ts.nanos);
}

function addMs(date: Date, ms: number): Timestamp {
  return timestampFromDate(new Date(date.getTime() + ms));
}

/** The shape an SDK error prints a time in (Go's time.Time String for UTC). */
function goTime(ts: Timestamp): string {
  return `${timestampDate(ts).toISOString().replace('T', ' ').replace(/\.000Z$/, 'Z').replace('Z', ' +0000 UTC')}`;
}

export interface CheckedMember {
  address: string;
  addressBytes: Uint8Array;
  weight: bigint;
  weightText: string;
  metadata: string;
}

export class GroupKeeper {
  constructor(
    private readonly accounts: GroupAccountKeeper,
    private readonly router: MsgRouter,
    private readonly registry: () => Registry,
    readonly config: GroupConfig = DEFAULT_GROUP_CONFIG,
  ) {}

  // ------------------------------------------------------------------ reads

  getGroup(ctx: Context, id: bigint): GroupInfo {
    const group = Groups.get(ctx, id);
    if (group === undefined) throw SdkErrors.NotFound.wrap(`group ${id}`);
    return group;
  }

  getGroupPolicy(ctx: Context, address: string): GroupPolicyInfo {
    const policy = GroupPolicies.get(ctx, accAddress(address, 'group policy address'));
    if (policy === undefined) throw SdkErrors.NotFound.wrap(`group policy ${address}`);
    return policy;
  }

  getProposal(ctx: Context, id: bigint): Proposal {
    const proposal = Proposals.get(ctx, id);
    if (proposal === undefined) throw SdkErrors.NotFound.wrap(`proposal ${id}: load proposal`);
    return proposal;
  }

  getMember(ctx: Context, groupId: bigint, address: Uint8Array): GroupMember | undefined {
    return GroupMembers.get(ctx, [groupId, address]);
  }

  decisionPolicyOf(policy: GroupPolicyInfo): DecisionPolicy {
    return decodeDecisionPolicy(policy.decisionPolicy);
  }

  // ------------------------------------------------------------------ checks

  assertMetadata(metadata: string, what: string): void {
    if (metadata !== '' && new TextEncoder().encode(metadata).length > this.config.maxMetadataLen) throw GroupErrors.MaxLimit.wrap(what);
  }

  /** MemberRequests.ValidateBasic plus the metadata limit: valid addresses, no duplicates. */
  checkMembers(members: readonly MemberRequest[], positive: boolean): CheckedMember[] {
    const seen = new Set<string>();
    return members.map((member) => {
      const addressBytes = accAddress(member.address, 'address');
      const key = Buffer.from(addressBytes).toString('hex');
      if (seen.has(key)) throw GroupErrors.Duplicate.wrap(`address: ${member.address}`);
      seen.add(key);
      let weight: bigint;
      try {
        weight = positive ? parsePositiveDec(member.weight) : parseNonNegativeDec(member.weight);
      } catch (err) {
        throw GroupErrors.Invalid.wrap(`member weight: ${(err as Error).message}`);
      }
      this.assertMetadata(member.metadata, 'member metadata');
      return { address: member.address, addressBytes, weight, weightText: member.weight, metadata: member.metadata };
    });
  }

  /** Every policy of the group must still be satisfiable after a change of its weight. */
  private async validateDecisionPolicies(ctx: Context, group: GroupInfo): Promise<void> {
    for await (const address of GroupPoliciesByGroup.matchExact(ctx, group.id)) {
      const policy = GroupPolicies.get(ctx, address);
      if (policy !== undefined) validatePolicyForGroup(this.decisionPolicyOf(policy), group, this.config);
    }
  }

  private requireGroupAdmin(group: GroupInfo, admin: string): void {
    accAddress(admin, 'admin');
    if (group.admin !== admin) throw SdkErrors.Unauthorized.wrap(`not group admin; got ${admin}, expected ${group.admin}`);
  }

  // ------------------------------------------------------------------ groups

  async createGroup(ctx: Context, admin: string, members: readonly MemberRequest[], metadata: string): Promise<bigint> {
    accAddress(admin, 'admin');
    const checked = this.checkMembers(members, true);
    this.assertMetadata(metadata, 'group metadata');
    let total = DEC_ZERO;
    for (const member of checked) total += member.weight;
    const id = GroupSeq.next(ctx) + 1n;
    const createdAt = timestampFromDate(ctx.blockTime);
    Groups.set(ctx, id, create(GroupInfoSchema, { id, admin, metadata, version: 1n, totalWeight: decString(total), createdAt }));
    for (const member of checked) {
      GroupMembers.set(ctx, [id, member.addressBytes], create(GroupMemberSchema, { groupId: id, member: create(MemberSchema, { address: member.address, weight: member.weightText, metadata: member.metadata, addedAt: createdAt }) }));
    }
    ctx.events.emit(typedEvent(EventCreateGroupSchema, create(EventCreateGroupSchema, { groupId: id })));
    return id;
  }

  /** doUpdateGroup: the admin check, the change, the event. */
  private async updateGroup(ctx: Context, groupId: bigint, admin: string, note: string, action: (group: GroupInfo) => Promise<void>): Promise<void> {
    const group = this.getGroup(ctx, groupId);
    this.requireGroupAdmin(group, admin);
    try {
      await action(group);
    } catch (err) {
      throw wrapError(err, note);
    }
    ctx.events.emit(typedEvent(EventUpdateGroupSchema, create(EventUpdateGroupSchema, { groupId })));
  }

  async updateGroupMembers(ctx: Context, admin: string, groupId: bigint, updates: readonly MemberRequest[]): Promise<void> {
    if (groupId === 0n) throw GroupErrors.Empty.wrap('group id');
    if (updates.length === 0) throw GroupErrors.Empty.wrap('member updates');
    const checked = this.checkMembers(updates, false);
    await this.updateGroup(ctx, groupId, admin, 'members updated', async (group) => {
      let total = parseNonNegativeDec(group.totalWeight);
      for (const update of checked) {
        const previous = GroupMembers.get(ctx, [groupId, update.addressBytes]);
        if (update.weight === DEC_ZERO) {
          if (previous === undefined) throw SdkErrors.NotFound.wrap('unknown member');
          total = subNonNegative(total, parsePositiveDec(previous.member!.weight));
          GroupMembers.remove(ctx, [groupId, update.addressBytes]);
          continue;
        }
        if (previous !== undefined) total = subNonNegative(total, parsePositiveDec(previous.member!.weight));
        const addedAt = previous?.member?.addedAt ?? timestampFromDate(ctx.blockTime);
        GroupMembers.set(ctx, [groupId, update.addressBytes], create(GroupMemberSchema, { groupId, member: create(MemberSchema, { address: update.address, weight: update.weightText, metadata: update.metadata, addedAt }) }));
        total += update.weight;
      }
      group.totalWeight = decString(total);
      group.version += 1n;
      await this.validateDecisionPolicies(ctx, group);
      Groups.set(ctx, groupId, group);
    });
  }

  async updateGroupAdmin(ctx: Context, admin: string, groupId: bigint, newAdmin: string): Promise<void> {
    if (groupId === 0n) throw GroupErrors.Empty.wrap('group id');
    accAddress(newAdmin, 'new admin');
    if (admin === newAdmin) throw GroupErrors.Invalid.wrap('new and old admin are the same');
    await this.updateGroup(ctx, groupId, admin, 'admin updated', async (group) => {
      group.admin = newAdmin;
      group.version += 1n;
      Groups.set(ctx, groupId, group);
    });
  }

  async updateGroupMetadata(ctx: Context, admin: string, groupId: bigint, metadata: string): Promise<void> {
    if (groupId === 0n) throw GroupErrors.Empty.wrap('group id');
    this.assertMetadata(metadata, 'group metadata');
    await this.updateGroup(ctx, groupId, admin, 'metadata updated', async (group) => {
      group.metadata = metadata;
      group.version += 1n;
      Groups.set(ctx, groupId, group);
    });
  }

  async leaveGroup(ctx: Context, address: string, groupId: bigint): Promise<void> {
    const member = accAddress(address, 'group member');
    if (groupId === 0n) throw GroupErrors.Empty.wrap('group-id');
    const group = this.getGroup(ctx, groupId);
    const existing = GroupMembers.get(ctx, [groupId, member]);
    if (existing === undefined) throw SdkErrors.NotFound.wrap(`${address} is not part of group ${groupId}`);
    const total = subNonNegative(parseNonNegativeDec(group.totalWeight), parsePositiveDec(existing.member!.weight));
    GroupMembers.remove(ctx, [groupId, member]);
    group.totalWeight = decString(total);
    group.version += 1n;
    await this.validateDecisionPolicies(ctx, group);
    Groups.set(ctx, groupId, group);
    ctx.events.emit(typedEvent(EventLeaveGroupSchema, create(EventLeaveGroupSchema, { groupId, address })));
  }

  // ------------------------------------------------------------------ group policies

  async createGroupPolicy(ctx: Context, admin: string, groupId: bigint, metadata: string, decisionPolicy: Any | undefined): Promise<string> {
    accAddress(admin, 'admin');
    if (groupId === 0n) throw GroupErrors.Empty.wrap('group id');
    const policy = decodeDecisionPolicy(decisionPolicy);
    this.assertMetadata(metadata, 'group policy metadata');
    const group = this.getGroup(ctx, groupId);
    if (group.admin !== admin) throw SdkErrors.Unauthorized.wrap('not group admin');
    validatePolicyForGroup(policy, group, this.config);
    // The next sequence value whose derived address is free (a taken one is skipped, as the SDK).
    let address: Uint8Array;
    for (;;) {
      address = groupPolicyAddress(GroupPolicySeq.next(ctx) + 1n);
      if (this.accounts.getAccount(ctx, address) === undefined) break;
    }
    const bech32 = accString(address);
    const account: Account = { kind: 'module', address, pubKey: undefined, accountNumber: this.accounts.nextAccountNumber(ctx), sequence: 0n, codeHash: '', name: bech32, permissions: [] };
    this.accounts.setAccount(ctx, account);
    GroupPolicies.set(ctx, address, create(GroupPolicyInfoSchema, { address: bech32, groupId, admin, metadata, version: 1n, decisionPolicy, createdAt: timestampFromDate(ctx.blockTime) }));
    ctx.events.emit(typedEvent(EventCreateGroupPolicySchema, create(EventCreateGroupPolicySchema, { address: bech32 })));
    return bech32;
  }

  /** doUpdateGroupPolicy: the admin check, the change, aborting the policy's open proposals, the event. */
  private async updateGroupPolicy(ctx: Context, policyAddress: string, admin: string, note: string, action: (policy: GroupPolicyInfo) => void): Promise<void> {
    const address = accAddress(policyAddress, 'group policy address');
    accAddress(admin, 'admin');
    const policy = this.getGroupPolicy(ctx, policyAddress);
    if (policy.admin !== admin) throw SdkErrors.Unauthorized.wrap('not group policy admin');
    try {
      action(policy);
    } catch (err) {
      throw wrapError(err, note);
    }
    policy.version += 1n;
    GroupPolicies.set(ctx, address, policy);
    await this.abortProposals(ctx, address);
    ctx.events.emit(typedEvent(EventUpdateGroupPolicySchema, create(EventUpdateGroupPolicySchema, { address: policy.address })));
  }

  async updateGroupPolicyAdmin(ctx: Context, admin: string, policyAddress: string, newAdmin: string): Promise<void> {
    accAddress(newAdmin, 'new admin');
    if (admin === newAdmin) throw GroupErrors.Invalid.wrap('new and old admin are the same');
    await this.updateGroupPolicy(ctx, policyAddress, admin, 'group policy admin updated', (policy) => {
      policy.admin = newAdmin;
    });
  }

  async updateGroupPolicyDecisionPolicy(ctx: Context, admin: string, policyAddress: string, decisionPolicy: Any | undefined): Promise<void> {
    const decoded = decodeDecisionPolicy(decisionPolicy);
    await this.updateGroupPolicy(ctx, policyAddress, admin, "group policy's decision policy updated", (policy) => {
      validatePolicyForGroup(decoded, this.getGroup(ctx, policy.groupId), this.config);
      policy.decisionPolicy = decisionPolicy;
    });
  }

  async updateGroupPolicyMetadata(ctx: Context, admin: string, policyAddress: string, metadata: string): Promise<void> {
    this.assertMetadata(metadata, 'group policy metadata');
    await this.updateGroupPolicy(ctx, policyAddress, admin, 'group policy metadata updated', (policy) => {
      policy.metadata = metadata;
    });
  }

  private async abortProposals(ctx: Context, policyAddress: Uint8Array): Promise<void> {
    const ids: bigint[] = [];
    for await (const id of ProposalsByPolicy.matchExact(ctx, policyAddress)) ids.push(id);
    for (const id of ids) {
      const proposal = Proposals.get(ctx, id);
      if (proposal?.status !== ProposalStatus.SUBMITTED) continue;
      proposal.status = ProposalStatus.ABORTED;
      Proposals.set(ctx, id, proposal);
    }
  }

  // ------------------------------------------------------------------ proposals

  /** Decodes a proposal's messages and checks that the policy account is their only signer (ensureMsgAuthZ). */
  private proposalMessages(messages: readonly Any[], policyAddress: Uint8Array): { any: Any; schema: DescMessage; message: Message }[] {
    return messages.map((any) => {
      const schema = this.registry().getMessage(any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1));
      if (schema === undefined) throw SdkErrors.TxDecode.wrap(`unable to resolve type URL ${any.typeUrl}`);
      let message: Message;
      try {
        message = fromBinary(schema, any.value);
      } catch (err) {
        throw SdkErrors.TxDecode.wrap(`invalid ${any.typeUrl}: ${(err as Error).message}`);
      }
      for (const signer of messageSigners(schema, message)) {
        if (!bytesEqual(signer, policyAddress)) {
          throw GroupErrors.Unauthorized.wrap(`msg does not have group policy authorization; expected ${accString(policyAddress)}, got ${accString(signer)}`);
        }
      }
      return { any, schema, message };
    });
  }

  async submitProposal(
    ctx: Context,
    request: { groupPolicyAddress: string; proposers: readonly string[]; metadata: string; messages: readonly Any[]; exec: Exec; title: string; summary: string },
  ): Promise<bigint> {
    const policyAddress = accAddress(request.groupPolicyAddress, 'group policy address');
    if (request.proposers.length === 0) throw GroupErrors.Empty.wrap('proposers');
    const seen = new Set<string>();
    for (const proposer of request.proposers) {
      accAddress(proposer, 'proposer');
      if (seen.has(proposer)) throw GroupErrors.Duplicate.wrap(`address: ${proposer}`);
      seen.add(proposer);
    }
    this.assertMetadata(request.metadata, 'metadata');
    this.assertMetadata(request.title, 'title');
    this.assertMetadata(request.summary, 'summary');
    const policy = GroupPolicies.get(ctx, policyAddress);
    if (policy === undefined) throw SdkErrors.NotFound.wrap(`group policy ${request.groupPolicyAddress}: load group policy`);
    const group = this.getGroup(ctx, policy.groupId);
    // Only members of the group may propose.
    for (const proposer of request.proposers) {
      if (!GroupMembers.has(ctx, [group.id, accAddress(proposer, 'proposer')])) throw GroupErrors.Unauthorized.wrap(`not in group: ${proposer}`);
    }
    this.proposalMessages(request.messages, policyAddress);
    const decision = this.decisionPolicyOf(policy);
    validatePolicyForGroup(decision, group, this.config);
    const id = ProposalSeq.next(ctx) + 1n;
    Proposals.set(
      ctx,
      id,
      create(ProposalSchema, {
        id,
        groupPolicyAddress: request.groupPolicyAddress,
        metadata: request.metadata,
        proposers: [...request.proposers],
        submitTime: timestampFromDate(ctx.blockTime),
        groupVersion: group.version,
        groupPolicyVersion: policy.version,
        status: ProposalStatus.SUBMITTED,
        finalTallyResult: tallyMessage(emptyTally()),
        votingPeriodEnd: addMs(ctx.blockTime, decision.votingPeriodMs),
        executorResult: ProposalExecutorResult.NOT_RUN,
        messages: [...request.messages],
        title: request.title,
        summary: request.summary,
      }),
    );
    ctx.events.emit(typedEvent(EventSubmitProposalSchema, create(EventSubmitProposalSchema, { proposalId: id })));
    if (request.exec === Exec.TRY) {
      // The proposers' signatures count as YES votes, then the proposal is tried.
      for (const proposer of request.proposers) {
        try {
          await this.vote(ctx, id, proposer, VoteOption.YES, '', Exec.UNSPECIFIED);
        } catch (err) {
          throw wrapError(err, `the proposal was created but failed on vote for voter ${proposer}`);
        }
      }
      try {
        await this.exec(ctx, id, request.proposers[0]!);
      } catch (err) {
        throw wrapError(err, 'the proposal was created but failed on exec');
      }
    }
    return id;
  }

  async withdrawProposal(ctx: Context, id: bigint, address: string): Promise<void> {
    if (id === 0n) throw GroupErrors.Empty.wrap('proposal id');
    accAddress(address, 'address');
    const proposal = this.getProposal(ctx, id);
    if (proposal.status !== ProposalStatus.SUBMITTED) throw GroupErrors.Invalid.wrap(`cannot withdraw a proposal with the status of ${ProposalStatus[proposal.status] === undefined ? proposal.status : `PROPOSAL_STATUS_${ProposalStatus[proposal.status]}`}`);
    const policy = this.getGroupPolicy(ctx, proposal.groupPolicyAddress);
    if (address !== policy.admin && !proposal.proposers.includes(address)) throw GroupErrors.Unauthorized.wrap(`given address is neither group policy admin nor in proposers: ${address}`);
    proposal.status = ProposalStatus.WITHDRAWN;
    Proposals.set(ctx, id, proposal);
    ctx.events.emit(typedEvent(EventWithdrawProposalSchema, create(EventWithdrawProposalSchema, { proposalId: id })));
  }

  async vote(ctx: Context, id: bigint, voter: string, option: VoteOption, metadata: string, exec: Exec): Promise<void> {
    if (id === 0n) throw GroupErrors.Empty.wrap('proposal id');
    const voterBytes = accAddress(voter, 'voter');
    if (option === VoteOption.UNSPECIFIED) throw GroupErrors.Empty.wrap('vote option');
    if (VoteOption[option] === undefined) throw GroupErrors.Invalid.wrap(`vote option ${option}`);
    this.assertMetadata(metadata, 'metadata');
    const proposal = this.getProposal(ctx, id);
    if (proposal.status !== ProposalStatus.SUBMITTED) throw GroupErrors.Invalid.wrap('proposal not open for voting');
    if (nowNanos(ctx) > timestampNanos(proposal.votingPeriodEnd)) throw GroupErrors.Expired.wrap('voting period has ended already');
    const policy = this.getGroupPolicy(ctx, proposal.groupPolicyAddress);
    const group = this.getGroup(ctx, policy.groupId);
    if (!GroupMembers.has(ctx, [group.id, voterBytes])) throw SdkErrors.NotFound.wrap(`voter address: ${voter}`);
    if (Votes.has(ctx, [id, voterBytes])) throw GroupOrmErrors.UniqueConstraint.wrap('store vote');
    Votes.set(ctx, [id, voterBytes], create(VoteSchema, { proposalId: id, voter, option, metadata, submitTime: timestampFromDate(ctx.blockTime) }));
    ctx.events.emit(typedEvent(EventVoteSchema, create(EventVoteSchema, { proposalId: id })));
    if (exec === Exec.TRY) await this.exec(ctx, id, voter);
  }

  /**
   * The tally of a proposal: the stored final tally once it is no longer SUBMITTED, otherwise the
   * votes of current members at their current weights.
   */
  async tally(ctx: Context, proposal: Proposal, groupId: bigint): Promise<Tally> {
    if (proposal.status !== ProposalStatus.SUBMITTED) return tallyFromMessage(proposal.finalTallyResult);
    const tally = emptyTally();
    for await (const [[, voter], vote] of Votes.iterate(ctx, { prefix: [proposal.id] })) {
      const member = GroupMembers.get(ctx, [groupId, voter]);
      // A member who left after voting is not counted.
      if (member === undefined) continue;
      const weight = parsePositiveDec(member.member!.weight);
      switch (vote.option) {
        case VoteOption.YES:
          tally.yes += weight;
          break;
        case VoteOption.ABSTAIN:
          tally.abstain += weight;
          break;
        case VoteOption.NO:
          tally.no += weight;
          break;
        case VoteOption.NO_WITH_VETO:
          tally.veto += weight;
          break;
        default:
          throw GroupErrors.Invalid.wrap('unknown vote option');
      }
    }
    return tally;
  }

  async tallyResult(ctx: Context, id: bigint): Promise<TallyResult> {
    const proposal = this.getProposal(ctx, id);
    if (proposal.status === ProposalStatus.WITHDRAWN || proposal.status === ProposalStatus.ABORTED) {
      throw GroupErrors.Invalid.wrap(`can't get the tally of a proposal with status PROPOSAL_STATUS_${ProposalStatus[proposal.status]}`);
    }
    const policy = this.getGroupPolicy(ctx, proposal.groupPolicyAddress);
    return tallyMessage(await this.tally(ctx, proposal, policy.groupId));
  }

  private async pruneVotes(ctx: Context, id: bigint): Promise<void> {
    const voters: Uint8Array[] = [];
    for await (const [, voter] of Votes.keys(ctx, { prefix: [id] })) voters.push(voter);
    for (const voter of voters) Votes.remove(ctx, [id, voter]);
  }

  /** doTallyAndUpdate: when the result is final (or voting ended), store it and prune the votes. */
  private async tallyAndUpdate(ctx: Context, proposal: Proposal, group: GroupInfo, policy: GroupPolicyInfo): Promise<void> {
    const decision = this.decisionPolicyOf(policy);
    const tally = await this.tally(ctx, proposal, policy.groupId);
    const result = allow(decision, tally, group.totalWeight);
    if (result.final || nowNanos(ctx) > timestampNanos(proposal.votingPeriodEnd)) {
      await this.pruneVotes(ctx, proposal.id);
      proposal.finalTallyResult = tallyMessage(tally);
      proposal.status = result.allow ? ProposalStatus.ACCEPTED : ProposalStatus.REJECTED;
    }
  }

  private pruneProposal(ctx: Context, proposal: Proposal): void {
    Proposals.remove(ctx, proposal.id);
  }

  async exec(ctx: Context, id: bigint, executor: string): Promise<ProposalExecutorResult> {
    if (id === 0n) throw GroupErrors.Empty.wrap('proposal id');
    accAddress(executor, 'executor');
    const proposal = this.getProposal(ctx, id);
    if (proposal.status !== ProposalStatus.SUBMITTED && proposal.status !== ProposalStatus.ACCEPTED) {
      throw GroupErrors.Invalid.wrap(`not possible to exec with proposal status PROPOSAL_STATUS_${ProposalStatus[proposal.status]}`);
    }
    const policy = this.getGroupPolicy(ctx, proposal.groupPolicyAddress);
    if (proposal.status === ProposalStatus.SUBMITTED) await this.tallyAndUpdate(ctx, proposal, this.getGroup(ctx, policy.groupId), policy);

    let logs = '';
    if (proposal.status === ProposalStatus.ACCEPTED && proposal.executorResult !== ProposalExecutorResult.SUCCESS) {
      const branch = ctx.multiStore.branch();
      const execCtx = ctx.with({ multiStore: branch, events: new EventManager() });
      try {
        await this.executeMessages(execCtx, proposal, policy);
        branch.write();
        proposal.executorResult = ProposalExecutorResult.SUCCESS;
        ctx.events.emitAll(execCtx.events.events);
      } catch (err) {
        branch.discard();
        // Running out of gas and storage faults end the tx (a panic in the SDK), not the proposal.
        if (err instanceof OutOfGasError || isStoreError(err) || !(err instanceof Error)) throw err;
        proposal.executorResult = ProposalExecutorResult.FAILURE;
        logs = `proposal execution failed on proposal ${id}, because of error ${(err as Error).message}`;
      }
    }

    if (proposal.executorResult === ProposalExecutorResult.SUCCESS) {
      this.pruneProposal(ctx, proposal);
      ctx.events.emit(typedEvent(EventProposalPrunedSchema, create(EventProposalPrunedSchema, { proposalId: id, status: proposal.status, tallyResult: proposal.finalTallyResult })));
    } else {
      Proposals.set(ctx, id, proposal);
    }
    ctx.events.emit(typedEvent(EventExecSchema, create(EventExecSchema, { proposalId: id, result: proposal.executorResult, logs })));
    return proposal.executorResult;
  }

  /** doExecuteMsgs: inside the execution window, every message through the router as the policy account. */
  private async executeMessages(ctx: Context, proposal: Proposal, policy: GroupPolicyInfo): Promise<void> {
    const decision = this.decisionPolicyOf(policy);
    const submitted = proposal.submitTime === undefined ? new Date(0) : timestampDate(proposal.submitTime);
    const minExecution = addMs(submitted, decision.minExecutionPeriodMs);
    if (nowNanos(ctx) < timestampNanos(minExecution)) throw GroupErrors.Invalid.wrap(`must wait until ${goTime(minExecution)} to execute proposal ${proposal.id}`);
    const votingEnd = proposal.votingPeriodEnd === undefined ? new Date(0) : timestampDate(proposal.votingPeriodEnd);
    const expiry = addMs(votingEnd, this.config.maxExecutionPeriodMs);
    if (timestampNanos(expiry) < nowNanos(ctx)) throw GroupErrors.Expired.wrap(`proposal expired on ${goTime(expiry)}`);
    const policyAddress = accAddress(policy.address, 'group policy address');
    const messages = this.proposalMessages(proposal.messages, policyAddress);
    for (const [i, { any }] of messages.entries()) {
      try {
        await this.router.dispatch(ctx, any, [policyAddress]);
      } catch (err) {
        if (err instanceof OutOfGasError || isStoreError(err)) throw err;
        throw wrapError(err, `message ${any.typeUrl} at position ${i}`);
      }
    }
  }

  // ------------------------------------------------------------------ end block

  /** Proposals whose voting period ended strictly before `beforeMs`, in voting-end order. */
  private async proposalsEndedBefore(ctx: Context, beforeMs: number): Promise<Proposal[]> {
    const ids: bigint[] = [];
    for await (const [, id] of ProposalsByVotingPeriodEnd.keys.keys(ctx, { end: [beforeMs, 0n] })) ids.push(id);
    const proposals: Proposal[] = [];
    for (const id of ids) {
      const proposal = Proposals.get(ctx, id);
      if (proposal !== undefined) proposals.push(proposal);
    }
    return proposals;
  }

  /** EndBlocker: final tallies at the end of voting periods, then pruning of expired proposals. */
  async endBlock(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    for (const proposal of await this.proposalsEndedBefore(ctx, now)) {
      if (proposal.status === ProposalStatus.ABORTED || proposal.status === ProposalStatus.WITHDRAWN) {
        this.pruneProposal(ctx, proposal);
        await this.pruneVotes(ctx, proposal.id);
        ctx.events.emit(typedEvent(EventProposalPrunedSchema, create(EventProposalPrunedSchema, { proposalId: proposal.id, status: proposal.status })));
      } else if (proposal.status === ProposalStatus.SUBMITTED) {
        const policy = this.getGroupPolicy(ctx, proposal.groupPolicyAddress);
        await this.tallyAndUpdate(ctx, proposal, this.getGroup(ctx, policy.groupId), policy);
        Proposals.set(ctx, proposal.id, proposal);
      }
    }
    for (const proposal of await this.proposalsEndedBefore(ctx, now - this.config.maxExecutionPeriodMs)) {
      this.pruneProposal(ctx, proposal);
      ctx.events.emit(typedEvent(EventProposalPrunedSchema, create(EventProposalPrunedSchema, { proposalId: proposal.id, status: proposal.status, tallyResult: proposal.finalTallyResult })));
    }
  }

  /** Groups an address is a member of (ids). */
  membershipsOf(ctx: Context, address: Uint8Array): AsyncIterableIterator<bigint> {
    return GroupMembersByMember.matchExact(ctx, address);
  }
}
