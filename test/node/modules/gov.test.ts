/**
 * x/gov (v1 and v1beta1 over one state) and x/params on a four-validator chain with a 10 s
 * deposit and voting period: deposits into the voting period, weighted votes, the tally with
 * delegators overriding their validator, quorum / veto / threshold outcomes and what happens to
 * the deposits, passed parameter changes, a passed proposal whose message fails (FAILED, no
 * writes), and the SDK's errors for bad input with no state change.
 */
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { ProposalStatus, VoteOption, VoteSchema } from '../../../src/gen/cosmos/gov/v1/gov_pb.js';
import { BondStatus } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { Votes } from '../../../src/node/modules/gov/keys.js';
import * as govQuery from '../../../src/gen/cosmos/gov/v1/query_pb.js';
import { MsgDepositSchema, MsgSubmitProposalSchema, MsgUpdateParamsSchema as GovMsgUpdateParamsSchema, MsgVoteSchema, MsgVoteWeightedSchema } from '../../../src/gen/cosmos/gov/v1/tx_pb.js';
import { TextProposalSchema } from '../../../src/gen/cosmos/gov/v1beta1/gov_pb.js';
import { PlanSchema, SoftwareUpgradeProposalSchema } from '../../../src/gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import * as legacyQuery from '../../../src/gen/cosmos/gov/v1beta1/query_pb.js';
import * as legacyTx from '../../../src/gen/cosmos/gov/v1beta1/tx_pb.js';
import { ParameterChangeProposalSchema } from '../../../src/gen/cosmos/params/v1beta1/params_pb.js';
import * as paramsQuery from '../../../src/gen/cosmos/params/v1beta1/query_pb.js';
import { MsgSendSchema, MsgUpdateParamsSchema as BankMsgUpdateParamsSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { ParamsSchema as BankParamsSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { MsgCommunityPoolSpendSchema } from '../../../src/gen/cosmos/distribution/v1beta1/tx_pb.js';
import { MsgDelegateSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import type { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import type { StakingKeeper } from '../../../src/node/modules/staking/keeper.js';
import type { GovKeeper } from '../../../src/node/modules/gov/keeper.js';
import { moduleAddress, accString, parseAccAddress, valString } from '../../../src/node/modules/shared/address.js';
import { decFromWire, decMul, decQuo, decTruncate } from '../../../src/node/modules/shared/dec.js';
import { parseDec } from '../../../src/node/modules/gov/params.js';
import { abciQuery, coin, consensusKey, pack, testKey, type TestKey } from '../app/helpers.js';
import { TOKEN, balance, startPosChain, type PosChain } from './pos/helpers.js';
import { fromBinary, type JsonObject } from '@bufbuild/protobuf';
import { CreateValidatorProposalSchema } from '../../../src/gen/aioz/staking/v1beta1/staking_pb.js';
import { CommunityPoolSpendProposalSchema } from '../../../src/gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { MsgFundCommunityPoolSchema } from '../../../src/gen/cosmos/distribution/v1beta1/tx_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgCreateValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { legacyDecToWire } from '../../../src/node/codec/index.js';
import { defaultGovGenesis, exportGovGenesis, validateGovGenesis } from '../../../src/node/modules/gov/genesis.js';

const alice = testKey('gov-alice');
const bob = testKey('gov-bob');
const carol = testKey('gov-carol');
const GOV = accString(moduleAddress('gov'));
const MIN_DEPOSIT = 10n * TOKEN;

describe('x/gov and x/params', () => {
  let pos: PosChain;

  async function start(edit?: (params: JsonObject) => void): Promise<void> {
    pos = await startPosChain({
      accounts: [
        [alice, 1000n * TOKEN],
        [bob, 1000n * TOKEN],
      ],
      edit: (state) => {
        const params = (state.gov as JsonObject).params as JsonObject;
        params.min_deposit = [{ denom: 'attotoken', amount: MIN_DEPOSIT.toString() }];
        params.max_deposit_period = '10s';
        params.voting_period = '10s';
        edit?.(params);
      },
    });
  }

  afterEach(async () => {
    await pos.close();
  });

  async function query<Req extends DescMessage, Res extends DescMessage>(path: string, schema: Req, init: MessageInitShape<Req>, response: Res) {
    const { value, response: raw } = await abciQuery(pos.chain.app, path, toBinary(schema, create(schema, init)), response);
    if (value === undefined) throw new Error(raw.log);
    return value;
  }

  async function proposal(id: bigint) {
    return (await query('/cosmos.gov.v1.Query/Proposal', govQuery.QueryProposalRequestSchema, { proposalId: id }, govQuery.QueryProposalResponseSchema)).proposal!;
  }

  function val(i: number): TestKey {
    return pos.validators[i]!.key;
  }

  async function ok(signer: TestKey, msgs: Any[]) {
    const result = await pos.tx(signer, msgs);
    if (result.code !== 0) throw new Error(`tx failed: ${result.codespace}/${result.code} ${result.log}`);
    return result;
  }

  async function submitText(deposit: bigint): Promise<bigint> {
    const content = pack(TextProposalSchema, { title: 'Signal', description: 'A text proposal' });
    const result = await ok(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content, initialDeposit: [coin(deposit)], proposer: alice.bech32 })]);
    const event = result.events.find((e) => e.type === 'submit_proposal');
    return BigInt(event!.attributes.find((a) => a.key === 'proposal_id')!.value);
  }

  async function vote(voter: TestKey, id: bigint, option: VoteOption) {
    await ok(voter, [pack(MsgVoteSchema, { proposalId: id, voter: voter.bech32, option })]);
  }

  async function endVoting(): Promise<void> {
    pos.advance(11_000);
    await pos.block();
  }

  test('deposit period → voting period at the min deposit; v1 and v1beta1 views of one proposal', async () => {
    await start();
    const id = await submitText(4n * TOKEN);
    expect((await proposal(id)).status).toBe(ProposalStatus.DEPOSIT_PERIOD);
    await ok(bob, [pack(MsgDepositSchema, { proposalId: id, depositor: bob.bech32, amount: [coin(6n * TOKEN)] })]);
    const p = await proposal(id);
    expect(p.status).toBe(ProposalStatus.VOTING_PERIOD);
    expect(p.totalDeposit.map((c) => c.amount)).toEqual([(10n * TOKEN).toString()]);
    expect(p.title).toBe('Signal');
    const legacy = await query('/cosmos.gov.v1beta1.Query/Proposal', legacyQuery.QueryProposalRequestSchema, { proposalId: id }, legacyQuery.QueryProposalResponseSchema);
    expect(legacy.proposal!.content!.typeUrl).toBe('/cosmos.gov.v1beta1.TextProposal');
    const deposits = await query('/cosmos.gov.v1.Query/Deposits', govQuery.QueryDepositsRequestSchema, { proposalId: id }, govQuery.QueryDepositsResponseSchema);
    expect(deposits.deposits.map((d) => d.depositor).sort()).toEqual([alice.bech32, bob.bech32].sort());
    const byDepositor = await query('/cosmos.gov.v1.Query/Proposals', govQuery.QueryProposalsRequestSchema, { depositor: bob.bech32 }, govQuery.QueryProposalsResponseSchema);
    expect(byDepositor.proposals.map((x) => x.id)).toEqual([id]);
    const voting = await query('/cosmos.gov.v1.Query/Proposals', govQuery.QueryProposalsRequestSchema, { proposalStatus: ProposalStatus.DEPOSIT_PERIOD }, govQuery.QueryProposalsResponseSchema);
    expect(voting.proposals).toEqual([]);
    // The gov module account holds the deposits.
    expect(balance(pos, moduleAddress('gov'))).toBe(10n * TOKEN);
  });

  test('bad input: unknown or closed proposal, invalid option, weights not summing to 1, a message not signed by gov', async () => {
    await start();
    const id = await submitText(TOKEN);
    const before = balance(pos, bob.address);
    const unknown = await pos.tx(bob, [pack(MsgDepositSchema, { proposalId: 99n, depositor: bob.bech32, amount: [coin(TOKEN)] })]);
    expect([unknown.codespace, unknown.code]).toEqual(['gov', 2]);
    expect(unknown.log).toContain('99: unknown proposal');
    const inactive = await pos.tx(bob, [pack(MsgVoteSchema, { proposalId: id, voter: bob.bech32, option: VoteOption.YES })]);
    expect([inactive.codespace, inactive.code]).toEqual(['gov', 3]);
    await ok(bob, [pack(MsgDepositSchema, { proposalId: id, depositor: bob.bech32, amount: [coin(MIN_DEPOSIT)] })]);
    const badOption = await pos.tx(bob, [pack(MsgVoteSchema, { proposalId: id, voter: bob.bech32, option: 7 as VoteOption })]);
    expect([badOption.codespace, badOption.code]).toEqual(['gov', 7]);
    const unspecified = await pos.tx(bob, [pack(MsgVoteSchema, { proposalId: id, voter: bob.bech32, option: VoteOption.UNSPECIFIED })]);
    expect([unspecified.codespace, unspecified.code]).toEqual(['gov', 7]);
    const weights = await pos.tx(bob, [pack(MsgVoteWeightedSchema, { proposalId: id, voter: bob.bech32, options: [{ option: VoteOption.YES, weight: '0.5' }, { option: VoteOption.NO, weight: '0.4' }] })]);
    expect([weights.codespace, weights.code, weights.log]).toEqual(['gov', 7, expect.stringContaining('total weight lower than 1.00')]);
    const over = await pos.tx(bob, [pack(MsgVoteWeightedSchema, { proposalId: id, voter: bob.bech32, options: [{ option: VoteOption.YES, weight: '0.7' }, { option: VoteOption.NO, weight: '0.4' }] })]);
    expect(over.log).toContain('total weight overflow 1.00');
    const dup = await pos.tx(bob, [pack(MsgVoteWeightedSchema, { proposalId: id, voter: bob.bech32, options: [{ option: VoteOption.YES, weight: '0.5' }, { option: VoteOption.YES, weight: '0.5' }] })]);
    expect(dup.log).toContain('duplicated vote option');
    // No vote was stored.
    const votes = await query('/cosmos.gov.v1.Query/Votes', govQuery.QueryVotesRequestSchema, { proposalId: id }, govQuery.QueryVotesResponseSchema);
    expect(votes.votes).toEqual([]);
    // A proposal message whose signer is not the gov account.
    const send = pack(MsgSendSchema, { fromAddress: alice.bech32, toAddress: bob.bech32, amount: [coin(1n)] });
    const notGov = await pos.tx(alice, [pack(MsgSubmitProposalSchema, { messages: [send], initialDeposit: [coin(TOKEN)], proposer: alice.bech32, title: 't', summary: 's' })]);
    expect([notGov.codespace, notGov.code]).toEqual(['gov', 13]);
    expect(notGov.log).toContain(alice.bech32);
    // Nothing proposed at all.
    const empty = await pos.tx(alice, [pack(MsgSubmitProposalSchema, { messages: [], initialDeposit: [], proposer: alice.bech32 })]);
    expect([empty.codespace, empty.code]).toEqual(['gov', 11]);
    // An invalid parameter change is refused at submission (the content is tried in a branch).
    const badChange = pack(ParameterChangeProposalSchema, { title: 'x', description: 'y', changes: [{ subspace: 'staking', key: 'MaxValidators', value: '0' }] });
    const refused = await pos.tx(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content: badChange, initialDeposit: [coin(TOKEN)], proposer: alice.bech32 })]);
    expect([refused.codespace, refused.code]).toEqual(['gov', 5]);
    // A software upgrade whose plan is invalid fails the content's own ValidateBasic at submission.
    const badPlan = pack(SoftwareUpgradeProposalSchema, { title: 'Upgrade', description: 'no height', plan: create(PlanSchema, { name: 'v2', height: 0n }) });
    const noHeight = await pos.tx(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content: badPlan, initialDeposit: [coin(TOKEN)], proposer: alice.bech32 })]);
    expect([noHeight.codespace, noHeight.code]).toEqual(['sdk', 18]);
    expect(noHeight.log).toContain('height must be greater than 0');
    expect(balance(pos, bob.address)).toBe(before - MIN_DEPOSIT);
    const after = await query('/cosmos.gov.v1.Query/Proposals', govQuery.QueryProposalsRequestSchema, {}, govQuery.QueryProposalsResponseSchema);
    expect(after.proposals.map((x) => x.id)).toEqual([id]);
  });

  test('tally of many delegators: voters and non-voters interleaved, several delegations each; both tally paths count each delegation once', async () => {
    await start();
    const id = await submitText(MIN_DEPOSIT);
    const c = pos.ctx();
    const staking = pos.keeper<StakingKeeper>('staking');
    const bank = pos.keeper<BankKeeper>('bank');
    let yes = 0n;
    let no = 0n;
    for (let i = 0; i < 90; i++) {
      const delegator = testKey(`gov-many-${i}`).address;
      bank.addCoins(c, delegator, [{ denom: 'attotoken', amount: 100n * TOKEN }]);
      const stakes: [number, bigint][] = [[i % 4, BigInt(i + 1) * TOKEN]];
      if (i % 5 === 0) stakes.push([(i + 1) % 4, 2n * TOKEN]);
      for (const [v, amount] of stakes) await staking.delegate(c, delegator, amount, BondStatus.UNBONDED, staking.getValidator(c, pos.validators[v]!.key.address)!);
      if (i % 3 === 0) continue; // delegates, does not vote
      const total = stakes.reduce((sum, [, amount]) => sum + amount, 0n);
      if (i % 7 === 1) {
        // Split half and half (several options in one vote).
        yes += total / 2n;
        no += total / 2n;
        Votes.set(c, [id, delegator], create(VoteSchema, { proposalId: id, voter: accString(delegator), options: [{ option: VoteOption.YES, weight: '0.500000000000000000' }, { option: VoteOption.NO, weight: '0.500000000000000000' }] }));
        continue;
      }
      if (i % 2 === 0) yes += total;
      else no += total;
      Votes.set(c, [id, delegator], create(VoteSchema, { proposalId: id, voter: accString(delegator), options: [{ option: i % 2 === 0 ? VoteOption.YES : VoteOption.NO, weight: '1.000000000000000000' }] }));
    }
    // A vote on another proposal: the tally of this one neither counts nor consumes it.
    const outsider = testKey('gov-many-1').address;
    Votes.set(c, [id + 100n, outsider], create(VoteSchema, { proposalId: id + 100n, voter: accString(outsider), options: [{ option: VoteOption.NO, weight: '1.000000000000000000' }] }));
    const keeper = pos.keeper<GovKeeper>('gov');
    const current = await proposal(id);
    keeper.fullScanVoters = 1_000_000;
    const perVoter = await keeper.tally(c, current, false);
    keeper.fullScanVoters = 0;
    const scanned = await keeper.tally(c, current, false);
    expect(perVoter.tally).toMatchObject({ yesCount: yes.toString(), noCount: no.toString(), abstainCount: '0', noWithVetoCount: '0' });
    expect(scanned.tally).toEqual(perVoter.tally);
    // Consumed (as at the end of the voting period) by either path: the same count, every vote
    // of this proposal deleted and nothing else written.
    const votesLeft = async (ctx: typeof c, proposalId: bigint): Promise<number> => {
      let n = 0;
      for await (const entry of Votes.iterate(ctx, { prefix: [proposalId] })) if (entry !== undefined) n++;
      return n;
    };
    expect(await votesLeft(c, id)).toBe(60);
    for (const fullScanVoters of [1_000_000, 0]) {
      keeper.fullScanVoters = fullScanVoters;
      const branch = c.multiStore.branch();
      const consumed = await keeper.tally(c.with({ multiStore: branch }), current, true);
      expect(consumed.tally).toEqual(perVoter.tally);
      expect(await votesLeft(c.with({ multiStore: branch }), id)).toBe(0);
      expect(await votesLeft(c.with({ multiStore: branch }), id + 100n)).toBe(1);
      expect((branch.getStore('gov') as unknown as { size: number }).size).toBe(60);
      branch.discard();
    }
  });

  test('tally: exact Dec sums equal the upstream algorithm computed directly (rounding validators, weighted votes, non-voters), by both paths', async () => {
    await start();
    const id = await submitText(MIN_DEPOSIT);
    const c = pos.ctx();
    const staking = pos.keeper<StakingKeeper>('staking');
    const bank = pos.keeper<BankKeeper>('bank');
    const voteOf = (voter: Uint8Array, options: [VoteOption, string][]) =>
      create(VoteSchema, { proposalId: id, voter: accString(voter), options: options.map(([option, weight]) => ({ option, weight })) });
    const thirds: [VoteOption, string][] = [
      [VoteOption.YES, '0.333333333333333333'],
      [VoteOption.NO, '0.333333333333333333'],
      [VoteOption.ABSTAIN, '0.333333333333333334'],
    ];
    for (let i = 0; i < 40; i++) {
      const delegator = testKey(`gov-exact-${i}`).address;
      bank.addCoins(c, delegator, [{ denom: 'attotoken', amount: 100n * TOKEN }]);
      // Odd amounts, several delegations for some delegators.
      const stakes: [number, bigint][] = [[i % 4, BigInt(i * 7919 + 13) * 1_000_003n]];
      if (i % 3 === 0) stakes.push([(i + 2) % 4, BigInt(i + 1) * 999_999_937n]);
      for (const [v, amount] of stakes) await staking.delegate(c, delegator, amount, BondStatus.UNBONDED, staking.getValidator(c, val(v).address)!);
      if (i % 5 === 4) continue; // delegates, does not vote
      Votes.set(c, [id, delegator], voteOf(delegator, i % 4 === 1 ? thirds : i % 4 === 2 ? [[VoteOption.NO, '0.7'], [VoteOption.NO_WITH_VETO, '0.3']] : [[i % 2 === 0 ? VoteOption.YES : VoteOption.NO, '1.000000000000000000']]));
    }
    // Validator 2's tokens are twice its shares (an exact rate other than 1); validator 3's are
    // 2/3 of its shares plus one (every delegation's power rounds); validator 1 does not vote.
    for (const [v, scale] of [[2, (t: bigint) => t * 2n], [3, (t: bigint) => (t * 2n) / 3n + 1n]] as const) {
      const validator = staking.getValidator(c, val(v).address)!;
      staking.setValidator(c, { ...validator, tokens: scale(BigInt(validator.tokens)).toString() });
    }
    Votes.set(c, [id, val(0).address], voteOf(val(0).address, [[VoteOption.YES, '1.000000000000000000']]));
    Votes.set(c, [id, val(2).address], voteOf(val(2).address, thirds));
    Votes.set(c, [id, val(3).address], voteOf(val(3).address, [[VoteOption.NO_WITH_VETO, '1.000000000000000000']]));

    // x/gov's tally.go, step by step over decoded records: Dec.Quo per delegation, Dec.Mul per option.
    const reference = async (ctx: typeof c) => {
      const validators = new Map<string, { tokens: bigint; shares: bigint; deductions: bigint; options?: [VoteOption, bigint][] }>();
      for (const v of await staking.getAllValidators(ctx)) {
        if (v.status === BondStatus.BONDED) validators.set(v.operatorAddress, { tokens: BigInt(v.tokens), shares: decFromWire(v.delegatorShares)!, deductions: 0n });
      }
      const results = [0n, 0n, 0n, 0n, 0n];
      let total = 0n;
      for await (const [, vote] of Votes.iterate(ctx, { prefix: [id] })) {
        const voter = parseAccAddress(vote.voter);
        if (!voter.ok) throw new Error(vote.voter);
        const options = vote.options.map((o): [VoteOption, bigint] => [o.option, parseDec(o.weight)!]);
        const own = validators.get(valString(voter.bytes));
        if (own !== undefined) own.options = options;
        for (const delegation of await staking.getDelegatorDelegations(ctx, voter.bytes)) {
          const validator = validators.get(delegation.validatorAddress);
          if (validator === undefined) continue;
          const shares = decFromWire(delegation.shares)!;
          validator.deductions += shares;
          const power = decQuo(shares * validator.tokens, validator.shares);
          for (const [option, weight] of options) results[option]! += decMul(power, weight);
          total += power;
        }
      }
      for (const validator of validators.values()) {
        if (validator.options === undefined) continue;
        const power = decQuo((validator.shares - validator.deductions) * validator.tokens, validator.shares);
        for (const [option, weight] of validator.options) results[option]! += decMul(power, weight);
        total += power;
      }
      return { results, total };
    };
    const expected = await reference(c);
    // Rounding happened: the sums are not whole tokens, and validator 3's rate is not exact.
    expect(expected.results.some((r) => r % 1000n !== 0n)).toBe(true);
    const keeper = pos.keeper<GovKeeper>('gov');
    const current = await proposal(id);
    for (const fullScanVoters of [1_000_000, 0]) {
      keeper.fullScanVoters = fullScanVoters;
      for (const consume of [false, true]) {
        const branch = c.multiStore.branch();
        const outcome = await keeper.tally(c.with({ multiStore: branch }), current, consume);
        branch.discard();
        expect({ fullScanVoters, consume, results: outcome.power.results.map(String), total: String(outcome.power.total) }).toEqual({
          fullScanVoters,
          consume,
          results: expected.results.map(String),
          total: String(expected.total),
        });
        expect(outcome.tally).toMatchObject({
          yesCount: decTruncate(expected.results[VoteOption.YES]!).toString(),
          abstainCount: decTruncate(expected.results[VoteOption.ABSTAIN]!).toString(),
          noCount: decTruncate(expected.results[VoteOption.NO]!).toString(),
          noWithVetoCount: decTruncate(expected.results[VoteOption.NO_WITH_VETO]!).toString(),
        });
      }
    }
  });

  test('tally by bonded stake: a delegator overrides its validator; weighted votes; passed', async () => {
    await start();
    await ok(alice, [pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: val(0).valoper, amount: coin(100n * TOKEN) })]);
    const id = await submitText(MIN_DEPOSIT);
    await vote(val(0), id, VoteOption.YES);
    await vote(alice, id, VoteOption.NO);
    await ok(val(1), [pack(MsgVoteWeightedSchema, { proposalId: id, voter: val(1).bech32, options: [{ option: VoteOption.YES, weight: '0.75' }, { option: VoteOption.ABSTAIN, weight: '0.25' }] })]);
    const live = await query('/cosmos.gov.v1.Query/TallyResult', govQuery.QueryTallyResultRequestSchema, { proposalId: id }, govQuery.QueryTallyResultResponseSchema);
    // val0: 200 staked, alice's 100 vote no, val0's own 100 yes; val1 100 split 75/25.
    expect(live.tally).toMatchObject({ yesCount: (175n * TOKEN).toString(), noCount: (100n * TOKEN).toString(), abstainCount: (25n * TOKEN).toString(), noWithVetoCount: '0' });
    // The one-pass path (used from FULL_SCAN_VOTERS voters on) counts the same.
    const keeper = pos.keeper<GovKeeper>('gov');
    keeper.fullScanVoters = 0;
    const scanned = await keeper.tally(pos.ctx(), (await proposal(id)), false);
    expect(scanned.tally).toEqual(live.tally);
    expect(scanned.passes).toBe(true);
    const legacy = await query('/cosmos.gov.v1beta1.Query/TallyResult', legacyQuery.QueryTallyResultRequestSchema, { proposalId: id }, legacyQuery.QueryTallyResultResponseSchema);
    expect(legacy.tally).toMatchObject({ yes: (175n * TOKEN).toString(), no: (100n * TOKEN).toString() });
    const aliceBefore = balance(pos, alice.address);
    await endVoting();
    const done = await proposal(id);
    expect(done.status).toBe(ProposalStatus.PASSED);
    expect(done.finalTallyResult!.yesCount).toBe((175n * TOKEN).toString());
    // Deposit refunded; votes consumed by the tally.
    expect(balance(pos, alice.address)).toBe(aliceBefore + MIN_DEPOSIT);
    const votes = await query('/cosmos.gov.v1.Query/Votes', govQuery.QueryVotesRequestSchema, { proposalId: id }, govQuery.QueryVotesResponseSchema);
    expect(votes.votes).toEqual([]);
    const passed = await query('/cosmos.gov.v1.Query/Proposals', govQuery.QueryProposalsRequestSchema, { proposalStatus: ProposalStatus.PASSED }, govQuery.QueryProposalsResponseSchema);
    expect(passed.proposals.map((p) => p.id)).toEqual([id]);
  });

  test('quorum not reached: rejected, deposits refunded by default and burned with burn_vote_quorum', async () => {
    await start();
    const id = await submitText(MIN_DEPOSIT);
    await vote(val(1), id, VoteOption.YES); // 100 of 400 < 0.334
    const before = balance(pos, alice.address);
    await endVoting();
    expect((await proposal(id)).status).toBe(ProposalStatus.REJECTED);
    expect(balance(pos, alice.address)).toBe(before + MIN_DEPOSIT);
    await pos.close();

    await start((params) => {
      params.burn_vote_quorum = true;
    });
    const bank = pos.keeper<BankKeeper>('bank');
    const burned = await submitText(MIN_DEPOSIT);
    await vote(val(1), burned, VoteOption.YES);
    const supply = bank.getSupply(pos.ctx(), 'attotoken');
    const aliceBefore = balance(pos, alice.address);
    await endVoting();
    expect((await proposal(burned)).status).toBe(ProposalStatus.REJECTED);
    expect(balance(pos, alice.address)).toBe(aliceBefore);
    expect(balance(pos, moduleAddress('gov'))).toBe(0n);
    expect(bank.getSupply(pos.ctx(), 'attotoken') < supply).toBe(true);
  });

  test('veto: rejected and the deposits burned; an expired deposit period drops the proposal and refunds', async () => {
    await start();
    const id = await submitText(MIN_DEPOSIT);
    await vote(val(0), id, VoteOption.NO_WITH_VETO);
    await vote(val(1), id, VoteOption.NO_WITH_VETO);
    await vote(val(2), id, VoteOption.YES);
    const dropped = await submitText(TOKEN);
    const aliceBefore = balance(pos, alice.address);
    const result = await (async () => {
      pos.advance(11_000);
      return pos.block();
    })();
    expect((await proposal(id)).status).toBe(ProposalStatus.REJECTED);
    expect(result.events.some((e) => e.type === 'active_proposal' && e.attributes.some((a) => a.value === 'proposal_rejected'))).toBe(true);
    expect(result.events.some((e) => e.type === 'inactive_proposal' && e.attributes.some((a) => a.value === 'proposal_dropped'))).toBe(true);
    // The vetoed deposit is gone, the dropped one came back.
    expect(balance(pos, alice.address)).toBe(aliceBefore + TOKEN);
    expect(balance(pos, moduleAddress('gov'))).toBe(0n);
    const gone = await abciQuery(pos.chain.app, '/cosmos.gov.v1.Query/Proposal', toBinary(govQuery.QueryProposalRequestSchema, create(govQuery.QueryProposalRequestSchema, { proposalId: dropped })), govQuery.QueryProposalResponseSchema);
    expect(gone.response.log).toContain(`proposal ${dropped} doesn't exist`);
  });

  test('a passed parameter change applies; params queries show the new value in both modules', async () => {
    await start();
    const content = pack(ParameterChangeProposalSchema, {
      title: 'More validators',
      description: 'Raise MaxValidators',
      changes: [
        { subspace: 'staking', key: 'MaxValidators', value: '50' },
        { subspace: 'staking', key: 'UnbondingTime', value: '"200000000000"' },
        { subspace: 'gov', key: 'votingparams', value: '{"voting_period":"20000000000"}' },
      ],
    });
    await ok(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content, initialDeposit: [coin(MIN_DEPOSIT)], proposer: alice.bech32 })]);
    for (const i of [0, 1, 2]) await vote(val(i), 1n, VoteOption.YES);
    const before = await query('/cosmos.params.v1beta1.Query/Params', paramsQuery.QueryParamsRequestSchema, { subspace: 'staking', key: 'MaxValidators' }, paramsQuery.QueryParamsResponseSchema);
    expect(before.param!.value).toBe('100');
    await endVoting();
    expect((await proposal(1n)).status).toBe(ProposalStatus.PASSED);
    expect(pos.keeper<StakingKeeper>('staking').getParams(pos.ctx()).maxValidators).toBe(50);
    const after = await query('/cosmos.params.v1beta1.Query/Params', paramsQuery.QueryParamsRequestSchema, { subspace: 'staking', key: 'MaxValidators' }, paramsQuery.QueryParamsResponseSchema);
    expect(after.param!.value).toBe('50');
    const voting = await query('/cosmos.gov.v1beta1.Query/Params', legacyQuery.QueryParamsRequestSchema, { paramsType: 'voting' }, legacyQuery.QueryParamsResponseSchema);
    expect(voting.votingParams!.votingPeriod!.seconds).toBe(20n);
    const unbonding = await query('/cosmos.params.v1beta1.Query/Params', paramsQuery.QueryParamsRequestSchema, { subspace: 'staking', key: 'UnbondingTime' }, paramsQuery.QueryParamsResponseSchema);
    expect(unbonding.param!.value).toBe('"200000000000"');
    expect(pos.keeper<StakingKeeper>('staking').getParams(pos.ctx()).unbondingTime!.seconds).toBe(200n);
    // Other subspaces, values as the SDK's amino JSON.
    const value = async (subspace: string, key: string) => (await query('/cosmos.params.v1beta1.Query/Params', paramsQuery.QueryParamsRequestSchema, { subspace, key }, paramsQuery.QueryParamsResponseSchema)).param!.value;
    expect(await value('distribution', 'communitytax')).toBe('"0.020000000000000000"');
    expect(await value('bank', 'DefaultSendEnabled')).toBe('true');
    expect(await value('auth', 'SigVerifyCostED25519')).toBe('"590"');
    expect(await value('gov', 'tallyparams')).toBe('{"quorum":"0.334000000000000000","threshold":"0.500000000000000000","veto_threshold":"0.334000000000000000"}');
    const unknown = await abciQuery(pos.chain.app, '/cosmos.params.v1beta1.Query/Params', toBinary(paramsQuery.QueryParamsRequestSchema, create(paramsQuery.QueryParamsRequestSchema, { subspace: 'nope', key: 'x' })), paramsQuery.QueryParamsResponseSchema);
    expect(unknown.response.log).toContain('unknown subspace: nope');
    const subspaces = await query('/cosmos.params.v1beta1.Query/Subspaces', paramsQuery.QuerySubspacesRequestSchema, {}, paramsQuery.QuerySubspacesResponseSchema);
    expect(subspaces.subspaces.map((s) => s.subspace)).toEqual(['aiozrc20', 'auth', 'bank', 'bonus', 'distribution', 'evm', 'feemarket', 'gov', 'ibc', 'icacontroller', 'icahost', 'mint', 'slashing', 'staking', 'transfer']);
    expect(subspaces.subspaces.find((s) => s.subspace === 'ibc')!.keys).toEqual(['AllowedClients', 'MaxExpectedTimePerBlock']);
    expect(await value('ibc', 'MaxExpectedTimePerBlock')).toBe('"30000000000"');
    expect(subspaces.subspaces.find((s) => s.subspace === 'bank')!.keys).toEqual(['SendEnabled', 'DefaultSendEnabled']);
  });

  test('a passed v1 proposal whose second message fails is FAILED and none of its writes land', async () => {
    await start();
    const bankParams = create(BankParamsSchema, { sendEnabled: [], defaultSendEnabled: false });
    const messages = [
      pack(BankMsgUpdateParamsSchema, { authority: GOV, params: bankParams }),
      pack(MsgCommunityPoolSpendSchema, { authority: GOV, recipient: bob.bech32, amount: [coin(1000n * TOKEN)] }),
    ];
    await ok(alice, [pack(MsgSubmitProposalSchema, { messages, initialDeposit: [coin(MIN_DEPOSIT)], proposer: alice.bech32, title: 'two', summary: 'fails' })]);
    for (const i of [0, 1, 2]) await vote(val(i), 1n, VoteOption.YES);
    await endVoting();
    expect((await proposal(1n)).status).toBe(ProposalStatus.FAILED);
    expect(pos.keeper<BankKeeper>('bank').getParams(pos.ctx()).defaultSendEnabled).toBe(true);

    // The same first message alone passes and applies (gov v1 MsgUpdateParams also through a proposal).
    const govParams = (await query('/cosmos.gov.v1.Query/Params', govQuery.QueryParamsRequestSchema, { paramsType: 'voting' }, govQuery.QueryParamsResponseSchema)).params!;
    govParams.quorum = '0.400000000000000000';
    await ok(alice, [
      pack(MsgSubmitProposalSchema, {
        messages: [pack(BankMsgUpdateParamsSchema, { authority: GOV, params: bankParams }), pack(GovMsgUpdateParamsSchema, { authority: GOV, params: govParams })],
        initialDeposit: [coin(MIN_DEPOSIT)],
        proposer: alice.bech32,
        title: 'one',
        summary: 'passes',
      }),
    ]);
    for (const i of [0, 1, 2]) await vote(val(i), 2n, VoteOption.YES);
    await endVoting();
    expect((await proposal(2n)).status).toBe(ProposalStatus.PASSED);
    expect(pos.keeper<BankKeeper>('bank').getParams(pos.ctx()).defaultSendEnabled).toBe(false);
    const tallying = await query('/cosmos.gov.v1.Query/Params', govQuery.QueryParamsRequestSchema, { paramsType: 'tallying' }, govQuery.QueryParamsResponseSchema);
    expect(tallying.tallyParams!.quorum).toBe('0.400000000000000000');
    const all = await query('/cosmos.gov.v1.Query/Params', govQuery.QueryParamsRequestSchema, { paramsType: '' }, govQuery.QueryParamsResponseSchema);
    expect([all.params!.quorum, all.tallyParams, all.votingParams]).toEqual(['0.400000000000000000', undefined, undefined]);
    const bad = await abciQuery(pos.chain.app, '/cosmos.gov.v1.Query/Params', toBinary(govQuery.QueryParamsRequestSchema, create(govQuery.QueryParamsRequestSchema, { paramsType: 'nope' })), govQuery.QueryParamsResponseSchema);
    expect(bad.response.log).toContain('nope is not a valid parameter type');
  });

  test('the network\'s validator admission and a community pool spend, carried out when their proposals pass', async () => {
    await start();
    await pos.close();
    pos = await startPosChain({
      accounts: [
        [alice, 1000n * TOKEN],
        [bob, 1000n * TOKEN],
      ],
      edit: (state) => {
        const params = (state.gov as JsonObject).params as JsonObject;
        Object.assign(params, { min_deposit: [{ denom: 'attotoken', amount: MIN_DEPOSIT.toString() }], max_deposit_period: '10s', voting_period: '10s' });
        ((state.staking as JsonObject).params as JsonObject).accept_all_validators = false;
      },
    });
    const candidate = pack(MsgCreateValidatorSchema, {
      description: create(DescriptionSchema, { moniker: 'admitted' }),
      commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
      minSelfDelegation: '1',
      delegatorAddress: '',
      validatorAddress: bob.valoper,
      pubkey: pack(Ed25519PubKeySchema, { key: consensusKey('gov-admitted') }),
      value: coin(50n * TOKEN),
    });
    // Without a proposal the network refuses it.
    const refused = await pos.tx(bob, [candidate]);
    expect([refused.codespace, refused.code]).toEqual(['sdk', 4]);
    const validator = create(MsgCreateValidatorSchema, fromBinary(MsgCreateValidatorSchema, candidate.value));
    await ok(alice, [pack(MsgFundCommunityPoolSchema, { depositor: alice.bech32, amount: [coin(7n * TOKEN)] })]);
    const admit = pack(CreateValidatorProposalSchema, { title: 'Admit bob', description: 'A new validator', validator });
    const spend = pack(CommunityPoolSpendProposalSchema, { title: 'Pay carol', description: 'From the pool', recipient: carol.bech32, amount: [coin(5n * TOKEN)] });
    await ok(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content: admit, initialDeposit: [coin(MIN_DEPOSIT)], proposer: alice.bech32 })]);
    await ok(alice, [pack(legacyTx.MsgSubmitProposalSchema, { content: spend, initialDeposit: [coin(MIN_DEPOSIT)], proposer: alice.bech32 })]);
    for (const id of [1n, 2n]) for (const i of [0, 1, 2]) await vote(val(i), id, VoteOption.YES);
    await endVoting();
    expect((await proposal(1n)).status).toBe(ProposalStatus.PASSED);
    expect((await proposal(2n)).status).toBe(ProposalStatus.PASSED);
    expect(pos.keeper<StakingKeeper>('staking').getValidator(pos.ctx(), bob.address)?.description?.moniker).toBe('admitted');
    expect(balance(pos, carol.address)).toBe(5n * TOKEN);
  });

  test('genesis: validation names each problem; an exported state with open proposals validates', async () => {
    await start();
    expect(validateGovGenesis({ starting_proposal_id: '0', params: { quorum: '2' } }).join('; ')).toMatch(/starting proposal id must be greater than 0.*quorom too large/);
    expect(validateGovGenesis({ starting_proposal_id: '1' })).toEqual(['params are missing']);
    const exported = defaultGovGenesis({ denom: 'attotoken' });
    exported.deposits = [{ proposal_id: '3', depositor: alice.bech32, amount: [] }];
    expect(validateGovGenesis(exported)).toEqual([`deposit of ${alice.bech32} has non-existent proposal id: 3`]);
    const id = await submitText(MIN_DEPOSIT);
    await vote(val(0), id, VoteOption.YES);
    const state = await exportGovGenesis(pos.ctx(), pos.keeper<GovKeeper>('gov'));
    expect(validateGovGenesis(state)).toEqual([]);
    expect(state.starting_proposal_id).toBe('2');
    expect((state.votes as JsonObject[]).length).toBe(1);
    expect((state.proposals as JsonObject[])[0]!.status).toBe('PROPOSAL_STATUS_VOTING_PERIOD');
  });
});
