/**
 * x/group through the app (InitChain → FinalizeBlock → Commit → Query): a 2-of-3 threshold policy
 * executing a bank send, the refusals (non-member proposer, vote after the voting period, exec
 * before min_execution_period), a failing message (FAILURE, nothing written), a percentage
 * policy, withdraw, policy updates aborting proposals, membership changes in the live tally,
 * live vs final tallies, typed events, address derivation and genesis export/import.
 */
import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { DurationSchema, type Any } from '@bufbuild/protobuf/wkt';
import { MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import {
  QueryProposalRequestSchema,
  QueryProposalResponseSchema,
  QueryTallyResultRequestSchema,
  QueryTallyResultResponseSchema,
  QueryGroupsByMemberRequestSchema,
  QueryGroupsByMemberResponseSchema,
  QueryVotesByVoterRequestSchema,
  QueryVotesByVoterResponseSchema,
} from '../../../src/gen/cosmos/group/v1/query_pb.js';
import {
  Exec,
  MsgCreateGroupPolicySchema,
  MsgCreateGroupSchema,
  MsgCreateGroupWithPolicySchema,
  MsgExecSchema,
  MsgLeaveGroupSchema,
  MsgSubmitProposalSchema,
  MsgUpdateGroupAdminSchema,
  MsgUpdateGroupMembersSchema,
  MsgUpdateGroupMetadataSchema,
  MsgUpdateGroupPolicyAdminSchema,
  MsgUpdateGroupPolicyDecisionPolicySchema,
  MsgUpdateGroupPolicyMetadataSchema,
  MsgVoteSchema,
  MsgWithdrawProposalSchema,
} from '../../../src/gen/cosmos/group/v1/tx_pb.js';
import {
  DecisionPolicyWindowsSchema,
  MemberRequestSchema,
  PercentageDecisionPolicySchema,
  ProposalExecutorResult,
  ProposalStatus,
  ThresholdDecisionPolicySchema,
  VoteOption,
} from '../../../src/gen/cosmos/group/v1/types_pb.js';
import type { ResponseFinalizeBlock } from '../../../src/node/abci/types.js';
import { exportAppState, validateAppState } from '../../../src/node/app/genesis.js';
import { AminoJsonSigner } from '../../../src/node/codec/aminoJson.js';
import { anyPack } from '../../../src/node/codec/index.js';
import type { AccountKeeper } from '../../../src/node/modules/auth/keeper.js';
import type { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { groupPolicyAddress, moduleDerivedAddress } from '../../../src/node/modules/group/address.js';
import type { GroupKeeper } from '../../../src/node/modules/group/keeper.js';
import { exportGroupGenesis, initGroupGenesis, validateGroupGenesis } from '../../../src/node/modules/group/genesis.js';
import { accString } from '../../../src/node/modules/shared/address.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { CHAIN_ID, DENOM, TOKEN, abciQuery, buildAppState, coin, pack, signTx, startChain, testKey, type Chain, type TestKey } from '../app/helpers.js';

const alice = testKey('group-alice');
const bob = testKey('group-bob');
const carol = testKey('group-carol');
const dave = testKey('group-dave');
const validator = testKey('group-validator');

function windows(votingSeconds: number, minExecSeconds = 0) {
  return create(DecisionPolicyWindowsSchema, {
    votingPeriod: create(DurationSchema, { seconds: BigInt(votingSeconds) }),
    minExecutionPeriod: create(DurationSchema, { seconds: BigInt(minExecSeconds) }),
  });
}

function threshold(value: string, votingSeconds = 100, minExecSeconds = 0): Any {
  return anyPack(ThresholdDecisionPolicySchema, create(ThresholdDecisionPolicySchema, { threshold: value, windows: windows(votingSeconds, minExecSeconds) }));
}

function percentage(value: string, votingSeconds = 100): Any {
  return anyPack(PercentageDecisionPolicySchema, create(PercentageDecisionPolicySchema, { percentage: value, windows: windows(votingSeconds) }));
}

function member(key: TestKey, weight: string) {
  return create(MemberRequestSchema, { address: key.bech32, weight, metadata: '' });
}

describe('x/group', () => {
  let chain: Chain;
  const sequences = new Map<string, bigint>();

  function query(): { ctx: Context; accounts: AccountKeeper; bank: BankKeeper } {
    const ctx = new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) });
    return { ctx, accounts: chain.app.manager.keeper<AccountKeeper>('auth'), bank: chain.app.manager.keeper<BankKeeper>('bank') };
  }

  function balance(address: Uint8Array | string): bigint {
    const { ctx, bank } = query();
    // Policy addresses come from the events as bech32; their bytes from the account list.
    const bytes = typeof address === 'string' ? policyBytes.get(address)! : address;
    return bank.getBalance(ctx, bytes, DENOM);
  }

  const policyBytes = new Map<string, Uint8Array>();

  /** One tx from `signer` in its own block; returns the tx result. */
  async function send(signer: TestKey, msgs: Any[], gas = 2_000_000n): Promise<ResponseFinalizeBlock['txResults'][number]> {
    const { ctx, accounts } = query();
    const account = accounts.getAccount(ctx, signer.address)!;
    const sequence = sequences.get(signer.bech32) ?? account.sequence;
    const result = (await chain.block([signTx({ signer, msgs, sequence, accountNumber: account.accountNumber, gas })])).txResults[0]!;
    sequences.set(signer.bech32, sequence + 1n);
    return result;
  }

  function eventAttr(result: { events: { type: string; attributes: { key: string; value: string }[] }[] }, type: string, key: string): string | undefined {
    const event = result.events.find((e) => e.type === type);
    const value = event?.attributes.find((a) => a.key === key)?.value;
    return value === undefined ? undefined : (JSON.parse(value) as string);
  }

  async function emptyBlocks(n: number): Promise<void> {
    for (let i = 0; i < n; i++) await chain.block([]);
  }

  /** Creates a group of alice, bob, carol (weights) with one policy; returns the policy address. */
  async function groupWithPolicy(policy: Any, weights: [string, string, string] = ['1', '1', '1']): Promise<{ groupId: bigint; policy: string }> {
    const created = await send(alice, [pack(MsgCreateGroupSchema, { admin: alice.bech32, members: [member(alice, weights[0]), member(bob, weights[1]), member(carol, weights[2])], metadata: 'treasury' })]);
    expect(created.log).toBe('');
    const groupId = BigInt(eventAttr(created, 'cosmos.group.v1.EventCreateGroup', 'group_id')!);
    const made = await send(alice, [pack(MsgCreateGroupPolicySchema, { admin: alice.bech32, groupId, metadata: '', decisionPolicy: policy })]);
    expect(made.log).toBe('');
    const address = eventAttr(made, 'cosmos.group.v1.EventCreateGroupPolicy', 'address')!;
    const { ctx, accounts } = query();
    for await (const account of accounts.iterateAccounts(ctx)) if (accString(account.address) === address) policyBytes.set(address, account.address);
    return { groupId, policy: address };
  }

  function sendFrom(policy: string, to: TestKey, amount: bigint): Any {
    return pack(MsgSendSchema, { fromAddress: policy, toAddress: to.bech32, amount: [coin(amount)] });
  }

  async function propose(proposer: TestKey, policy: string, msgs: Any[], exec = Exec.UNSPECIFIED) {
    return send(proposer, [pack(MsgSubmitProposalSchema, { groupPolicyAddress: policy, proposers: [proposer.bech32], metadata: '', messages: msgs, exec, title: 'pay', summary: 'pay dave' })]);
  }

  async function vote(voter: TestKey, proposalId: bigint, option = VoteOption.YES, exec = Exec.UNSPECIFIED) {
    return send(voter, [pack(MsgVoteSchema, { proposalId, voter: voter.bech32, option, metadata: '', exec })]);
  }

  async function proposal(id: bigint) {
    const { response, value } = await abciQuery(chain.app, '/cosmos.group.v1.Query/Proposal', toBinary(QueryProposalRequestSchema, create(QueryProposalRequestSchema, { proposalId: id })), QueryProposalResponseSchema);
    return { code: response.code, log: response.log, proposal: value?.proposal };
  }

  async function tally(id: bigint) {
    const { response, value } = await abciQuery(chain.app, '/cosmos.group.v1.Query/TallyResult', toBinary(QueryTallyResultRequestSchema, create(QueryTallyResultRequestSchema, { proposalId: id })), QueryTallyResultResponseSchema);
    return { code: response.code, log: response.log, tally: value?.tally };
  }

  beforeEach(async () => {
    sequences.clear();
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [bob, 1000n * TOKEN], [carol, 1000n * TOKEN], [dave, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    await chain.block([]);
  });

  afterEach(async () => {
    await chain.close();
  });

  test('policy addresses are ADR-028 derivations of ("group", 0x20) and the policy sequence, 32 bytes', () => {
    const parent = moduleDerivedAddress('group', Uint8Array.of(0x20));
    expect(parent).toHaveLength(32);
    expect(groupPolicyAddress(1n)).toHaveLength(32);
    expect(Buffer.from(groupPolicyAddress(1n)).equals(Buffer.from(groupPolicyAddress(2n)))).toBe(false);
  });

  test('a 2-of-3 threshold policy executes a bank send: two YES votes, exec, exact balances, typed events', async () => {
    const { policy } = await groupWithPolicy(threshold('2'));
    expect(policyBytes.get(policy)).toEqual(groupPolicyAddress(1n));
    const { ctx, accounts } = query();
    const account = accounts.getAccount(ctx, policyBytes.get(policy)!)!;
    expect([account.kind, account.name]).toEqual(['module', policy]);

    expect((await send(alice, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: policy, amount: [coin(1000n)] })])).log).toBe('');
    expect(balance(policy)).toBe(1000n);

    const submitted = await propose(alice, policy, [sendFrom(policy, dave, 300n)]);
    expect(submitted.log).toBe('');
    const id = BigInt(eventAttr(submitted, 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    expect(id).toBe(1n);
    const event = submitted.events.find((e) => e.type === 'cosmos.group.v1.EventSubmitProposal')!;
    expect(event.attributes.map((a) => [a.key, a.value])).toEqual([['proposal_id', '"1"'], ['msg_index', '0']]);

    const daveBefore = query().bank.getBalance(query().ctx, dave.address, DENOM);
    expect((await vote(alice, id)).log).toBe('');
    // One YES of 2 needed: the live tally, still open.
    expect((await tally(id)).tally).toMatchObject({ yesCount: '1', noCount: '0', abstainCount: '0', noWithVetoCount: '0' });
    const early = await send(carol, [pack(MsgExecSchema, { proposalId: id, executor: carol.bech32 })]);
    expect(early.code).toBe(0);
    expect(eventAttr(early, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_NOT_RUN');
    expect((await proposal(id)).proposal?.status).toBe(ProposalStatus.SUBMITTED);

    expect((await vote(bob, id)).log).toBe('');
    const executed = await send(carol, [pack(MsgExecSchema, { proposalId: id, executor: carol.bech32 })]);
    expect(executed.log).toBe('');
    expect(eventAttr(executed, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_SUCCESS');
    expect(executed.events.map((e) => e.type)).toEqual(expect.arrayContaining(['coin_spent', 'coin_received', 'transfer', 'cosmos.group.v1.EventProposalPruned', 'cosmos.group.v1.EventExec']));
    expect(balance(policy)).toBe(700n);
    expect(query().bank.getBalance(query().ctx, dave.address, DENOM)).toBe(daveBefore + 300n);
    // Executed proposals are pruned.
    const gone = await proposal(id);
    expect(gone.code).not.toBe(0);
    expect(gone.log).toContain('not found');
  });

  test('a proposal from a non-member is refused (group/7), nothing stored', async () => {
    const { policy } = await groupWithPolicy(threshold('2'));
    const refused = await propose(dave, policy, [sendFrom(policy, dave, 1n)]);
    expect([refused.code, refused.codespace]).toEqual([7, 'group']);
    expect(refused.log).toBe(`failed to execute message; message index: 0: not in group: ${dave.bech32}: unauthorized`);
    expect((await proposal(1n)).code).not.toBe(0);
  });

  test('a proposal message the policy does not sign is refused', async () => {
    const { policy } = await groupWithPolicy(threshold('2'));
    const refused = await propose(alice, policy, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: dave.bech32, amount: [coin(1n)] })]);
    expect([refused.code, refused.codespace]).toEqual([7, 'group']);
    expect(refused.log).toContain('msg does not have group policy authorization');
  });

  test('a vote after the voting period is refused (group/9 expired); the final tally is stored at the end', async () => {
    const { policy } = await groupWithPolicy(threshold('2', 3));
    const submitted = await propose(alice, policy, [sendFrom(policy, dave, 1n)]);
    const id = BigInt(eventAttr(submitted, 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    expect((await vote(alice, id)).log).toBe('');
    // Blocks are 1 s apart: voting ends 3 s after submission; this block is one second past it.
    await emptyBlocks(2);
    const late = await vote(bob, id);
    expect([late.code, late.codespace]).toEqual([9, 'group']);
    expect(late.log).toBe('failed to execute message; message index: 0: voting period has ended already: expired');
    // That block's EndBlock tallied it: rejected with alice's one vote, the tally stored.
    const closed = (await proposal(id)).proposal!;
    expect(closed.status).toBe(ProposalStatus.REJECTED);
    expect(closed.finalTallyResult).toMatchObject({ yesCount: '1', noCount: '0' });
    expect((await tally(id)).tally).toMatchObject({ yesCount: '1' });
    const after = await vote(carol, id);
    expect([after.code, after.codespace, after.log]).toEqual([6, 'group', 'failed to execute message; message index: 0: proposal not open for voting: invalid value']);
  });

  test('exec before min_execution_period: FAILURE and nothing written; later it succeeds', async () => {
    const { policy } = await groupWithPolicy(threshold('2', 100, 5));
    await send(alice, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: policy, amount: [coin(50n)] })]);
    const submitted = await propose(alice, policy, [sendFrom(policy, dave, 20n)]);
    const id = BigInt(eventAttr(submitted, 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    await vote(alice, id);
    const tooEarly = await vote(bob, id, VoteOption.YES, Exec.TRY);
    expect(tooEarly.log).toBe('');
    expect(eventAttr(tooEarly, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_FAILURE');
    expect(eventAttr(tooEarly, 'cosmos.group.v1.EventExec', 'logs')).toMatch(/^proposal execution failed on proposal 1, because of error must wait until .* to execute proposal 1: invalid value$/);
    expect(balance(policy)).toBe(50n);
    const stored = (await proposal(id)).proposal!;
    expect([stored.status, stored.executorResult]).toEqual([ProposalStatus.ACCEPTED, ProposalExecutorResult.FAILURE]);
    await emptyBlocks(3);
    const later = await send(bob, [pack(MsgExecSchema, { proposalId: id, executor: bob.bech32 })]);
    expect(eventAttr(later, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_SUCCESS');
    expect(balance(policy)).toBe(30n);
  });

  test('a failing message: executor_result FAILURE, no writes, the proposal kept', async () => {
    const { policy } = await groupWithPolicy(threshold('1'));
    await send(alice, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: policy, amount: [coin(10n)] })]);
    // The first send would succeed alone; the second overdraws: neither is kept.
    const submitted = await propose(alice, policy, [sendFrom(policy, dave, 5n), sendFrom(policy, dave, 50n)], Exec.TRY);
    expect(submitted.log).toBe('');
    expect(eventAttr(submitted, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_FAILURE');
    expect(eventAttr(submitted, 'cosmos.group.v1.EventExec', 'logs')).toContain('message /cosmos.bank.v1beta1.MsgSend at position 1');
    expect(submitted.events.some((e) => e.type === 'transfer')).toBe(false);
    expect(balance(policy)).toBe(10n);
    const stored = (await proposal(1n)).proposal!;
    expect([stored.status, stored.executorResult]).toEqual([ProposalStatus.ACCEPTED, ProposalExecutorResult.FAILURE]);
  });

  test('running out of gas while executing fails the tx (not the proposal): nothing kept, not even the vote', async () => {
    const { policy } = await groupWithPolicy(threshold('1'));
    await send(alice, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: policy, amount: [coin(100n)] })]);
    const sends = Array.from({ length: 40 }, () => sendFrom(policy, dave, 1n));
    const id = BigInt(eventAttr(await propose(alice, policy, sends), 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    const starved = await send(bob, [pack(MsgVoteSchema, { proposalId: id, voter: bob.bech32, option: VoteOption.YES, metadata: '', exec: Exec.TRY })], 150_000n);
    expect([starved.code, starved.codespace]).toEqual([11, 'sdk']);
    expect(balance(policy)).toBe(100n);
    const stored = (await proposal(id)).proposal!;
    expect([stored.status, stored.executorResult]).toEqual([ProposalStatus.SUBMITTED, ProposalExecutorResult.NOT_RUN]);
    // A vote alone fits in that gas: it was the execution that ran out.
    const plain = await send(carol, [pack(MsgVoteSchema, { proposalId: id, voter: carol.bech32, option: VoteOption.NO, metadata: '', exec: Exec.UNSPECIFIED })], 150_000n);
    expect(plain.code).toBe(0);
    const fed = await vote(bob, id, VoteOption.YES, Exec.TRY);
    expect(eventAttr(fed, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_SUCCESS');
    expect(balance(policy)).toBe(60n);
  });

  test('percentage policy: 50% of the total weight is reached by one heavy member', async () => {
    const { policy } = await groupWithPolicy(percentage('0.5'), ['1', '1', '2']);
    await send(alice, [pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: policy, amount: [coin(10n)] })]);
    const submitted = await propose(alice, policy, [sendFrom(policy, dave, 4n)]);
    const id = BigInt(eventAttr(submitted, 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    await vote(alice, id, VoteOption.NO);
    const result = await vote(carol, id, VoteOption.YES, Exec.TRY);
    expect(eventAttr(result, 'cosmos.group.v1.EventExec', 'result')).toBe('PROPOSAL_EXECUTOR_RESULT_SUCCESS');
    expect(balance(policy)).toBe(6n);
  });

  test('percentage policy: a percentage above 1 is refused', async () => {
    const created = await send(alice, [pack(MsgCreateGroupWithPolicySchema, { admin: alice.bech32, members: [member(alice, '1')], groupMetadata: '', groupPolicyMetadata: '', decisionPolicy: percentage('1.5') })]);
    expect([created.code, created.codespace]).toEqual([6, 'group']);
    expect(created.log).toContain('percentage must be > 0 and <= 1');
  });

  test('withdraw: by a proposer; then no votes; pruned after the voting period', async () => {
    const { policy } = await groupWithPolicy(threshold('2', 3));
    const submitted = await propose(bob, policy, [sendFrom(policy, dave, 1n)]);
    const id = BigInt(eventAttr(submitted, 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    const notProposer = await send(carol, [pack(MsgWithdrawProposalSchema, { proposalId: id, address: carol.bech32 })]);
    expect([notProposer.code, notProposer.codespace]).toEqual([7, 'group']);
    const withdrawn = await send(bob, [pack(MsgWithdrawProposalSchema, { proposalId: id, address: bob.bech32 })]);
    expect(withdrawn.log).toBe('');
    expect((await proposal(id)).proposal?.status).toBe(ProposalStatus.WITHDRAWN);
    expect((await vote(alice, id)).log).toContain('proposal not open for voting');
    expect((await tally(id)).log).toContain("can't get the tally of a proposal with status PROPOSAL_STATUS_WITHDRAWN");
    await emptyBlocks(3);
    expect((await proposal(id)).code).not.toBe(0);
  });

  test('a policy update aborts its open proposals; a member leaving drops out of the live tally', async () => {
    const { groupId, policy } = await groupWithPolicy(threshold('3'));
    const first = BigInt(eventAttr(await propose(alice, policy, [sendFrom(policy, dave, 1n)]), 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    await vote(alice, first);
    await vote(carol, first);
    expect((await tally(first)).tally).toMatchObject({ yesCount: '2' });
    // carol leaves: her vote no longer counts; the group's weight drops to 2.
    expect((await send(carol, [pack(MsgLeaveGroupSchema, { address: carol.bech32, groupId })])).log).toBe('');
    expect((await tally(first)).tally).toMatchObject({ yesCount: '1' });
    // bob is reweighted through the admin: the tally follows the current weights.
    expect((await send(alice, [pack(MsgUpdateGroupMembersSchema, { admin: alice.bech32, groupId, memberUpdates: [member(bob, '3')] })])).log).toBe('');
    await vote(bob, first);
    expect((await tally(first)).tally).toMatchObject({ yesCount: '4' });
    // A policy change aborts the proposals of that policy still being voted on.
    const second = BigInt(eventAttr(await propose(alice, policy, [sendFrom(policy, dave, 1n)]), 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    expect((await send(alice, [pack(MsgUpdateGroupPolicyMetadataSchema, { admin: alice.bech32, groupPolicyAddress: policy, metadata: 'v2' })])).log).toBe('');
    expect((await proposal(second)).proposal?.status).toBe(ProposalStatus.ABORTED);
    const refused = await vote(bob, second);
    expect(refused.log).toContain('proposal not open for voting');
    // Removing a member who is not there: not found.
    const unknown = await send(alice, [pack(MsgUpdateGroupMembersSchema, { admin: alice.bech32, groupId, memberUpdates: [member(dave, '0')] })]);
    expect([unknown.code, unknown.codespace]).toEqual([38, 'sdk']);
    // Not the admin.
    const notAdmin = await send(bob, [pack(MsgUpdateGroupMembersSchema, { admin: bob.bech32, groupId, memberUpdates: [member(dave, '1')] })]);
    expect([notAdmin.code, notAdmin.codespace]).toEqual([4, 'sdk']);
  });

  test('live vs final tally; queries by member and voter; genesis exports and re-imports', async () => {
    const { policy } = await groupWithPolicy(threshold('2', 3));
    const id = BigInt(eventAttr(await propose(alice, policy, [sendFrom(policy, dave, 1n)]), 'cosmos.group.v1.EventSubmitProposal', 'proposal_id')!);
    await vote(alice, id, VoteOption.NO);
    expect((await tally(id)).tally).toMatchObject({ yesCount: '0', noCount: '1' });
    const twice = await vote(alice, id, VoteOption.YES);
    expect([twice.code, twice.codespace, twice.log]).toEqual([13, 'orm', 'failed to execute message; message index: 0: store vote: unique constraint violation']);
    const byVoter = await abciQuery(chain.app, '/cosmos.group.v1.Query/VotesByVoter', toBinary(QueryVotesByVoterRequestSchema, create(QueryVotesByVoterRequestSchema, { voter: alice.bech32 })), QueryVotesByVoterResponseSchema);
    expect(byVoter.value!.votes.map((v) => [v.proposalId, v.option])).toEqual([[id, VoteOption.NO]]);
    const byMember = await abciQuery(chain.app, '/cosmos.group.v1.Query/GroupsByMember', toBinary(QueryGroupsByMemberRequestSchema, create(QueryGroupsByMemberRequestSchema, { address: bob.bech32 })), QueryGroupsByMemberResponseSchema);
    expect(byMember.value!.groups.map((g) => [g.id, g.totalWeight, g.metadata])).toEqual([[1n, '3', 'treasury']]);

    const { ctx } = query();
    const exported = await exportGroupGenesis(ctx);
    expect(validateGroupGenesis(exported)).toEqual([]);
    expect(exported).toMatchObject({ group_seq: '1', group_policy_seq: '1', proposal_seq: '1' });
    // The whole app state, policy account included, exports valid.
    expect(validateAppState(await exportAppState(chain.store), CHAIN_ID)).toEqual([]);
    const copy = new Context({ mode: 'finalize', multiStore: chain.store.branchCommitted().branch(), header: emptyHeader(CHAIN_ID) });
    await initGroupGenesis(copy, exported);
    expect(await exportGroupGenesis(copy)).toEqual(exported);

    await emptyBlocks(4);
    // Voting ended: the stored final tally, votes pruned.
    const closed = (await proposal(id)).proposal!;
    expect(closed.status).toBe(ProposalStatus.REJECTED);
    expect((await tally(id)).tally).toMatchObject({ yesCount: '0', noCount: '1' });
    const pruned = await abciQuery(chain.app, '/cosmos.group.v1.Query/VotesByVoter', toBinary(QueryVotesByVoterRequestSchema, create(QueryVotesByVoterRequestSchema, { voter: alice.bech32 })), QueryVotesByVoterResponseSchema);
    expect(pruned.value!.votes).toEqual([]);
  });

  test('create-group-with-policy with the policy as admin; admin, metadata and decision-policy updates; limits', async () => {
    const made = await send(alice, [pack(MsgCreateGroupWithPolicySchema, { admin: alice.bech32, members: [member(alice, '1'), member(bob, '2')], groupMetadata: 'g', groupPolicyMetadata: 'p', groupPolicyAsAdmin: true, decisionPolicy: threshold('2') })]);
    expect(made.log).toBe('');
    const policy = eventAttr(made, 'cosmos.group.v1.EventCreateGroupPolicy', 'address')!;
    const { ctx } = query();
    const keeper = chain.app.manager.keeper<GroupKeeper>('group');
    // The policy account administers both the group and itself.
    expect([keeper.getGroup(ctx, 1n).admin, keeper.getGroupPolicy(ctx, policy).admin]).toEqual([policy, policy]);
    expect(keeper.getGroup(ctx, 1n).version).toBe(2n);
    // alice is no longer the admin: group/…: sdk unauthorized.
    const notAdmin = await send(alice, [pack(MsgUpdateGroupMetadataSchema, { admin: alice.bech32, groupId: 1n, metadata: 'x' })]);
    expect([notAdmin.code, notAdmin.codespace]).toEqual([4, 'sdk']);
    expect(notAdmin.log).toContain(`not group admin; got ${alice.bech32}, expected ${policy}`);

    // A second group administered by alice: admin, metadata and decision-policy updates.
    const { groupId, policy: second } = await groupWithPolicy(threshold('2'));
    const tooLong = await send(alice, [pack(MsgUpdateGroupMetadataSchema, { admin: alice.bech32, groupId, metadata: 'm'.repeat(256) })]);
    expect([tooLong.code, tooLong.codespace, tooLong.log]).toEqual([4, 'group', 'failed to execute message; message index: 0: group metadata: limit exceeded']);
    expect((await send(alice, [pack(MsgUpdateGroupMetadataSchema, { admin: alice.bech32, groupId, metadata: 'm'.repeat(255) })])).log).toBe('');
    // A threshold above the total weight is allowed (the effective threshold is capped); a
    // min execution period beyond voting + max execution period is not.
    const unreachable = await send(alice, [pack(MsgUpdateGroupPolicyDecisionPolicySchema, { admin: alice.bech32, groupPolicyAddress: second, decisionPolicy: threshold('1', 10, 15 * 24 * 3600) })]);
    expect([unreachable.code, unreachable.codespace]).toEqual([6, 'group']);
    expect(unreachable.log).toContain('min_execution_period should be smaller than voting_period + max_execution_period');
    expect((await send(alice, [pack(MsgUpdateGroupPolicyDecisionPolicySchema, { admin: alice.bech32, groupPolicyAddress: second, decisionPolicy: percentage('0.6') })])).log).toBe('');
    expect((await send(alice, [pack(MsgUpdateGroupPolicyAdminSchema, { admin: alice.bech32, groupPolicyAddress: second, newAdmin: bob.bech32 })])).log).toBe('');
    expect((await send(alice, [pack(MsgUpdateGroupAdminSchema, { admin: alice.bech32, groupId, newAdmin: carol.bech32 })])).log).toBe('');
    const after = query();
    expect(keeper.getGroupPolicy(after.ctx, second)).toMatchObject({ admin: bob.bech32, version: 3n });
    expect(keeper.getGroup(after.ctx, groupId)).toMatchObject({ admin: carol.bech32, version: 3n, metadata: 'm'.repeat(255) });
  });

  test('genesis validation names each problem', () => {
    expect(validateGroupGenesis({ group_seq: '0', groups: [{ id: '1', admin: 'nope', version: '1', total_weight: '1' }] })).toEqual([
      'group 1: id greater than group_seq 0',
      expect.stringContaining('group 1 admin:'),
    ]);
    expect(validateGroupGenesis({ group_seq: '1', groups: [{ id: '1', admin: alice.bech32, version: '1', total_weight: 'x' }] })[0]).toContain('group 1 total weight');
  });

  test('amino JSON of a policy message nests the decision policy with its amino name', () => {
    const signer = new AminoJsonSigner();
    const msg = anyPack(MsgCreateGroupPolicySchema, create(MsgCreateGroupPolicySchema, { admin: alice.bech32, groupId: 1n, metadata: '', decisionPolicy: threshold('2', 60) } as MessageInitShape<typeof MsgCreateGroupPolicySchema>));
    const json = signer.signDocJson({ chainId: CHAIN_ID, accountNumber: 1n, sequence: 0n, timeoutHeight: 0n, memo: '', msgs: [msg], fee: { amount: [], gasLimit: 200000n, payer: '', granter: '' } });
    expect(json).toContain('"type":"cosmos-sdk/MsgCreateGroupPolicy"');
    expect(json).toContain('"decision_policy":{"type":"cosmos-sdk/ThresholdDecisionPolicy","value":{"threshold":"2","windows":{');
  });
});
