/**
 * The gov keeper (x/gov SDK 0.47): proposals with messages run by the gov module account,
 * deposits (min deposit → voting period; refunded or burned as the params say), votes (weighted),
 * the tally by bonded stake with delegators overriding their validator, and the EndBlocker that
 * drops expired deposit-period proposals and settles proposals whose voting period ended.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import { timestampDate, timestampFromMs, type Any } from '@bufbuild/protobuf/wkt';
import {
  DepositSchema,
  ProposalSchema,
  ProposalStatus,
  TallyResultSchema,
  VoteOption,
  VoteSchema,
  WeightedVoteOptionSchema,
  type Deposit,
  type Proposal,
  type TallyResult,
  type WeightedVoteOption,
} from '../../../gen/cosmos/gov/v1/gov_pb.js';
import { MsgExecLegacyContentSchema } from '../../../gen/cosmos/gov/v1/tx_pb.js';
import type { ContentRouter } from '../../platform/content.js';
import { ErrNoProposalHandlerExists } from '../../platform/content.js';
import type { MsgRouter } from '../../platform/router.js';
import { BondStatus } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { ProtoReader, utf8Decode } from '../shared/proto.js';
import { accString, parseAccAddress, parseValAddress } from '../shared/address.js';
import { addCoins, coinsFromProto, coinsToProto, coinsToString, isZeroCoins, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, DEC_ZERO, decFromInt, decFromWire, decMul, decQuo, decToString, decTruncate, type Dec } from '../shared/dec.js';
import { isSdkError, SdkErrors } from '../shared/errors.js';
import { EventManager, newEvent } from '../shared/events.js';
import { bytesEqual } from '../shared/keys.js';
import { GovErrors } from './errors.js';
import type { GovAccountKeeper, GovBankKeeper, GovStakingKeeper } from './expectedKeepers.js';
import { ActiveProposalQueue, Deposits, GOV_MODULE_ACCOUNT, InactiveProposalQueue, Params, ProposalID, Proposals, Votes } from './keys.js';
import { decParam, durationMs, minDeposit, parseDec, type GovParams } from './params.js';

/** From this many voters on, the tally reads all delegations in one pass instead of one prefix scan per voter. */
export const FULL_SCAN_VOTERS = 2000;

/** The SDK's default MaxMetadataLen. */
export const MAX_METADATA_LEN = 255;

export const MSG_EXEC_LEGACY_CONTENT_URL = `/${MsgExecLegacyContentSchema.typeName}`;

export interface TallyOutcome {
  passes: boolean;
  burnDeposits: boolean;
  tally: TallyResult;
  /** The exact sums before truncation (indexed by VoteOption) and the total voting power: what quorum and thresholds compare. */
  power: { readonly results: readonly Dec[]; readonly total: Dec };
}

const OPTION_NAMES: Record<number, string> = {
  [VoteOption.UNSPECIFIED]: 'VOTE_OPTION_UNSPECIFIED',
  [VoteOption.YES]: 'VOTE_OPTION_YES',
  [VoteOption.ABSTAIN]: 'VOTE_OPTION_ABSTAIN',
  [VoteOption.NO]: 'VOTE_OPTION_NO',
  [VoteOption.NO_WITH_VETO]: 'VOTE_OPTION_NO_WITH_VETO',
};

export function voteOptionName(option: VoteOption): string {
  return OPTION_NAMES[option] ?? String(option);
}

/** WeightedVoteOptions.String() as the SDK's proposal_vote event carries it. */
export function weightedOptionsText(options: readonly WeightedVoteOption[]): string {
  return options.map((option) => `option:${voteOptionName(option.option)} weight:"${option.weight}"`).join('\n');
}

export function emptyTally(): TallyResult {
  return create(TallyResultSchema, { yesCount: '0', abstainCount: '0', noCount: '0', noWithVetoCount: '0' });
}

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

/**
 * Weighted options as MsgVoteWeighted.ValidateBasic and AddVote check them: each option valid
 * with a weight in (0, 1], no option twice, weights summing to exactly 1. Returns them with
 * normalized weights (18 digits).
 */
export function checkWeightedOptions(options: readonly WeightedVoteOption[]): WeightedVoteOption[] {
  if (options.length === 0) throw SdkErrors.InvalidRequest.wrap(voteOptionsText(options));
  let total: Dec = 0n;
  const seen = new Set<VoteOption>();
  const out: WeightedVoteOption[] = [];
  for (const option of options) {
    const weight = parseDec(option.weight);
    const validOption = option.option >= VoteOption.YES && option.option <= VoteOption.NO_WITH_VETO;
    if (!validOption || weight === undefined || weight <= 0n || weight > DEC_ONE) throw GovErrors.InvalidVote.wrap(`option:${voteOptionName(option.option)} weight:"${option.weight}"`);
    if (seen.has(option.option)) throw GovErrors.InvalidVote.wrap('duplicated vote option');
    seen.add(option.option);
    total += weight;
    out.push(create(WeightedVoteOptionSchema, { option: option.option, weight: decToString(weight) }));
  }
  if (total > DEC_ONE) throw GovErrors.InvalidVote.wrap('total weight overflow 1.00');
  if (total < DEC_ONE) throw GovErrors.InvalidVote.wrap('total weight lower than 1.00');
  return out;
}

function voteOptionsText(options: readonly WeightedVoteOption[]): string {
  return options.length === 0 ? 'empty vote options' : weightedOptionsText(options);
}

interface ValidatorTally {
  tokens: bigint;
  shares: Dec;
  /**
   * tokens·10^18 / shares when that division is exact (a validator never slashed: 1): then a
   * delegation's voting power, shares·tokens / validator shares rounded as Dec.Quo does, is
   * exactly shares × factor, with no division or rounding. Undefined otherwise.
   */
  factor: bigint | undefined;
  /**
   * With a factor: the shares of delegations voting one option at weight 1, summed per option;
   * their power (sum × factor, exact) is added once after the scan — the same sums as adding
   * each delegation's, with one addition per delegation instead of three.
   */
  plainShares: Dec[] | undefined;
  deductions: Dec;
  weights: readonly WeightedOption[] | undefined;
}

/**
 * Order of addresses as store keys hold them (a length byte, then the bytes): the address in
 * `a` at `aAt` (its length byte) against the one of `b` at `bAt`.
 */
function compareLengthPrefixed(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number): number {
  const length = a[aAt]!;
  const other = b[bAt]!;
  if (length !== other) return length - other;
  for (let i = 1; i <= length; i++) if (a[aAt + i] !== b[bAt + i]) return a[aAt + i]! - b[bAt + i]!;
  return 0;
}

/** Store keys copied end to end into one growing array: no object per key while 100k are held. */
class KeyArena {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  /** Where each key starts; key i ends where key i + 1 starts. */
  private readonly starts: number[] = [];

  get count(): number {
    return this.starts.length;
  }

  /** Appends `source` from `at` to its end. */
  push(source: Uint8Array, at: number): void {
    const length = source.length - at;
    if (this.used + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + length));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    for (let i = 0; i < length; i++) this.bytes[this.used + i] = source[at + i]!;
    this.starts.push(this.used);
    this.used += length;
  }

  /** The array holding the keys (valid until the next push) and where key `i` starts in it. */
  get data(): Uint8Array {
    return this.bytes;
  }

  start(i: number): number {
    return this.starts[i]!;
  }

  /** Key `i` as a view. */
  key(i: number): Uint8Array {
    return this.bytes.subarray(this.starts[i]!, i + 1 < this.starts.length ? this.starts[i + 1]! : this.used);
  }
}

/** A few (here: the bonded validators') values by address bytes, found without building a string. */
class OperatorTable<T> {
  private readonly slots = new Map<number, [Uint8Array, T][]>();

  private static slot(bytes: Uint8Array): number {
    return bytes.length < 4 ? bytes.length : ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) ^ bytes.length;
  }

  set(bytes: Uint8Array, value: T): void {
    const slot = OperatorTable.slot(bytes);
    const list = this.slots.get(slot);
    if (list === undefined) this.slots.set(slot, [[bytes, value]]);
    else list.push([bytes, value]);
  }

  get(bytes: Uint8Array): T | undefined {
    return this.getAt(bytes, 0, bytes.length);
  }

  /** The value of the address data[at, at + length). */
  getAt(data: Uint8Array, at: number, length: number): T | undefined {
    const slot = length < 4 ? length : ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) ^ length;
    const list = this.slots.get(slot);
    if (list === undefined) return undefined;
    for (const [key, value] of list) if (rangeEquals(key, data, at, at + length)) return value;
    return undefined;
  }
}

type WeightedOption = readonly [VoteOption, Dec];

/**
 * One stored WeightedVoteOption ({1 option, 2 weight}) parsed, remembered by its encoding: the
 * options of most votes are byte-identical ("YES at 1.0"), so a tally of 100k votes parses a
 * handful — and a vote of one such option shares one array with every vote like it. Distinct
 * encodings past the first 16 are parsed each time.
 */
class OptionParser {
  private readonly known: [Uint8Array, WeightedOption, readonly WeightedOption[]][] = [];
  private readonly weights = new Map<string, Dec>();
  private readonly reader = new ProtoReader(NO_BYTES);

  /** The option encoded in data[start, end), and the one-option list of it. */
  parse(data: Uint8Array, start: number, end: number): readonly [WeightedOption, readonly WeightedOption[]] {
    for (const entry of this.known) if (rangeEquals(entry[0], data, start, end)) return [entry[1], entry[2]];
    const bytes = new Uint8Array(data.subarray(start, end));
    let option = VoteOption.UNSPECIFIED;
    let text = '';
    const inner = new ProtoReader(bytes);
    while (inner.next()) {
      if (inner.field === 1 && inner.wireType === 0) option = Number(inner.varint) as VoteOption;
      else if (inner.field === 2 && inner.wireType === 2) text = utf8Decode(inner.bytes);
    }
    let weight = this.weights.get(text);
    if (weight === undefined) this.weights.set(text, (weight = decParam(text)));
    const parsed = [option, weight] as const;
    const single = [parsed] as const;
    if (this.known.length < 16) this.known.push([bytes, parsed, single]);
    return [parsed, single];
  }

  /** The options of a stored cosmos.gov.v1.Vote (field 4, repeated) in bytes[at, end) as (option, weight). */
  voteWeights(bytes: Uint8Array, at = 0): readonly WeightedOption[] {
    let single: readonly WeightedOption[] = NO_OPTIONS;
    let several: WeightedOption[] | undefined;
    const reader = this.reader.reset(bytes, at);
    while (reader.nextField()) {
      if (reader.field !== 4 || reader.wireType !== 2) continue;
      const [parsed, list] = this.parse(bytes, reader.start, reader.end);
      if (single === NO_OPTIONS) single = list;
      else (several ??= [...single]).push(parsed);
    }
    return several ?? single;
  }
}

const NO_OPTIONS: readonly WeightedOption[] = [];
const NO_BYTES = new Uint8Array(0);

/** Whether data[start, end) holds the bytes of `bytes`. */
function rangeEquals(bytes: Uint8Array, data: Uint8Array, start: number, end: number): boolean {
  if (bytes.length !== end - start) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== data[start + i]) return false;
  return true;
}

export class GovKeeper {
  readonly moduleAddress: Uint8Array;
  /** Voters from which the tally reads all delegations in one pass (FULL_SCAN_VOTERS; tests lower it). */
  fullScanVoters = FULL_SCAN_VOTERS;

  constructor(
    private readonly accountKeeper: GovAccountKeeper,
    private readonly bankKeeper: GovBankKeeper,
    private readonly stakingKeeper: GovStakingKeeper,
    private readonly router: MsgRouter,
    readonly contentRouter: ContentRouter,
    authority: Uint8Array,
  ) {
    this.moduleAddress = authority;
  }

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): GovParams {
    const params = Params.get(ctx);
    if (params === undefined) throw new Error('gov params are not set');
    return params;
  }

  setParams(ctx: Context, params: GovParams): void {
    Params.set(ctx, params);
  }

  ensureModuleAccount(ctx: Context): void {
    this.accountKeeper.getModuleAccount(ctx, GOV_MODULE_ACCOUNT);
  }

  // ------------------------------------------------------------------ proposals

  getProposal(ctx: Context, id: bigint): Proposal | undefined {
    return Proposals.get(ctx, id);
  }

  setProposal(ctx: Context, proposal: Proposal): void {
    Proposals.set(ctx, proposal.id, proposal);
  }

  getProposalID(ctx: Context): bigint {
    return ProposalID.get(ctx) ?? 1n;
  }

  setProposalID(ctx: Context, id: bigint): void {
    ProposalID.set(ctx, id);
  }

  /** Removes a proposal with its queue entries (DeleteProposal). */
  deleteProposal(ctx: Context, proposal: Proposal): void {
    if (proposal.votingEndTime !== undefined) ActiveProposalQueue.remove(ctx, [timestampDate(proposal.votingEndTime).getTime(), proposal.id]);
    if (proposal.depositEndTime !== undefined) InactiveProposalQueue.remove(ctx, [timestampDate(proposal.depositEndTime).getTime(), proposal.id]);
    Proposals.remove(ctx, proposal.id);
  }

  /**
   * SubmitProposal: every message must be routed and signed by the gov account alone; a legacy
   * content is tried in a throw-away branch so an invalid one fails now. The proposal enters the
   * deposit period.
   */
  async submitProposal(ctx: Context, messages: readonly Any[], metadata: string, title: string, summary: string, proposer: Uint8Array): Promise<Proposal> {
    if (metadata.length > MAX_METADATA_LEN) throw GovErrors.MetadataTooLong.wrap(`got metadata with length ${metadata.length}`);
    for (const msg of messages) {
      if (this.router.route(msg.typeUrl) === undefined) throw GovErrors.UnroutableProposalMsg.wrap(msg.typeUrl);
      let signers: Uint8Array[];
      try {
        signers = this.router.signers(msg);
      } catch (err) {
        throw GovErrors.InvalidProposalMsg.wrap(err instanceof Error ? err.message : String(err));
      }
      if (signers.length !== 1) throw GovErrors.InvalidSigner.error();
      if (!bytesEqual(signers[0]!, this.moduleAddress)) throw GovErrors.InvalidSigner.wrap(accString(signers[0]!));
      if (msg.typeUrl === MSG_EXEC_LEGACY_CONTENT_URL) {
        const branch = ctx.multiStore.branch();
        try {
          await this.router.dispatch(ctx.with({ multiStore: branch }), msg, [this.moduleAddress]);
        } catch (err) {
          if (ErrNoProposalHandlerExists.is(err)) throw err;
          throw GovErrors.InvalidProposalContent.wrap(isSdkError(err) ? err.message : err instanceof Error ? err.message : String(err));
        } finally {
          branch.discard();
        }
      }
    }
    const params = this.getParams(ctx);
    const id = this.getProposalID(ctx);
    const submitMs = ctx.blockTime.getTime();
    const depositEndMs = submitMs + durationMs(params.maxDepositPeriod);
    const proposal = create(ProposalSchema, {
      id,
      messages: [...messages],
      status: ProposalStatus.DEPOSIT_PERIOD,
      finalTallyResult: emptyTally(),
      submitTime: timestampFromMs(submitMs),
      depositEndTime: timestampFromMs(depositEndMs),
      totalDeposit: [],
      metadata,
      title,
      summary,
      proposer: accString(proposer),
    });
    this.setProposal(ctx, proposal);
    InactiveProposalQueue.set(ctx, [depositEndMs, id], id);
    this.setProposalID(ctx, id + 1n);
    ctx.events.emit(newEvent('submit_proposal', ['proposal_id', id.toString()], ['proposal_messages', messages.map((m) => m.typeUrl).join(',')]));
    return proposal;
  }

  /** Moves a proposal from the deposit period to the voting period. */
  activateVotingPeriod(ctx: Context, proposal: Proposal): void {
    const startMs = ctx.blockTime.getTime();
    const endMs = startMs + durationMs(this.getParams(ctx).votingPeriod);
    if (proposal.depositEndTime !== undefined) InactiveProposalQueue.remove(ctx, [timestampDate(proposal.depositEndTime).getTime(), proposal.id]);
    proposal.votingStartTime = timestampFromMs(startMs);
    proposal.votingEndTime = timestampFromMs(endMs);
    proposal.status = ProposalStatus.VOTING_PERIOD;
    this.setProposal(ctx, proposal);
    ActiveProposalQueue.set(ctx, [endMs, proposal.id], proposal.id);
  }

  // ------------------------------------------------------------------ deposits

  getDeposit(ctx: Context, id: bigint, depositor: Uint8Array): Deposit | undefined {
    return Deposits.get(ctx, [id, depositor]);
  }

  setDeposit(ctx: Context, deposit: Deposit): void {
    Deposits.set(ctx, [deposit.proposalId, address(deposit.depositor, 'depositor')], deposit);
  }

  async getDeposits(ctx: Context, id: bigint): Promise<Deposit[]> {
    const deposits: Deposit[] = [];
    for await (const deposit of Deposits.values(ctx, { prefix: [id] })) deposits.push(deposit);
    return deposits;
  }

  /** AddDeposit: returns true when the deposit moved the proposal into its voting period. */
  addDeposit(ctx: Context, id: bigint, depositor: Uint8Array, amount: readonly Coin[]): boolean {
    const proposal = this.getProposal(ctx, id);
    if (proposal === undefined) throw GovErrors.UnknownProposal.wrap(id.toString());
    if (proposal.status !== ProposalStatus.DEPOSIT_PERIOD && proposal.status !== ProposalStatus.VOTING_PERIOD) throw GovErrors.InactiveProposal.wrap(id.toString());
    this.bankKeeper.sendCoinsFromAccountToModule(ctx, depositor, GOV_MODULE_ACCOUNT, amount);
    const total = addCoins(coinsFromProto(proposal.totalDeposit), amount);
    proposal.totalDeposit = coinsToProto(total);
    this.setProposal(ctx, proposal);
    let activated = false;
    if (proposal.status === ProposalStatus.DEPOSIT_PERIOD && isAllGTE(total, minDeposit(this.getParams(ctx)))) {
      this.activateVotingPeriod(ctx, proposal);
      activated = true;
    }
    const existing = this.getDeposit(ctx, id, depositor);
    const deposit = create(DepositSchema, {
      proposalId: id,
      depositor: accString(depositor),
      amount: coinsToProto(addCoins(existing === undefined ? [] : coinsFromProto(existing.amount), amount)),
    });
    ctx.events.emit(newEvent('proposal_deposit', ['amount', coinsToString(amount)], ['proposal_id', id.toString()]));
    Deposits.set(ctx, [id, depositor], deposit);
    return activated;
  }

  /** Pays every deposit of a proposal back and removes them. */
  async refundAndDeleteDeposits(ctx: Context, id: bigint): Promise<void> {
    for (const deposit of await this.getDeposits(ctx, id)) {
      const depositor = address(deposit.depositor, 'depositor');
      const amount = coinsFromProto(deposit.amount);
      if (!isZeroCoins(amount)) this.bankKeeper.sendCoinsFromModuleToAccount(ctx, GOV_MODULE_ACCOUNT, depositor, amount);
      Deposits.remove(ctx, [id, depositor]);
    }
  }

  /** Burns every deposit of a proposal and removes them. */
  async deleteAndBurnDeposits(ctx: Context, id: bigint): Promise<void> {
    let total: Coin[] = [];
    for (const deposit of await this.getDeposits(ctx, id)) {
      total = addCoins(total, coinsFromProto(deposit.amount));
      Deposits.remove(ctx, [id, address(deposit.depositor, 'depositor')]);
    }
    if (!isZeroCoins(total)) this.bankKeeper.burnCoins(ctx, GOV_MODULE_ACCOUNT, total);
  }

  // ------------------------------------------------------------------ votes

  /** AddVote: only in the voting period; options already checked by the caller's ValidateBasic. */
  addVote(ctx: Context, id: bigint, voter: Uint8Array, options: readonly WeightedVoteOption[], metadata: string): void {
    const proposal = this.getProposal(ctx, id);
    if (proposal === undefined) throw GovErrors.UnknownProposal.wrap(id.toString());
    if (proposal.status !== ProposalStatus.VOTING_PERIOD) throw GovErrors.InactiveProposal.wrap(id.toString());
    if (metadata.length > MAX_METADATA_LEN) throw GovErrors.MetadataTooLong.wrap(`got metadata with length ${metadata.length}`);
    const checked = checkWeightedOptions(options);
    Votes.set(ctx, [id, voter], create(VoteSchema, { proposalId: id, voter: accString(voter), options: checked, metadata }));
    ctx.events.emit(newEvent('proposal_vote', ['option', weightedOptionsText(checked)], ['proposal_id', id.toString()]));
  }

  getVote(ctx: Context, id: bigint, voter: Uint8Array) {
    return Votes.get(ctx, [id, voter]);
  }

  // ------------------------------------------------------------------ tally

  /**
   * Tally (x/gov keeper/tally.go): bonded validators' stake; each vote counts with the voter's
   * delegations to bonded validators (deducted from the validator's own vote), then each voting
   * validator's remaining stake counts with its vote. Votes are read once; each voter's
   * delegations are one prefix scan. With `consume`, the votes are deleted as they are counted.
   */
  async tally(ctx: Context, proposal: Proposal, consume: boolean): Promise<TallyOutcome> {
    const validators = new Map<string, ValidatorTally>();
    // The same entries by operator bytes: a voter whose address is an operator's is that validator.
    const validatorsByOperator = new OperatorTable<ValidatorTally>();
    let totalBonded = 0n;
    for (const validator of await this.stakingKeeper.getAllValidators(ctx)) {
      if (validator.status !== BondStatus.BONDED) continue;
      const tokens = BigInt(validator.tokens === '' ? '0' : validator.tokens);
      totalBonded += tokens;
      const shares = decFromWire(validator.delegatorShares) ?? 0n;
      const scaled = tokens * DEC_ONE;
      const factor = shares > 0n && scaled % shares === 0n ? scaled / shares : undefined;
      const entry: ValidatorTally = { tokens, shares, factor, plainShares: factor === undefined ? undefined : [0n, 0n, 0n, 0n, 0n], deductions: 0n, weights: undefined };
      validators.set(validator.operatorAddress, entry);
      const operator = parseValAddress(validator.operatorAddress);
      if (operator.ok) validatorsByOperator.set(operator.bytes, entry);
    }
    const results: Dec[] = [0n, 0n, 0n, 0n, 0n];
    let totalPower: Dec = 0n;
    const options = new OptionParser();
    // The votes, once, in key order — by voter as the delegations are by delegator (both keys are
    // length-prefixed addresses) — with a hand-decoded options field: this loop runs 100k times.
    // Each vote's whole store key (prefix, proposal id, length-prefixed voter) is copied into one
    // arena (no object per vote; the scan's arrays are not kept); the same key deletes the vote
    // when it is consumed.
    const voteKeys = new KeyArena();
    const voterWeights: (readonly WeightedOption[])[] = [];
    const base = Votes.rangePrefix([proposal.id]).length;
    await Votes.scanEntries(ctx, { prefix: [proposal.id] }, (key, keyAt, value, valueAt) => {
      const weights = options.voteWeights(value, valueAt);
      voteKeys.push(key, keyAt);
      voterWeights.push(weights);
      const voterAt = keyAt + base;
      const own = validatorsByOperator.getAt(key, voterAt + 1, key[voterAt]!);
      if (own !== undefined) own.weights = weights;
    });
    const count = (weights: readonly WeightedOption[], validator: ValidatorTally | undefined, shares: Dec): void => {
      if (validator === undefined || validator.shares === 0n) return;
      const plain = validator.plainShares;
      if (plain !== undefined && weights.length === 1 && weights[0]![1] === DEC_ONE) {
        const option = weights[0]![0];
        plain[option] = plain[option]! + shares;
        return;
      }
      validator.deductions += shares;
      const factor = validator.factor;
      const power = factor === 1n ? shares : factor !== undefined ? shares * factor : decQuo(shares * validator.tokens, validator.shares);
      for (let i = 0; i < weights.length; i++) {
        const [option, w] = weights[i]!;
        results[option] = results[option]! + (w === DEC_ONE ? power : decMul(power, w));
      }
      totalPower += power;
    };
    const voters = voteKeys.count;
    if (voters < this.fullScanVoters) {
      // Few voters: each voter's delegations are one prefix scan.
      for (let i = 0; i < voters; i++) {
        const key = voteKeys.key(i);
        const voter = key.subarray(base + 1, base + 1 + key[base]!);
        for (const delegation of await this.stakingKeeper.getDelegatorDelegations(ctx, voter)) count(voterWeights[i]!, validators.get(delegation.validatorAddress), decFromWire(delegation.shares) ?? 0n);
      }
    } else {
      // Many voters: one pass over the delegations (ordered by delegator) beats a scan per voter,
      // merged with the votes (ordered by voter) in place; only voters' shares are parsed.
      let next = 0;
      const keys = voteKeys.data;
      await this.stakingKeeper.scanDelegations(ctx, (delegation) => {
        const delegatorLengthAt = delegation.delegatorAt - 1;
        let order = -1;
        while (next < voters && (order = compareLengthPrefixed(keys, voteKeys.start(next) + base, delegation.key, delegatorLengthAt)) < 0) next++;
        if (next === voters) return false;
        if (order === 0) count(voterWeights[next]!, validatorsByOperator.getAt(delegation.key, delegation.validatorAt, delegation.validatorLength), delegation.shares() ?? 0n);
      });
    }
    if (consume) {
      const store = ctx.kv(Votes.storeKey);
      for (let i = 0; i < voters; i++) store.delete(voteKeys.key(i));
    }
    for (const validator of validators.values()) {
      const plain = validator.plainShares;
      if (plain === undefined) continue;
      for (let option = 0; option < plain.length; option++) {
        const shares = plain[option]!;
        if (shares === 0n) continue;
        validator.deductions += shares;
        const power = shares * validator.factor!;
        results[option] = results[option]! + power;
        totalPower += power;
      }
    }
    for (const validator of validators.values()) {
      if (validator.weights === undefined || validator.shares === 0n) continue;
      const power = decQuo((validator.shares - validator.deductions) * validator.tokens, validator.shares);
      for (const [option, w] of validator.weights) results[option] = results[option]! + decMul(power, w);
      totalPower += power;
    }

    const tally = create(TallyResultSchema, {
      yesCount: decTruncate(results[VoteOption.YES]!).toString(),
      abstainCount: decTruncate(results[VoteOption.ABSTAIN]!).toString(),
      noCount: decTruncate(results[VoteOption.NO]!).toString(),
      noWithVetoCount: decTruncate(results[VoteOption.NO_WITH_VETO]!).toString(),
    });
    const params = this.getParams(ctx);
    const power = { results, total: totalPower };
    if (totalBonded === 0n) return { passes: false, burnDeposits: false, tally, power };
    if (decQuo(totalPower, decFromInt(totalBonded)) < decParam(params.quorum)) return { passes: false, burnDeposits: params.burnVoteQuorum, tally, power };
    const nonAbstain = totalPower - results[VoteOption.ABSTAIN]!;
    if (nonAbstain === DEC_ZERO) return { passes: false, burnDeposits: false, tally, power };
    if (decQuo(results[VoteOption.NO_WITH_VETO]!, totalPower) > decParam(params.vetoThreshold)) return { passes: false, burnDeposits: params.burnVoteVeto, tally, power };
    if (decQuo(results[VoteOption.YES]!, nonAbstain) > decParam(params.threshold)) return { passes: true, burnDeposits: false, tally, power };
    return { passes: false, burnDeposits: false, tally, power };
  }

  // ------------------------------------------------------------------ end block

  async endBlock(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    const params = this.getParams(ctx);

    const inactive: bigint[] = [];
    for await (const [[endMs], id] of InactiveProposalQueue.iterate(ctx)) {
      if (endMs > now) break;
      inactive.push(id);
    }
    for (const id of inactive) {
      const proposal = this.getProposal(ctx, id);
      if (proposal === undefined) continue;
      this.deleteProposal(ctx, proposal);
      if (params.burnProposalDepositPrevote) await this.deleteAndBurnDeposits(ctx, id);
      else await this.refundAndDeleteDeposits(ctx, id);
      ctx.events.emit(newEvent('inactive_proposal', ['proposal_id', id.toString()], ['proposal_result', 'proposal_dropped']));
    }

    const active: [number, bigint][] = [];
    for await (const [[endMs], id] of ActiveProposalQueue.iterate(ctx)) {
      if (endMs > now) break;
      active.push([endMs, id]);
    }
    for (const [endMs, id] of active) {
      const proposal = this.getProposal(ctx, id);
      ActiveProposalQueue.remove(ctx, [endMs, id]);
      if (proposal === undefined) continue;
      const { passes, burnDeposits, tally } = await this.tally(ctx, proposal, true);
      if (burnDeposits) await this.deleteAndBurnDeposits(ctx, id);
      else await this.refundAndDeleteDeposits(ctx, id);
      let result: string;
      if (passes) {
        const failure = await this.execute(ctx, proposal.messages);
        if (failure === undefined) {
          proposal.status = ProposalStatus.PASSED;
          result = 'proposal_passed';
        } else {
          proposal.status = ProposalStatus.FAILED;
          result = 'proposal_failed';
        }
      } else {
        proposal.status = ProposalStatus.REJECTED;
        result = 'proposal_rejected';
      }
      proposal.finalTallyResult = tally;
      this.setProposal(ctx, proposal);
      ctx.events.emit(newEvent('active_proposal', ['proposal_id', id.toString()], ['proposal_result', result]));
    }
  }

  /**
   * Runs a passed proposal's messages in one branch as the gov account: all written if all
   * succeed (with their events), nothing if one fails. Returns the failure text, if any.
   */
  private async execute(ctx: Context, messages: readonly Any[]): Promise<string | undefined> {
    const branch = ctx.multiStore.branch();
    const manager = new EventManager();
    const branchCtx = ctx.with({ multiStore: branch, events: manager });
    for (const [i, msg] of messages.entries()) {
      try {
        await this.router.dispatch(branchCtx, msg, [this.moduleAddress]);
      } catch (err) {
        branch.discard();
        return `msg ${i} (${msg.typeUrl}) failed on execution: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    branch.write();
    for (const event of manager.events) ctx.events.emit(event);
    return undefined;
  }

  /** The content of a MsgExecLegacyContent message (for v1beta1 views). */
  legacyContent(msg: Any): Any | undefined {
    if (msg.typeUrl !== MSG_EXEC_LEGACY_CONTENT_URL) return undefined;
    return fromBinary(MsgExecLegacyContentSchema, msg.value).content;
  }
}

/** Coins.IsAllGTE: every denom of `b` is present in `a` with at least that amount. */
export function isAllGTE(a: readonly Coin[], b: readonly Coin[]): boolean {
  for (const coin of b) {
    const have = a.find((c) => c.denom === coin.denom)?.amount ?? 0n;
    if (have < coin.amount) return false;
  }
  return true;
}
