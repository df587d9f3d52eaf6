/**
 * The distribution keeper (x/distribution/keeper, SDK 0.46): the per-block allocation of the
 * collected fees (community tax, proposer reward = base + bonus × share of precommits, the rest
 * by voting power, commission first), and F1 fee distribution — per validator a running
 * reward-per-token ratio closed into a historical period whenever a delegation changes, so a
 * delegation's reward is stake × (ratio at end − ratio at start), adjusted for slashes in
 * between. A withdrawal costs the same however many blocks have passed.
 */
import { create } from '@bufbuild/protobuf';
import {
  DelegatorStartingInfoSchema,
  FeePoolSchema,
  ValidatorAccumulatedCommissionSchema,
  ValidatorCurrentRewardsSchema,
  ValidatorHistoricalRewardsSchema,
  ValidatorOutstandingRewardsSchema,
  ValidatorSlashEventSchema,
  type DelegatorStartingInfo,
  type ValidatorHistoricalRewards,
} from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import type { Validator } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import type { VoteInfo } from '../../abci/types.js';
import { accString, parseValAddress, valString } from '../shared/address.js';
import { coinsToString, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, decFromInt, decFromWire, decToWire, type Dec } from '../shared/dec.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import {
  decCoinsAdd,
  decCoinsFromCoins,
  decCoinsFromProto,
  decCoinsIntersect,
  decCoinsMulDec,
  decCoinsMulDecTruncate,
  decCoinsQuoDecTruncate,
  decCoinsSub,
  decCoinsToProto,
  decCoinsToString,
  decCoinsTruncate,
  isZeroDecCoins,
  type DecCoin,
  type DecCoins,
} from './decCoins.js';
import { DistributionErrors } from './errors.js';
import type { DistributionAccountKeeper, DistributionBankKeeper, DistributionStakingKeeper } from './expectedKeepers.js';
import {
  AccumulatedCommission,
  CurrentRewards,
  FeePool,
  HistoricalRewards,
  MODULE_NAME,
  OutstandingRewards,
  Params,
  PreviousProposer,
  SlashEvents,
  StartingInfos,
  WithdrawAddresses,
} from './keys.js';
import { defaultDistributionParams, type DistributionParams } from './params.js';

export const FEE_COLLECTOR = 'fee_collector';

const operatorOf = (validator: Validator): Uint8Array => {
  const parsed = parseValAddress(validator.operatorAddress);
  if (!parsed.ok) throw new Error(`invalid operator address ${validator.operatorAddress}`);
  return parsed.bytes;
};
const tokensOf = (validator: Validator): bigint => (validator.tokens === '' ? 0n : BigInt(validator.tokens));
const sharesOf = (validator: Validator): Dec => decFromWire(validator.delegatorShares) ?? 0n;

/** TokensFromSharesTruncated. */
function tokensFromSharesTruncated(validator: Validator, shares: Dec): Dec {
  const total = sharesOf(validator);
  if (total === 0n) return 0n;
  return (shares * tokensOf(validator) * DEC_ONE) / total;
}

export class DistributionKeeper {
  constructor(
    readonly accountKeeper: DistributionAccountKeeper,
    readonly bankKeeper: DistributionBankKeeper,
    readonly stakingKeeper: DistributionStakingKeeper,
  ) {}

  // ------------------------------------------------------------------ simple state

  getParams(ctx: Context): DistributionParams {
    return Params.get(ctx) ?? defaultDistributionParams();
  }

  setParams(ctx: Context, params: DistributionParams): void {
    Params.set(ctx, params);
  }

  communityPool(ctx: Context): DecCoin[] {
    return decCoinsFromProto(FeePool.get(ctx)?.communityPool ?? []);
  }

  setCommunityPool(ctx: Context, coins: DecCoins): void {
    FeePool.set(ctx, create(FeePoolSchema, { communityPool: decCoinsToProto(coins) }));
  }

  /** DistributeFromFeePool: pays `amount` from the community pool to `recipient` (community pool spend). */
  distributeFromFeePool(ctx: Context, amount: readonly Coin[], recipient: Uint8Array): void {
    const pool = this.communityPool(ctx);
    const spend = decCoinsFromCoins(amount);
    for (const coin of spend) {
      const have = pool.find((c) => c.denom === coin.denom)?.amount ?? 0n;
      if (have < coin.amount) throw DistributionErrors.BadDistribution.error();
    }
    if (this.bankKeeper.blockedAddr(recipient)) throw SdkErrors.Unauthorized.wrap(`${accString(recipient)} is not allowed to receive external funds`);
    this.setCommunityPool(ctx, decCoinsSub(pool, spend));
    this.bankKeeper.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, recipient, amount);
  }

  addToCommunityPool(ctx: Context, coins: DecCoins): void {
    if (coins.length === 0) return;
    this.setCommunityPool(ctx, decCoinsAdd(this.communityPool(ctx), coins));
  }

  outstanding(ctx: Context, valAddr: Uint8Array): DecCoin[] {
    return decCoinsFromProto(OutstandingRewards.get(ctx, valAddr)?.rewards ?? []);
  }

  setOutstanding(ctx: Context, valAddr: Uint8Array, coins: DecCoins): void {
    OutstandingRewards.set(ctx, valAddr, create(ValidatorOutstandingRewardsSchema, { rewards: decCoinsToProto(coins) }));
  }

  commission(ctx: Context, valAddr: Uint8Array): DecCoin[] {
    return decCoinsFromProto(AccumulatedCommission.get(ctx, valAddr)?.commission ?? []);
  }

  setCommission(ctx: Context, valAddr: Uint8Array, coins: DecCoins): void {
    AccumulatedCommission.set(ctx, valAddr, create(ValidatorAccumulatedCommissionSchema, { commission: decCoinsToProto(coins) }));
  }

  current(ctx: Context, valAddr: Uint8Array): { rewards: DecCoin[]; period: bigint } {
    const stored = CurrentRewards.get(ctx, valAddr);
    return { rewards: decCoinsFromProto(stored?.rewards ?? []), period: stored?.period ?? 0n };
  }

  setCurrent(ctx: Context, valAddr: Uint8Array, rewards: DecCoins, period: bigint): void {
    CurrentRewards.set(ctx, valAddr, create(ValidatorCurrentRewardsSchema, { rewards: decCoinsToProto(rewards), period }));
  }

  historical(ctx: Context, valAddr: Uint8Array, period: bigint): ValidatorHistoricalRewards | undefined {
    return HistoricalRewards.get(ctx, [valAddr, period]);
  }

  setHistorical(ctx: Context, valAddr: Uint8Array, period: bigint, ratio: DecCoins, referenceCount: number): void {
    HistoricalRewards.set(ctx, [valAddr, period], create(ValidatorHistoricalRewardsSchema, { cumulativeRewardRatio: decCoinsToProto(ratio), referenceCount }));
  }

  /** GetDelegatorWithdrawAddr: the delegator itself unless it set another. */
  withdrawAddress(ctx: Context, delAddr: Uint8Array): Uint8Array {
    return WithdrawAddresses.get(ctx, delAddr) ?? delAddr;
  }

  setWithdrawAddress(ctx: Context, delAddr: Uint8Array, withdrawAddr: Uint8Array): void {
    WithdrawAddresses.set(ctx, delAddr, withdrawAddr);
  }

  startingInfo(ctx: Context, valAddr: Uint8Array, delAddr: Uint8Array): DelegatorStartingInfo | undefined {
    return StartingInfos.get(ctx, [valAddr, delAddr]);
  }

  // ------------------------------------------------------------------ allocation

  /**
   * BeginBlocker: allocate what the previous block collected (from height 2), then remember this
   * block's proposer for the next allocation.
   */
  async beginBlock(ctx: Context): Promise<void> {
    const votes = ctx.cometInfo.lastCommit.votes;
    let total = 0n;
    let signed = 0n;
    for (const vote of votes) {
      total += vote.power;
      if (vote.blockIdFlag === 2) signed += vote.power;
    }
    const previous = PreviousProposer.get(ctx);
    if (ctx.blockHeight > 1 && previous !== undefined) await this.allocateTokens(ctx, signed, total, previous, votes);
    PreviousProposer.set(ctx, ctx.header.proposerAddress);
  }

  async allocateTokens(ctx: Context, sumPrecommitPower: bigint, totalPower: bigint, proposer: Uint8Array, votes: readonly VoteInfo[]): Promise<void> {
    const feeCollector = this.accountKeeper.getModuleAddress(FEE_COLLECTOR);
    if (feeCollector === undefined) return;
    const collectedInt = await this.bankKeeper.getAllBalances(ctx, feeCollector);
    if (collectedInt.length > 0) this.bankKeeper.sendCoinsFromModuleToModule(ctx, FEE_COLLECTOR, MODULE_NAME, collectedInt);
    const collected = decCoinsFromCoins(collectedInt);
    if (totalPower === 0n) {
      this.addToCommunityPool(ctx, collected);
      return;
    }
    if (collected.length === 0) return;
    const params = this.getParams(ctx);
    const fractionVotes = (decFromInt(sumPrecommitPower) * DEC_ONE) / decFromInt(totalPower);
    const base = decFromWire(params.baseProposerReward) ?? 0n;
    const bonus = decFromWire(params.bonusProposerReward) ?? 0n;
    const proposerMultiplier = base + (bonus * fractionVotes) / DEC_ONE;
    const proposerReward = decCoinsMulDecTruncate(collected, proposerMultiplier);
    let remaining: DecCoin[] = collected;
    const proposerValidator = this.stakingKeeper.getValidatorByConsAddr(ctx, proposer);
    if (proposerValidator !== undefined) {
      ctx.events.emit(newEvent('proposer_reward', ['amount', decCoinsToString(proposerReward)], ['validator', proposerValidator.operatorAddress]));
      this.allocateTokensToValidator(ctx, proposerValidator, proposerReward);
      remaining = decCoinsSub(remaining, proposerReward);
    }
    const communityTax = decFromWire(params.communityTax) ?? 0n;
    const voteMultiplier = DEC_ONE - proposerMultiplier - communityTax;
    const feeMultiplier = decCoinsMulDecTruncate(collected, voteMultiplier);
    for (const vote of votes) {
      const validator = this.stakingKeeper.getValidatorByConsAddr(ctx, vote.validatorAddress);
      if (validator === undefined) continue;
      const powerFraction = (decFromInt(vote.power) * DEC_ONE) / decFromInt(totalPower);
      const reward = decCoinsMulDecTruncate(feeMultiplier, powerFraction);
      this.allocateTokensToValidator(ctx, validator, reward);
      remaining = decCoinsSub(remaining, reward);
    }
    this.addToCommunityPool(ctx, remaining);
  }

  /** AllocateTokensToValidator: commission at the validator's rate, the rest to its delegators. */
  allocateTokensToValidator(ctx: Context, validator: Validator, tokens: DecCoins): void {
    const valAddr = operatorOf(validator);
    const rate = decFromWire(validator.commission?.commissionRates?.rate ?? '0') ?? 0n;
    const commission = decCoinsMulDec(tokens, rate);
    const shared = decCoinsSub(tokens, commission);
    ctx.events.emit(newEvent('commission', ['amount', decCoinsToString(commission)], ['validator', validator.operatorAddress]));
    this.setCommission(ctx, valAddr, decCoinsAdd(this.commission(ctx, valAddr), commission));
    const current = this.current(ctx, valAddr);
    this.setCurrent(ctx, valAddr, decCoinsAdd(current.rewards, shared), current.period);
    ctx.events.emit(newEvent('rewards', ['amount', decCoinsToString(tokens)], ['validator', validator.operatorAddress]));
    this.setOutstanding(ctx, valAddr, decCoinsAdd(this.outstanding(ctx, valAddr), tokens));
  }

  // ------------------------------------------------------------------ F1

  initializeValidator(ctx: Context, valAddr: Uint8Array): void {
    this.setHistorical(ctx, valAddr, 0n, [], 1);
    this.setCurrent(ctx, valAddr, [], 1n);
    this.setCommission(ctx, valAddr, []);
    this.setOutstanding(ctx, valAddr, []);
  }

  private incrementReferenceCount(ctx: Context, valAddr: Uint8Array, period: bigint): void {
    const historical = this.historical(ctx, valAddr, period);
    if (historical === undefined) throw new Error(`no historical rewards for period ${period}`);
    if (historical.referenceCount > 2) throw new Error('reference count should never exceed 2');
    HistoricalRewards.set(ctx, [valAddr, period], create(ValidatorHistoricalRewardsSchema, { ...historical, referenceCount: historical.referenceCount + 1 }));
  }

  private decrementReferenceCount(ctx: Context, valAddr: Uint8Array, period: bigint): void {
    const historical = this.historical(ctx, valAddr, period);
    if (historical === undefined || historical.referenceCount === 0) throw new Error('cannot set negative reference count');
    if (historical.referenceCount === 1) HistoricalRewards.remove(ctx, [valAddr, period]);
    else HistoricalRewards.set(ctx, [valAddr, period], create(ValidatorHistoricalRewardsSchema, { ...historical, referenceCount: historical.referenceCount - 1 }));
  }

  /** The reward per token of the current period (what incrementValidatorPeriod would close). */
  private currentRatio(ctx: Context, validator: Validator, rewards: DecCoins): DecCoin[] {
    const tokens = tokensOf(validator);
    return tokens === 0n ? [] : decCoinsQuoDecTruncate(rewards, decFromInt(tokens));
  }

  /** IncrementValidatorPeriod: closes the current period into a historical entry; returns its number. */
  incrementValidatorPeriod(ctx: Context, validator: Validator): bigint {
    const valAddr = operatorOf(validator);
    const current = this.current(ctx, valAddr);
    let ratio: DecCoin[] = [];
    if (tokensOf(validator) === 0n) this.addToCommunityPool(ctx, current.rewards);
    else ratio = this.currentRatio(ctx, validator, current.rewards);
    const previous = this.historical(ctx, valAddr, current.period - 1n);
    if (previous === undefined) throw new Error(`no historical rewards for validator ${validator.operatorAddress} period ${current.period - 1n}`);
    this.decrementReferenceCount(ctx, valAddr, current.period - 1n);
    this.setHistorical(ctx, valAddr, current.period, decCoinsAdd(decCoinsFromProto(previous.cumulativeRewardRatio), ratio), 1);
    this.setCurrent(ctx, valAddr, [], current.period + 1n);
    return current.period;
  }

  /** initializeDelegation: the delegation's stake and the period it starts after. */
  initializeDelegation(ctx: Context, valAddr: Uint8Array, delAddr: Uint8Array): void {
    const previousPeriod = this.current(ctx, valAddr).period - 1n;
    this.incrementReferenceCount(ctx, valAddr, previousPeriod);
    const validator = this.stakingKeeper.getValidator(ctx, valAddr)!;
    const delegation = this.stakingKeeper.getDelegation(ctx, delAddr, valAddr)!;
    const stake = tokensFromSharesTruncated(validator, decFromWire(delegation.shares) ?? 0n);
    StartingInfos.set(ctx, [valAddr, delAddr], create(DelegatorStartingInfoSchema, { previousPeriod, stake: decToWire(stake), height: BigInt(ctx.blockHeight) }));
  }

  private rewardsBetween(start: DecCoins, end: DecCoins, stake: Dec): DecCoin[] {
    if (stake < 0n) throw new Error('stake should not be negative');
    return decCoinsMulDecTruncate(decCoinsSub(end, start), stake);
  }

  private ratioAt(ctx: Context, valAddr: Uint8Array, period: bigint): DecCoin[] {
    const historical = this.historical(ctx, valAddr, period);
    if (historical === undefined) throw new Error(`no historical rewards for period ${period}`);
    return decCoinsFromProto(historical.cumulativeRewardRatio);
  }

  /**
   * CalculateDelegationRewards up to a period whose cumulative ratio is `endingRatio` (stored, or
   * computed without writing for queries).
   */
  async calculateRewards(ctx: Context, validator: Validator, delAddr: Uint8Array, endingRatio: DecCoins): Promise<DecCoin[]> {
    const valAddr = operatorOf(validator);
    const info = this.startingInfo(ctx, valAddr, delAddr);
    if (info === undefined) throw DistributionErrors.EmptyDelegationDistInfo.error();
    if (info.height === BigInt(ctx.blockHeight)) return [];
    let startingPeriod = info.previousPeriod;
    let stake = decFromWire(info.stake) ?? 0n;
    let rewards: DecCoin[] = [];
    if (BigInt(ctx.blockHeight) > info.height) {
      for await (const [[, , period], event] of SlashEvents.iterate(ctx, { start: [valAddr, info.height, 0n], end: [valAddr, BigInt(ctx.blockHeight), 2n ** 64n - 1n], endInclusive: true })) {
        if (period > startingPeriod) {
          rewards = decCoinsAdd(rewards, this.rewardsBetween(this.ratioAt(ctx, valAddr, startingPeriod), this.ratioAt(ctx, valAddr, period), stake));
          stake = (stake * (DEC_ONE - (decFromWire(event.fraction) ?? 0n))) / DEC_ONE;
          startingPeriod = period;
        }
      }
    }
    const delegation = this.stakingKeeper.getDelegation(ctx, delAddr, valAddr);
    if (delegation !== undefined) {
      const currentStake = this.stakingKeeper.tokensFromShares(validator, decFromWire(delegation.shares) ?? 0n);
      if (stake > currentStake) {
        if (stake <= currentStake + 3n) stake = currentStake;
        else throw new Error(`calculated final stake for delegator ${accString(delAddr)} greater than current stake`);
      }
    }
    return decCoinsAdd(rewards, this.rewardsBetween(this.ratioAt(ctx, valAddr, startingPeriod), endingRatio, stake));
  }

  /** What a delegation would withdraw now (queries: nothing is written). */
  async pendingRewards(ctx: Context, validator: Validator, delAddr: Uint8Array): Promise<DecCoin[]> {
    const valAddr = operatorOf(validator);
    const current = this.current(ctx, valAddr);
    const endingRatio = decCoinsAdd(this.ratioAt(ctx, valAddr, current.period - 1n), this.currentRatio(ctx, validator, current.rewards));
    return this.calculateRewards(ctx, validator, delAddr, endingRatio);
  }

  /** withdrawDelegationRewards: pays the truncated reward, the change goes to the community pool. */
  async withdrawDelegationRewards(ctx: Context, validator: Validator, delAddr: Uint8Array): Promise<Coin[]> {
    const valAddr = operatorOf(validator);
    const info = this.startingInfo(ctx, valAddr, delAddr);
    if (info === undefined) throw DistributionErrors.EmptyDelegationDistInfo.error();
    const endingPeriod = this.incrementValidatorPeriod(ctx, validator);
    const raw = await this.calculateRewards(ctx, validator, delAddr, this.ratioAt(ctx, valAddr, endingPeriod));
    const outstanding = this.outstanding(ctx, valAddr);
    const rewards = decCoinsIntersect(raw, outstanding);
    const { coins, change } = decCoinsTruncate(rewards);
    if (coins.length > 0) this.bankKeeper.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.withdrawAddress(ctx, delAddr), coins);
    this.setOutstanding(ctx, valAddr, decCoinsSub(outstanding, rewards));
    this.addToCommunityPool(ctx, change);
    this.decrementReferenceCount(ctx, valAddr, info.previousPeriod);
    StartingInfos.remove(ctx, [valAddr, delAddr]);
    const emitted = coins.length === 0 ? `0${this.stakingKeeper.bondDenom(ctx)}` : coinsToString(coins);
    ctx.events.emit(newEvent('withdraw_rewards', ['amount', emitted], ['validator', validator.operatorAddress]));
    return coins;
  }

  /** WithdrawDelegationRewards (MsgWithdrawDelegatorReward): withdraw, then start a new period. */
  async withdrawRewards(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<Coin[]> {
    const validator = this.stakingKeeper.getValidator(ctx, valAddr);
    if (validator === undefined) throw DistributionErrors.NoValidatorDistInfo.error();
    if (this.stakingKeeper.getDelegation(ctx, delAddr, valAddr) === undefined) throw DistributionErrors.EmptyDelegationDistInfo.error();
    const coins = await this.withdrawDelegationRewards(ctx, validator, delAddr);
    this.initializeDelegation(ctx, valAddr, delAddr);
    return coins;
  }

  /** WithdrawValidatorCommission. */
  withdrawCommission(ctx: Context, valAddr: Uint8Array): Coin[] {
    const accumulated = this.commission(ctx, valAddr);
    if (isZeroDecCoins(accumulated)) throw DistributionErrors.NoValidatorCommission.error();
    const { coins, change } = decCoinsTruncate(accumulated);
    this.setCommission(ctx, valAddr, change);
    this.setOutstanding(ctx, valAddr, decCoinsSub(this.outstanding(ctx, valAddr), decCoinsFromCoins(coins)));
    if (coins.length > 0) this.bankKeeper.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.withdrawAddress(ctx, valAddr), coins);
    ctx.events.emit(newEvent('withdraw_commission', ['amount', coins.length === 0 ? '' : coinsToString(coins)]));
    return coins;
  }

  // ------------------------------------------------------------------ staking hooks

  /** updateValidatorSlashFraction: close the period and record the slash. */
  updateValidatorSlashFraction(ctx: Context, valAddr: Uint8Array, fraction: Dec): void {
    if (fraction > DEC_ONE || fraction < 0n) throw new Error(`fraction must be >=0 and <=1, current fraction: ${fraction}`);
    const validator = this.stakingKeeper.getValidator(ctx, valAddr)!;
    const newPeriod = this.incrementValidatorPeriod(ctx, validator);
    this.incrementReferenceCount(ctx, valAddr, newPeriod);
    const height = BigInt(ctx.blockHeight);
    SlashEvents.set(ctx, [valAddr, height, newPeriod], create(ValidatorSlashEventSchema, { validatorPeriod: newPeriod, fraction: decToWire(fraction) }));
  }

  /** AfterValidatorRemoved: pay out the commission, sweep the rest into the community pool, drop its records. */
  async afterValidatorRemoved(ctx: Context, valAddr: Uint8Array): Promise<void> {
    let outstanding = this.outstanding(ctx, valAddr);
    const commission = this.commission(ctx, valAddr);
    if (!isZeroDecCoins(commission)) {
      outstanding = decCoinsSub(outstanding, commission);
      const { coins, change } = decCoinsTruncate(commission);
      this.addToCommunityPool(ctx, change);
      if (coins.length > 0) this.bankKeeper.sendCoinsFromModuleToAccount(ctx, MODULE_NAME, this.withdrawAddress(ctx, valAddr), coins);
    }
    this.addToCommunityPool(ctx, outstanding);
    OutstandingRewards.remove(ctx, valAddr);
    AccumulatedCommission.remove(ctx, valAddr);
    const slashKeys = [];
    for await (const key of SlashEvents.keys(ctx, { prefix: [valAddr] })) slashKeys.push(key);
    for (const key of slashKeys) SlashEvents.remove(ctx, key);
    const periods = [];
    for await (const key of HistoricalRewards.keys(ctx, { prefix: [valAddr] })) periods.push(key);
    for (const key of periods) HistoricalRewards.remove(ctx, key);
    CurrentRewards.remove(ctx, valAddr);
  }

  // ------------------------------------------------------------------ invariants

  /**
   * ModuleAccountInvariant and NonNegativeOutstanding: the module account holds exactly the
   * outstanding rewards plus the community pool (truncated), and nothing owed is negative.
   */
  async invariants(ctx: Context): Promise<string[]> {
    const problems: string[] = [];
    let expected: DecCoin[] = this.communityPool(ctx);
    for await (const [valAddr, record] of OutstandingRewards.iterate(ctx)) {
      const rewards = decCoinsFromProto(record.rewards);
      if (rewards.some((coin) => coin.amount < 0n)) problems.push(`negative outstanding rewards of ${valString(valAddr)}`);
      expected = decCoinsAdd(expected, rewards);
    }
    const { coins } = decCoinsTruncate(expected);
    const address = this.accountKeeper.getModuleAddress(MODULE_NAME);
    const balance = address === undefined ? [] : await this.bankKeeper.getAllBalances(ctx, address);
    if (coinsToString(balance) !== coinsToString(coins)) problems.push(`distribution module account holds ${coinsToString(balance) || 'nothing'}, outstanding rewards and community pool are ${coinsToString(coins) || 'nothing'}`);
    return problems;
  }
}
