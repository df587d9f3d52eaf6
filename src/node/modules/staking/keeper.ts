/**
 * The staking keeper (x/staking/keeper, SDK 0.46 semantics over 0.50 store layouts): validators
 * and their indexes, delegations, unbonding delegations and redelegations with their queues, the
 * bonded/not-bonded pools, the end-block validator-set update, jailing and slashing (for the
 * slashing and evidence modules), historical info, and the StakingHooks fan-out distribution and
 * slashing observe.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BondStatus,
  DVPairSchema,
  DVPairsSchema,
  DVVTripletSchema,
  DVVTripletsSchema,
  DelegationSchema,
  RedelegationEntrySchema,
  RedelegationSchema,
  UnbondingDelegationEntrySchema,
  UnbondingDelegationSchema,
  ValAddressesSchema,
  ValidatorSchema,
  type Delegation,
  type HistoricalInfo,
  type Redelegation,
  type UnbondingDelegation,
  type Validator,
} from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { HeaderSchema } from '../../../gen/tendermint/types/types_pb.js';
import type { ValidatorUpdate } from '../../abci/types.js';
import { accString, parseAccAddress, parseValAddress, valString } from '../shared/address.js';
import { coinsEqual, coinsToString, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, decFromInt, decFromWire, decMulInt, decQuo, decQuoInt, decToWire, decTruncate, decMul, type Dec } from '../shared/dec.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { compareBytes } from '../shared/keys.js';
import { ProtoWriter } from '../shared/proto.js';
import { DelegationCursor } from './delegationCursor.js';
import { StakingErrors } from './errors.js';
import type { StakingAccountKeeper, StakingBankKeeper } from './expectedKeepers.js';
import { NO_STAKING_HOOKS, type StakingHooks } from './hooks.js';
import {
  AcceptAllValidators,
  BONDED_POOL_NAME,
  NOT_BONDED_POOL_NAME,
  Delegations,
  HistoricalInfoByHeight,
  LastTotalPower,
  LastValidatorPower,
  Params,
  RedelegationQueue,
  Redelegations,
  RedelegationsByDst,
  RedelegationsBySrc,
  UnbondingDelegations,
  UnbondingDelegationsByValidator,
  UnbondingQueue,
  ValidatorQueue,
  Validators,
  ValidatorsByConsAddr,
  ValidatorsByPower,
  stakingStoreKey,
} from './keys.js';
import { POWER_REDUCTION, defaultStakingParams, unbondingTimeMs, type StakingParams } from './params.js';
import {
  abciValidatorUpdate,
  addTokensFromDelegation,
  consensusPower,
  operatorAddress,
  potentialConsensusPower,
  tokensFromShares,
  validatorConsAddress,
  validatorShares,
  validatorTokens,
  withStatus,
} from './validator.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const intOf = (text: string): bigint => (text === '' ? 0n : BigInt(text));

function addrOf(text: string, kind: 'acc' | 'val'): Uint8Array {
  const parsed = kind === 'acc' ? parseAccAddress(text) : parseValAddress(text);
  if (!parsed.ok) throw new Error(`invalid address ${text}: ${parsed.error}`);
  return parsed.bytes;
}

/** SharesFromTokens: shares worth `amount` tokens at the validator's exchange rate. */
export function sharesFromTokens(validator: Validator, amount: bigint): Dec {
  const tokens = validatorTokens(validator);
  if (tokens === 0n) throw StakingErrors.InsufficientShares.error();
  return decQuoInt(decMulInt(validatorShares(validator), amount), tokens);
}

/** SharesFromTokensTruncated. */
export function sharesFromTokensTruncated(validator: Validator, amount: bigint): Dec {
  const tokens = validatorTokens(validator);
  if (tokens === 0n) throw StakingErrors.InsufficientShares.error();
  return (decMulInt(validatorShares(validator), amount) * DEC_ONE) / decFromInt(tokens);
}

export class StakingKeeper {
  private hooksOf: () => StakingHooks = () => NO_STAKING_HOOKS;

  constructor(
    readonly accountKeeper: StakingAccountKeeper,
    readonly bankKeeper: StakingBankKeeper,
  ) {}

  /** Wires the hooks fan-out (the module does, at creation; observers register later). */
  setHooks(hooks: () => StakingHooks): void {
    this.hooksOf = hooks;
  }

  get hooks(): StakingHooks {
    return this.hooksOf();
  }

  // ------------------------------------------------------------------ params

  getParams(ctx: Context): StakingParams {
    return Params.get(ctx) ?? defaultStakingParams();
  }

  setParams(ctx: Context, params: StakingParams): void {
    Params.set(ctx, params);
  }

  bondDenom(ctx: Context): string {
    return this.getParams(ctx).bondDenom;
  }

  /** The network's accept_all_validators (true when never set: the SDK's behaviour). */
  acceptAllValidators(ctx: Context): boolean {
    return AcceptAllValidators.get(ctx) ?? true;
  }

  setAcceptAllValidators(ctx: Context, accept: boolean): void {
    AcceptAllValidators.set(ctx, accept);
  }

  // ------------------------------------------------------------------ validators

  getValidator(ctx: Context, valAddr: Uint8Array): Validator | undefined {
    return Validators.get(ctx, valAddr);
  }

  setValidator(ctx: Context, validator: Validator): void {
    Validators.set(ctx, operatorAddress(validator), validator);
  }

  /** The validator's consensus address (CometBFT address of its consensus key). */
  consAddress(validator: Validator): Uint8Array {
    return validatorConsAddress(validator);
  }

  getValidatorByConsAddr(ctx: Context, consAddr: Uint8Array): Validator | undefined {
    const valAddr = ValidatorsByConsAddr.get(ctx, consAddr);
    return valAddr === undefined ? undefined : this.getValidator(ctx, valAddr);
  }

  setValidatorByConsAddr(ctx: Context, validator: Validator): void {
    ValidatorsByConsAddr.set(ctx, validatorConsAddress(validator), operatorAddress(validator));
  }

  /** Jailed validators are kept out of the power index (as in the SDK). */
  setValidatorByPowerIndex(ctx: Context, validator: Validator): void {
    if (validator.jailed) return;
    const address = operatorAddress(validator);
    ValidatorsByPower.set(ctx, [potentialConsensusPower(validator), address], address);
  }

  deleteValidatorByPowerIndex(ctx: Context, validator: Validator): void {
    ValidatorsByPower.remove(ctx, [potentialConsensusPower(validator), operatorAddress(validator)]);
  }

  async getAllValidators(ctx: Context): Promise<Validator[]> {
    const validators: Validator[] = [];
    for await (const validator of Validators.values(ctx)) validators.push(validator);
    return validators;
  }

  /** AddValidatorTokensAndShares: re-index by power around the token change. */
  addValidatorTokensAndShares(ctx: Context, validator: Validator, amount: bigint): { validator: Validator; issuedShares: Dec } {
    this.deleteValidatorByPowerIndex(ctx, validator);
    const result = addTokensFromDelegation(validator, amount);
    this.setValidator(ctx, result.validator);
    this.setValidatorByPowerIndex(ctx, result.validator);
    return result;
  }

  /** RemoveValidatorTokensAndShares: the tokens the shares were worth leave the validator. */
  removeValidatorTokensAndShares(ctx: Context, validator: Validator, shares: Dec): { validator: Validator; amount: bigint } {
    this.deleteValidatorByPowerIndex(ctx, validator);
    const remaining = validatorShares(validator) - shares;
    const tokens = validatorTokens(validator);
    // The last shares take every remaining token (no dust left behind).
    const amount = remaining === 0n ? tokens : decTruncate(decQuo(decMulInt(shares, tokens), validatorShares(validator)));
    const updated = create(ValidatorSchema, { ...validator, tokens: (tokens - amount).toString(), delegatorShares: decToWire(remaining) });
    this.setValidator(ctx, updated);
    this.setValidatorByPowerIndex(ctx, updated);
    return { validator: updated, amount };
  }

  /** RemoveValidatorTokens (slashing): tokens leave, shares stay. */
  removeValidatorTokens(ctx: Context, validator: Validator, amount: bigint): Validator {
    this.deleteValidatorByPowerIndex(ctx, validator);
    const updated = create(ValidatorSchema, { ...validator, tokens: (validatorTokens(validator) - amount).toString() });
    this.setValidator(ctx, updated);
    this.setValidatorByPowerIndex(ctx, updated);
    return updated;
  }

  /** RemoveValidator: only an unbonded validator without tokens. */
  async removeValidator(ctx: Context, valAddr: Uint8Array): Promise<void> {
    const validator = this.getValidator(ctx, valAddr);
    if (validator === undefined) return;
    if (validator.status !== BondStatus.UNBONDED) throw new Error('cannot call RemoveValidator on bonded or unbonding validators');
    if (validatorTokens(validator) > 0n) throw new Error('attempting to remove a validator which still contains tokens');
    const consAddr = validatorConsAddress(validator);
    Validators.remove(ctx, valAddr);
    ValidatorsByConsAddr.remove(ctx, consAddr);
    this.deleteValidatorByPowerIndex(ctx, validator);
    await this.hooks.afterValidatorRemoved(ctx, consAddr, valAddr);
  }

  // ------------------------------------------------------------------ delegations

  getDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Delegation | undefined {
    return Delegations.get(ctx, [delAddr, valAddr]);
  }

  /** Stores the delegation; the collection keeps the by-validator index. */
  setDelegation(ctx: Context, delegation: Delegation, delAddr: Uint8Array, valAddr: Uint8Array): void {
    Delegations.set(ctx, [delAddr, valAddr], delegation);
  }

  async removeDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Promise<void> {
    await this.hooks.beforeDelegationRemoved(ctx, delAddr, valAddr);
    Delegations.remove(ctx, [delAddr, valAddr]);
  }

  async getAllDelegations(ctx: Context): Promise<Delegation[]> {
    const delegations: Delegation[] = [];
    for await (const delegation of Delegations.values(ctx)) delegations.push(delegation);
    return delegations;
  }

  /**
   * Every delegation, in delegator order, to a synchronous callback (returning false stops): one
   * pass over the store with no await per delegation. The callback gets one `DelegationCursor`,
   * moved to each delegation in turn: the addresses as offsets into the store key, the shares
   * parsed only when asked for — gov's tally of many voters reads the shares of voters alone.
   */
  scanDelegations(ctx: Context, visit: (delegation: DelegationCursor) => boolean | void): Promise<void> {
    const base = Delegations.map.rangePrefix().length;
    const cursor = new DelegationCursor();
    return Delegations.map.scanEntries(ctx, undefined, (key, keyAt, value, valueAt) => {
      cursor.moveTo(key, keyAt + base, value, valueAt);
      return visit(cursor);
    });
  }

  async getDelegatorDelegations(ctx: Context, delAddr: Uint8Array): Promise<Delegation[]> {
    const delegations: Delegation[] = [];
    for await (const delegation of Delegations.values(ctx, { prefix: [delAddr] })) delegations.push(delegation);
    return delegations;
  }

  /**
   * Delegate (x/staking keeper.Delegate): `amount` tokens join the validator. From the
   * delegator's account when `subtractAccount`, else they already sit in the pool of
   * `tokenSrc` (redelegation, cancelled unbonding) and move between pools if the status differs.
   */
  async delegate(ctx: Context, delAddr: Uint8Array, amount: bigint, tokenSrc: BondStatus, validator: Validator, subtractAccount = true): Promise<Dec> {
    if (validatorTokens(validator) > 0n && validatorShares(validator) === 0n) throw StakingErrors.DelegatorShareExRateInvalid.error();
    const valAddr = operatorAddress(validator);
    const existing = this.getDelegation(ctx, delAddr, valAddr);
    if (existing === undefined) await this.hooks.beforeDelegationCreated(ctx, delAddr, valAddr);
    else await this.hooks.beforeDelegationSharesModified(ctx, delAddr, valAddr);
    // Hooks may have touched the validator (distribution reads it); re-read.
    validator = this.getValidator(ctx, valAddr) ?? validator;
    const denom = this.bondDenom(ctx);
    const destinationBonded = validator.status === BondStatus.BONDED;
    if (subtractAccount) {
      if (tokenSrc === BondStatus.BONDED) throw new Error('delegation token source cannot be bonded');
      this.bankKeeper.delegateCoinsFromAccountToModule(ctx, delAddr, destinationBonded ? BONDED_POOL_NAME : NOT_BONDED_POOL_NAME, [{ denom, amount }]);
    } else {
      const sourceBonded = tokenSrc === BondStatus.BONDED;
      if (sourceBonded && !destinationBonded) this.bankKeeper.sendCoinsFromModuleToModule(ctx, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, [{ denom, amount }]);
      else if (!sourceBonded && destinationBonded) this.bankKeeper.sendCoinsFromModuleToModule(ctx, NOT_BONDED_POOL_NAME, BONDED_POOL_NAME, [{ denom, amount }]);
    }
    const { issuedShares } = this.addValidatorTokensAndShares(ctx, validator, amount);
    const current = this.getDelegation(ctx, delAddr, valAddr);
    const shares = (current === undefined ? 0n : (decFromWire(current.shares) ?? 0n)) + issuedShares;
    this.setDelegation(ctx, create(DelegationSchema, { delegatorAddress: accString(delAddr), validatorAddress: validator.operatorAddress, shares: decToWire(shares) }), delAddr, valAddr);
    await this.hooks.afterDelegationModified(ctx, delAddr, valAddr);
    return issuedShares;
  }

  /**
   * Unbond: removes `shares` from the delegation and the tokens they are worth from the
   * validator (jailing an operator whose self-delegation falls under its minimum); returns the
   * token amount. The tokens stay in the validator's pool.
   */
  async unbond(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, shares: Dec): Promise<bigint> {
    const delegation = this.getDelegation(ctx, delAddr, valAddr);
    if (delegation === undefined) throw StakingErrors.NoDelegatorForAddress.error();
    await this.hooks.beforeDelegationSharesModified(ctx, delAddr, valAddr);
    const delegationShares = decFromWire(delegation.shares) ?? 0n;
    if (delegationShares < shares) throw StakingErrors.NotEnoughDelegationShares.wrap(delegation.shares);
    let validator = this.getValidator(ctx, valAddr);
    if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
    const remainingShares = delegationShares - shares;
    const isSelf = compareBytes(delAddr, valAddr) === 0;
    if (isSelf && !validator.jailed && decTruncate(this.tokensFromShares(validator, remainingShares)) < intOf(validator.minSelfDelegation)) {
      this.jailValidator(ctx, validator);
      validator = this.getValidator(ctx, valAddr)!;
    }
    if (remainingShares === 0n) await this.removeDelegation(ctx, delAddr, valAddr);
    else {
      this.setDelegation(ctx, create(DelegationSchema, { ...delegation, shares: decToWire(remainingShares) }), delAddr, valAddr);
      await this.hooks.afterDelegationModified(ctx, delAddr, valAddr);
    }
    const removed = this.removeValidatorTokensAndShares(ctx, validator, shares);
    if (validatorShares(removed.validator) === 0n && removed.validator.status === BondStatus.UNBONDED) await this.removeValidator(ctx, valAddr);
    return removed.amount;
  }

  /** The tokens `shares` of the validator are worth (for the modules that hold a keeper). */
  tokensFromShares(validator: Validator, shares: Dec): Dec {
    return tokensFromShares(validator, shares);
  }

  /** ValidateUnbondAmount: the shares `amount` tokens of a delegation are worth. */
  validateUnbondAmount(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, amount: bigint): Dec {
    const validator = this.getValidator(ctx, valAddr);
    if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
    const delegation = this.getDelegation(ctx, delAddr, valAddr);
    if (delegation === undefined) throw StakingErrors.NoDelegation.error();
    let shares = sharesFromTokens(validator, amount);
    const truncated = sharesFromTokensTruncated(validator, amount);
    const delegationShares = decFromWire(delegation.shares) ?? 0n;
    if (truncated > delegationShares) throw SdkErrors.InvalidRequest.wrap('invalid shares amount');
    if (shares > delegationShares) shares = delegationShares;
    return shares;
  }

  // ------------------------------------------------------------------ unbonding delegations

  getUnbondingDelegation(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): UnbondingDelegation | undefined {
    return UnbondingDelegations.get(ctx, [delAddr, valAddr]);
  }

  setUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation): void {
    UnbondingDelegations.set(ctx, [addrOf(ubd.delegatorAddress, 'acc'), addrOf(ubd.validatorAddress, 'val')], ubd);
  }

  removeUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation): void {
    UnbondingDelegations.remove(ctx, [addrOf(ubd.delegatorAddress, 'acc'), addrOf(ubd.validatorAddress, 'val')]);
  }

  async getUnbondingDelegationsFromValidator(ctx: Context, valAddr: Uint8Array): Promise<UnbondingDelegation[]> {
    const result: UnbondingDelegation[] = [];
    for await (const delAddr of UnbondingDelegationsByValidator.matchExact(ctx, valAddr)) {
      const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr);
      if (ubd !== undefined) result.push(ubd);
    }
    return result;
  }

  async getAllUnbondingDelegations(ctx: Context): Promise<UnbondingDelegation[]> {
    const result: UnbondingDelegation[] = [];
    for await (const ubd of UnbondingDelegations.values(ctx)) result.push(ubd);
    return result;
  }

  hasMaxUnbondingDelegationEntries(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): boolean {
    const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr);
    return ubd !== undefined && ubd.entries.length >= this.getParams(ctx).maxEntries;
  }

  setUnbondingDelegationEntry(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, creationHeight: bigint, completionMs: number, balance: bigint): UnbondingDelegation {
    const existing = this.getUnbondingDelegation(ctx, delAddr, valAddr);
    const entry = create(UnbondingDelegationEntrySchema, { creationHeight, completionTime: timestampFromMs(completionMs), initialBalance: balance.toString(), balance: balance.toString() });
    const ubd =
      existing === undefined
        ? create(UnbondingDelegationSchema, { delegatorAddress: accString(delAddr), validatorAddress: valString(valAddr), entries: [entry] })
        : create(UnbondingDelegationSchema, { ...existing, entries: [...existing.entries, entry] });
    this.setUnbondingDelegation(ctx, ubd);
    return ubd;
  }

  insertUbdQueue(ctx: Context, ubd: UnbondingDelegation, completionMs: number): void {
    const pair = create(DVPairSchema, { delegatorAddress: ubd.delegatorAddress, validatorAddress: ubd.validatorAddress });
    const existing = UnbondingQueue.get(ctx, completionMs);
    UnbondingQueue.set(ctx, completionMs, create(DVPairsSchema, { pairs: [...(existing?.pairs ?? []), pair] }));
  }

  /** Undelegate: unbond now, pay out after the unbonding time. Returns the completion time and amount. */
  async undelegate(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array, shares: Dec): Promise<{ completionMs: number; amount: bigint }> {
    const validator = this.getValidator(ctx, valAddr);
    if (validator === undefined) throw StakingErrors.NoDelegatorForAddress.error();
    if (this.hasMaxUnbondingDelegationEntries(ctx, delAddr, valAddr)) throw StakingErrors.MaxUnbondingDelegationEntries.error();
    const amount = await this.unbond(ctx, delAddr, valAddr, shares);
    if (validator.status === BondStatus.BONDED && amount > 0n) {
      this.bankKeeper.sendCoinsFromModuleToModule(ctx, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, [{ denom: this.bondDenom(ctx), amount }]);
    }
    const completionMs = ctx.blockTime.getTime() + unbondingTimeMs(this.getParams(ctx));
    const ubd = this.setUnbondingDelegationEntry(ctx, delAddr, valAddr, BigInt(ctx.blockHeight), completionMs, amount);
    this.insertUbdQueue(ctx, ubd, completionMs);
    return { completionMs, amount };
  }

  /** CompleteUnbonding: pays out the mature entries; returns what was paid. */
  completeUnbonding(ctx: Context, delAddr: Uint8Array, valAddr: Uint8Array): Coin[] {
    const ubd = this.getUnbondingDelegation(ctx, delAddr, valAddr);
    if (ubd === undefined) throw StakingErrors.NoUnbondingDelegation.error();
    const denom = this.bondDenom(ctx);
    const now = ctx.blockTime.getTime();
    let paid = 0n;
    const kept = [];
    for (const entry of ubd.entries) {
      if (entry.completionTime !== undefined && timestampDate(entry.completionTime).getTime() <= now) {
        const balance = intOf(entry.balance);
        if (balance > 0n) {
          this.bankKeeper.undelegateCoinsFromModuleToAccount(ctx, NOT_BONDED_POOL_NAME, delAddr, [{ denom, amount: balance }]);
          paid += balance;
        }
      } else kept.push(entry);
    }
    if (kept.length === 0) this.removeUnbondingDelegation(ctx, ubd);
    else this.setUnbondingDelegation(ctx, create(UnbondingDelegationSchema, { ...ubd, entries: kept }));
    return paid === 0n ? [] : [{ denom, amount: paid }];
  }

  // ------------------------------------------------------------------ redelegations

  getRedelegation(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array): Redelegation | undefined {
    return Redelegations.get(ctx, [delAddr, src, dst]);
  }

  setRedelegation(ctx: Context, red: Redelegation): void {
    const del = addrOf(red.delegatorAddress, 'acc');
    const src = addrOf(red.validatorSrcAddress, 'val');
    const dst = addrOf(red.validatorDstAddress, 'val');
    Redelegations.set(ctx, [del, src, dst], red);
    RedelegationsBySrc.set(ctx, [src, del, dst]);
    RedelegationsByDst.set(ctx, [dst, del, src]);
  }

  removeRedelegation(ctx: Context, red: Redelegation): void {
    const del = addrOf(red.delegatorAddress, 'acc');
    const src = addrOf(red.validatorSrcAddress, 'val');
    const dst = addrOf(red.validatorDstAddress, 'val');
    Redelegations.remove(ctx, [del, src, dst]);
    RedelegationsBySrc.remove(ctx, [src, del, dst]);
    RedelegationsByDst.remove(ctx, [dst, del, src]);
  }

  async getRedelegationsFromSrcValidator(ctx: Context, src: Uint8Array): Promise<Redelegation[]> {
    const result: Redelegation[] = [];
    for await (const [, del, dst] of RedelegationsBySrc.keys(ctx, { prefix: [src] })) {
      const red = this.getRedelegation(ctx, del, src, dst);
      if (red !== undefined) result.push(red);
    }
    return result;
  }

  async getAllRedelegations(ctx: Context): Promise<Redelegation[]> {
    const result: Redelegation[] = [];
    for await (const red of Redelegations.values(ctx)) result.push(red);
    return result;
  }

  /** HasReceivingRedelegation: a redelegation from any validator to `dst` is in progress. */
  async hasReceivingRedelegation(ctx: Context, delAddr: Uint8Array, dst: Uint8Array): Promise<boolean> {
    for await (const _key of RedelegationsByDst.keys(ctx, { prefix: [dst, delAddr] })) return true;
    return false;
  }

  hasMaxRedelegationEntries(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array): boolean {
    const red = this.getRedelegation(ctx, delAddr, src, dst);
    return red !== undefined && red.entries.length >= this.getParams(ctx).maxEntries;
  }

  /** getBeginInfo: when a redelegation from this validator completes (now if unbonded). */
  private beginInfo(ctx: Context, src: Uint8Array): { completionMs: number; height: bigint; completeNow: boolean } {
    const validator = this.getValidator(ctx, src);
    if (validator === undefined || validator.status === BondStatus.BONDED) {
      return { completionMs: ctx.blockTime.getTime() + unbondingTimeMs(this.getParams(ctx)), height: BigInt(ctx.blockHeight), completeNow: false };
    }
    if (validator.status === BondStatus.UNBONDED) return { completionMs: ctx.blockTime.getTime(), height: 0n, completeNow: true };
    return { completionMs: validator.unbondingTime === undefined ? 0 : timestampDate(validator.unbondingTime).getTime(), height: validator.unbondingHeight, completeNow: false };
  }

  /** BeginRedelegation: returns the completion time. */
  async beginRedelegation(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array, shares: Dec): Promise<number> {
    if (compareBytes(src, dst) === 0) throw StakingErrors.SelfRedelegation.error();
    const dstValidator = this.getValidator(ctx, dst);
    if (dstValidator === undefined) throw StakingErrors.BadRedelegationDst.error();
    const srcValidator = this.getValidator(ctx, src);
    if (srcValidator === undefined) throw StakingErrors.BadRedelegationSrc.error();
    if (await this.hasReceivingRedelegation(ctx, delAddr, src)) throw StakingErrors.TransitiveRedelegation.error();
    if (this.hasMaxRedelegationEntries(ctx, delAddr, src, dst)) throw StakingErrors.MaxRedelegationEntries.error();
    const returnAmount = await this.unbond(ctx, delAddr, src, shares);
    if (returnAmount === 0n) throw StakingErrors.TinyRedelegationAmount.error();
    const sharesCreated = await this.delegate(ctx, delAddr, returnAmount, srcValidator.status, this.getValidator(ctx, dst)!, false);
    const info = this.beginInfo(ctx, src);
    if (info.completeNow) return info.completionMs;
    const entry = create(RedelegationEntrySchema, {
      creationHeight: info.height,
      completionTime: timestampFromMs(info.completionMs),
      initialBalance: returnAmount.toString(),
      sharesDst: decToWire(sharesCreated),
    });
    const existing = this.getRedelegation(ctx, delAddr, src, dst);
    const red =
      existing === undefined
        ? create(RedelegationSchema, { delegatorAddress: accString(delAddr), validatorSrcAddress: valString(src), validatorDstAddress: valString(dst), entries: [entry] })
        : create(RedelegationSchema, { ...existing, entries: [...existing.entries, entry] });
    this.setRedelegation(ctx, red);
    this.insertRedelegationQueue(ctx, red, info.completionMs);
    return info.completionMs;
  }

  insertRedelegationQueue(ctx: Context, red: Redelegation, completionMs: number): void {
    const triplet = create(DVVTripletSchema, { delegatorAddress: red.delegatorAddress, validatorSrcAddress: red.validatorSrcAddress, validatorDstAddress: red.validatorDstAddress });
    const existing = RedelegationQueue.get(ctx, completionMs);
    RedelegationQueue.set(ctx, completionMs, create(DVVTripletsSchema, { triplets: [...(existing?.triplets ?? []), triplet] }));
  }

  /** CompleteRedelegation: drops the mature entries; returns their initial balances. */
  completeRedelegation(ctx: Context, delAddr: Uint8Array, src: Uint8Array, dst: Uint8Array): bigint {
    const red = this.getRedelegation(ctx, delAddr, src, dst);
    if (red === undefined) throw StakingErrors.NoRedelegation.error();
    const now = ctx.blockTime.getTime();
    let balance = 0n;
    const kept = [];
    for (const entry of red.entries) {
      if (entry.completionTime !== undefined && timestampDate(entry.completionTime).getTime() <= now) balance += intOf(entry.initialBalance);
      else kept.push(entry);
    }
    if (kept.length === 0) this.removeRedelegation(ctx, red);
    else this.setRedelegation(ctx, create(RedelegationSchema, { ...red, entries: kept }));
    return balance;
  }

  /** Dequeues and completes every unbonding and redelegation whose time has come (EndBlock). */
  async completeMatureQueues(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    const denom = this.bondDenom(ctx);
    const ubdTimes: number[] = [];
    const pairs = [];
    for await (const [time, value] of UnbondingQueue.iterate(ctx, { end: now, endInclusive: true })) {
      ubdTimes.push(time);
      pairs.push(...value.pairs);
    }
    for (const time of ubdTimes) UnbondingQueue.remove(ctx, time);
    for (const pair of pairs) {
      const delAddr = addrOf(pair.delegatorAddress, 'acc');
      const valAddr = addrOf(pair.validatorAddress, 'val');
      if (this.getUnbondingDelegation(ctx, delAddr, valAddr) === undefined) continue;
      const paid = this.completeUnbonding(ctx, delAddr, valAddr);
      ctx.events.emit(
        newEvent('complete_unbonding', ['amount', paid.length === 0 ? '' : coinsToString(paid)], ['validator', pair.validatorAddress], ['delegator', pair.delegatorAddress]),
      );
    }
    const redTimes: number[] = [];
    const triplets = [];
    for await (const [time, value] of RedelegationQueue.iterate(ctx, { end: now, endInclusive: true })) {
      redTimes.push(time);
      triplets.push(...value.triplets);
    }
    for (const time of redTimes) RedelegationQueue.remove(ctx, time);
    for (const triplet of triplets) {
      const delAddr = addrOf(triplet.delegatorAddress, 'acc');
      const src = addrOf(triplet.validatorSrcAddress, 'val');
      const dst = addrOf(triplet.validatorDstAddress, 'val');
      if (this.getRedelegation(ctx, delAddr, src, dst) === undefined) continue;
      const balance = this.completeRedelegation(ctx, delAddr, src, dst);
      ctx.events.emit(
        newEvent(
          'complete_redelegation',
          ['amount', balance === 0n ? '' : `${balance}${denom}`],
          ['delegator', triplet.delegatorAddress],
          ['source_validator', triplet.validatorSrcAddress],
          ['destination_validator', triplet.validatorDstAddress],
        ),
      );
    }
  }

  // ------------------------------------------------------------------ jailing and slashing

  /** jailValidator: out of the power index; the end blocker removes it from the set. */
  jailValidator(ctx: Context, validator: Validator): void {
    if (validator.jailed) throw new Error(`cannot jail already jailed validator, validator: ${validator.operatorAddress}`);
    this.deleteValidatorByPowerIndex(ctx, validator);
    const jailed = create(ValidatorSchema, { ...validator, jailed: true });
    this.setValidator(ctx, jailed);
  }

  unjailValidator(ctx: Context, validator: Validator): void {
    if (!validator.jailed) throw new Error(`cannot unjail already unjailed validator, validator: ${validator.operatorAddress}`);
    const unjailed = create(ValidatorSchema, { ...validator, jailed: false });
    this.setValidator(ctx, unjailed);
    this.setValidatorByPowerIndex(ctx, unjailed);
  }

  /** Jail by consensus address (slashing, evidence). */
  jail(ctx: Context, consAddr: Uint8Array): void {
    const validator = this.getValidatorByConsAddr(ctx, consAddr);
    if (validator === undefined) throw new Error(`validator with consensus-Address ${hex(consAddr)} not found`);
    this.jailValidator(ctx, validator);
  }

  unjail(ctx: Context, consAddr: Uint8Array): void {
    const validator = this.getValidatorByConsAddr(ctx, consAddr);
    if (validator === undefined) throw new Error(`validator with consensus-Address ${hex(consAddr)} not found`);
    this.unjailValidator(ctx, validator);
  }

  /**
   * Slash (x/staking keeper/slash.go): burns `fraction` of the stake the validator had at
   * `infractionHeight` (power × 10^18), first from unbonding delegations and redelegations
   * that began at or after it, then from the validator's tokens. Returns the amount burned.
   */
  async slash(ctx: Context, consAddr: Uint8Array, infractionHeight: number, power: bigint, fraction: Dec): Promise<bigint> {
    if (fraction < 0n) throw new Error(`attempted to slash with a negative slash factor: ${fraction}`);
    const slashAmount = decTruncate(decMulInt(fraction, power * POWER_REDUCTION));
    let validator = this.getValidatorByConsAddr(ctx, consAddr);
    if (validator === undefined) return 0n; // already unbonded and removed: nothing to slash
    if (validator.status === BondStatus.UNBONDED) throw new Error('should not be slashing unbonded validator');
    if (infractionHeight > ctx.blockHeight) throw new Error(`impossible attempt to slash future infraction at height ${infractionHeight} but we are at height ${ctx.blockHeight}`);
    const valAddr = operatorAddress(validator);
    await this.hooks.beforeValidatorSlashed(ctx, valAddr, fraction);
    let remaining = slashAmount;
    if (infractionHeight < ctx.blockHeight) {
      for (const ubd of await this.getUnbondingDelegationsFromValidator(ctx, valAddr)) {
        remaining -= this.slashUnbondingDelegation(ctx, ubd, infractionHeight, fraction);
      }
      for (const red of await this.getRedelegationsFromSrcValidator(ctx, valAddr)) {
        remaining -= await this.slashRedelegation(ctx, red, infractionHeight, fraction);
      }
    }
    validator = this.getValidator(ctx, valAddr)!;
    const tokens = validatorTokens(validator);
    const toBurn = remaining < 0n ? 0n : remaining > tokens ? tokens : remaining;
    if (toBurn > 0n) {
      const before = validator.status;
      validator = this.removeValidatorTokens(ctx, validator, toBurn);
      this.bankKeeper.burnCoins(ctx, before === BondStatus.BONDED ? BONDED_POOL_NAME : NOT_BONDED_POOL_NAME, [{ denom: this.bondDenom(ctx), amount: toBurn }]);
    }
    return toBurn;
  }

  private slashUnbondingDelegation(ctx: Context, ubd: UnbondingDelegation, infractionHeight: number, fraction: Dec): bigint {
    const now = ctx.blockTime.getTime();
    let total = 0n;
    let burned = 0n;
    const entries = ubd.entries.map((entry) => {
      if (Number(entry.creationHeight) < infractionHeight) return entry;
      if (entry.completionTime !== undefined && timestampDate(entry.completionTime).getTime() <= now) return entry;
      const amount = decTruncate(decMulInt(fraction, intOf(entry.initialBalance)));
      total += amount;
      const balance = intOf(entry.balance);
      const slashed = amount < balance ? amount : balance;
      burned += slashed;
      return create(UnbondingDelegationEntrySchema, { ...entry, balance: (balance - slashed).toString() });
    });
    if (burned > 0n) {
      this.setUnbondingDelegation(ctx, create(UnbondingDelegationSchema, { ...ubd, entries }));
      this.bankKeeper.burnCoins(ctx, NOT_BONDED_POOL_NAME, [{ denom: this.bondDenom(ctx), amount: burned }]);
    }
    return total;
  }

  private async slashRedelegation(ctx: Context, red: Redelegation, infractionHeight: number, fraction: Dec): Promise<bigint> {
    const now = ctx.blockTime.getTime();
    const delAddr = addrOf(red.delegatorAddress, 'acc');
    const dst = addrOf(red.validatorDstAddress, 'val');
    let total = 0n;
    let bondedBurned = 0n;
    let notBondedBurned = 0n;
    for (const entry of red.entries) {
      if (Number(entry.creationHeight) < infractionHeight) continue;
      if (entry.completionTime !== undefined && timestampDate(entry.completionTime).getTime() <= now) continue;
      total += decTruncate(decMulInt(fraction, intOf(entry.initialBalance)));
      let shares = decMul(fraction, decFromWire(entry.sharesDst) ?? 0n);
      if (shares === 0n) continue;
      const delegation = this.getDelegation(ctx, delAddr, dst);
      if (delegation === undefined) continue;
      const delegationShares = decFromWire(delegation.shares) ?? 0n;
      if (shares > delegationShares) shares = delegationShares;
      const dstValidator = this.getValidator(ctx, dst);
      const tokens = await this.unbond(ctx, delAddr, dst, shares);
      if (dstValidator?.status === BondStatus.BONDED) bondedBurned += tokens;
      else notBondedBurned += tokens;
    }
    const denom = this.bondDenom(ctx);
    if (bondedBurned > 0n) this.bankKeeper.burnCoins(ctx, BONDED_POOL_NAME, [{ denom, amount: bondedBurned }]);
    if (notBondedBurned > 0n) this.bankKeeper.burnCoins(ctx, NOT_BONDED_POOL_NAME, [{ denom, amount: notBondedBurned }]);
    return total;
  }

  // ------------------------------------------------------------------ last validator set

  getLastValidatorPower(ctx: Context, valAddr: Uint8Array): bigint | undefined {
    return LastValidatorPower.get(ctx, valAddr);
  }

  setLastValidatorPower(ctx: Context, valAddr: Uint8Array, power: bigint): void {
    LastValidatorPower.set(ctx, valAddr, power);
  }

  deleteLastValidatorPower(ctx: Context, valAddr: Uint8Array): void {
    LastValidatorPower.remove(ctx, valAddr);
  }

  /** (operator address, power) of the last bonded set, in address order. */
  async getLastValidatorPowers(ctx: Context): Promise<[Uint8Array, bigint][]> {
    const result: [Uint8Array, bigint][] = [];
    for await (const entry of LastValidatorPower.iterate(ctx)) result.push(entry);
    return result;
  }

  getLastTotalPower(ctx: Context): bigint {
    return LastTotalPower.get(ctx) ?? 0n;
  }

  setLastTotalPower(ctx: Context, power: bigint): void {
    LastTotalPower.set(ctx, power);
  }

  /** The bonded validators of the last set, sorted by power (desc) then address. */
  async getLastValidators(ctx: Context): Promise<Validator[]> {
    const maxValidators = this.getParams(ctx).maxValidators;
    const validators: Validator[] = [];
    for (const [address] of await this.getLastValidatorPowers(ctx)) {
      if (validators.length >= maxValidators) break;
      const validator = this.getValidator(ctx, address);
      if (validator !== undefined) validators.push(validator);
    }
    return validators;
  }

  /**
   * ApplyAndReturnValidatorSetUpdates: walk the power index from the highest power, bond the top
   * `max_validators` with non-zero power, report power changes, begin unbonding those that left
   * the set (jailed ones included), and move the tokens between the pools in one transfer.
   */
  async applyAndReturnValidatorSetUpdates(ctx: Context): Promise<ValidatorUpdate[]> {
    const params = this.getParams(ctx);
    const last = new Map<string, bigint>();
    for (const [address, power] of await this.getLastValidatorPowers(ctx)) last.set(hex(address), power);
    const updates: ValidatorUpdate[] = [];
    let totalPower = 0n;
    let notBondedToBonded = 0n;
    let bondedToNotBonded = 0n;
    let count = 0;

    const addresses: Uint8Array[] = [];
    for await (const address of ValidatorsByPower.values(ctx, { reverse: true })) {
      if (addresses.length >= params.maxValidators) break;
      addresses.push(address.slice());
    }
    for (const address of addresses) {
      if (count >= params.maxValidators) break;
      let validator = this.getValidator(ctx, address);
      if (validator === undefined) throw new Error(`validator ${valString(address)} is in the power index but not stored`);
      if (validator.jailed) throw new Error('should never retrieve a jailed validator from the power store');
      if (potentialConsensusPower(validator) === 0n) break;
      if (validator.status === BondStatus.UNBONDED || validator.status === BondStatus.UNBONDING) {
        validator = await this.bondValidator(ctx, validator);
        notBondedToBonded += validatorTokens(validator);
      }
      const key = hex(address);
      const newPower = consensusPower(validator);
      if (last.get(key) !== newPower) {
        updates.push(abciValidatorUpdate(validator, newPower));
        this.setLastValidatorPower(ctx, address, newPower);
      }
      last.delete(key);
      count++;
      totalPower += newPower;
    }

    const noLongerBonded = [...last.keys()].map((text) => Uint8Array.from(Buffer.from(text, 'hex'))).sort(compareBytes);
    for (const address of noLongerBonded) {
      const validator = this.getValidator(ctx, address);
      if (validator === undefined) continue;
      const unbonding = await this.beginUnbondingValidator(ctx, validator);
      bondedToNotBonded += validatorTokens(unbonding);
      this.deleteLastValidatorPower(ctx, address);
      updates.push(abciValidatorUpdate(unbonding, 0n));
    }

    const denom = params.bondDenom;
    if (notBondedToBonded > bondedToNotBonded) {
      this.bankKeeper.sendCoinsFromModuleToModule(ctx, NOT_BONDED_POOL_NAME, BONDED_POOL_NAME, [{ denom, amount: notBondedToBonded - bondedToNotBonded }]);
    } else if (notBondedToBonded < bondedToNotBonded) {
      this.bankKeeper.sendCoinsFromModuleToModule(ctx, BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, [{ denom, amount: bondedToNotBonded - notBondedToBonded }]);
    }
    if (updates.length > 0) this.setLastTotalPower(ctx, totalPower);
    return updates;
  }

  private async bondValidator(ctx: Context, validator: Validator): Promise<Validator> {
    this.deleteValidatorByPowerIndex(ctx, validator);
    if (validator.status === BondStatus.UNBONDING) this.deleteValidatorQueueEntry(ctx, validator);
    const bonded = withStatus(validator, BondStatus.BONDED);
    this.setValidator(ctx, bonded);
    this.setValidatorByPowerIndex(ctx, bonded);
    await this.hooks.afterValidatorBonded(ctx, validatorConsAddress(bonded), operatorAddress(bonded));
    return bonded;
  }

  private async beginUnbondingValidator(ctx: Context, validator: Validator): Promise<Validator> {
    if (validator.status !== BondStatus.BONDED) throw new Error(`should not already be unbonded or unbonding, validator: ${validator.operatorAddress}`);
    this.deleteValidatorByPowerIndex(ctx, validator);
    const completion = ctx.blockTime.getTime() + unbondingTimeMs(this.getParams(ctx));
    const unbonding = withStatus(validator, BondStatus.UNBONDING, { unbondingHeight: BigInt(ctx.blockHeight), unbondingTime: timestampFromMs(completion) });
    this.setValidator(ctx, unbonding);
    this.setValidatorByPowerIndex(ctx, unbonding);
    this.insertValidatorQueue(ctx, unbonding);
    await this.hooks.afterValidatorBeginUnbonding(ctx, validatorConsAddress(unbonding), operatorAddress(unbonding));
    return unbonding;
  }

  private queueKey(validator: Validator): [number, bigint] {
    return [validator.unbondingTime === undefined ? 0 : timestampDate(validator.unbondingTime).getTime(), validator.unbondingHeight];
  }

  insertValidatorQueue(ctx: Context, validator: Validator): void {
    const key = this.queueKey(validator);
    const existing = ValidatorQueue.get(ctx, key);
    ValidatorQueue.set(ctx, key, create(ValAddressesSchema, { addresses: [...(existing?.addresses ?? []), validator.operatorAddress] }));
  }

  private deleteValidatorQueueEntry(ctx: Context, validator: Validator): void {
    const key = this.queueKey(validator);
    const existing = ValidatorQueue.get(ctx, key);
    if (existing === undefined) return;
    const addresses = existing.addresses.filter((address) => address !== validator.operatorAddress);
    if (addresses.length === 0) ValidatorQueue.remove(ctx, key);
    else ValidatorQueue.set(ctx, key, create(ValAddressesSchema, { addresses }));
  }

  /** UnbondAllMatureValidators: unbonding validators whose time and height have come become unbonded. */
  async unbondMatureValidators(ctx: Context): Promise<void> {
    const now = ctx.blockTime.getTime();
    const height = BigInt(ctx.blockHeight);
    const due: [readonly [number, bigint], string[]][] = [];
    for await (const [key, value] of ValidatorQueue.iterate(ctx, { end: [now, 2n ** 64n - 1n], endInclusive: true })) {
      if (key[1] > height) continue;
      due.push([key, value.addresses]);
    }
    for (const [key, addresses] of due) {
      for (const address of addresses) {
        const valAddr = addrOf(address, 'val');
        const validator = this.getValidator(ctx, valAddr);
        if (validator === undefined) throw new Error('validator in the unbonding queue was not found');
        if (validator.status !== BondStatus.UNBONDING) continue; // re-bonded meanwhile
        const unbonded = withStatus(validator, BondStatus.UNBONDED);
        this.setValidator(ctx, unbonded);
        if (validatorShares(unbonded) === 0n) await this.removeValidator(ctx, valAddr);
      }
      ValidatorQueue.remove(ctx, key);
    }
  }

  // ------------------------------------------------------------------ pools

  bondedPoolAddress(): Uint8Array {
    return this.accountKeeper.getModuleAddress(BONDED_POOL_NAME)!;
  }

  notBondedPoolAddress(): Uint8Array {
    return this.accountKeeper.getModuleAddress(NOT_BONDED_POOL_NAME)!;
  }

  /** Checks the pool balances equal the tokens of the validators by status (InitGenesis). */
  async checkPools(ctx: Context, bondedTokens: bigint, notBondedTokens: bigint): Promise<void> {
    const denom = this.bondDenom(ctx);
    const bondedCoins: Coin[] = bondedTokens === 0n ? [] : [{ denom, amount: bondedTokens }];
    const notBondedCoins: Coin[] = notBondedTokens === 0n ? [] : [{ denom, amount: notBondedTokens }];
    const bondedPool = this.accountKeeper.getModuleAccount(ctx, BONDED_POOL_NAME);
    if (bondedPool === undefined) throw new Error(`${BONDED_POOL_NAME} module account has not been set`);
    const bondedBalance = await this.bankKeeper.getAllBalances(ctx, bondedPool.address);
    if (!coinsEqual(bondedBalance, bondedCoins)) {
      throw new Error(`bonded pool balance is different from bonded coins: ${coinsToString(bondedBalance)} <-> ${coinsToString(bondedCoins)}`);
    }
    const notBondedPool = this.accountKeeper.getModuleAccount(ctx, NOT_BONDED_POOL_NAME);
    if (notBondedPool === undefined) throw new Error(`${NOT_BONDED_POOL_NAME} module account has not been set`);
    const notBondedBalance = await this.bankKeeper.getAllBalances(ctx, notBondedPool.address);
    if (!coinsEqual(notBondedBalance, notBondedCoins)) {
      throw new Error(`not bonded pool balance is different from not bonded coins: ${coinsToString(notBondedBalance)} <-> ${coinsToString(notBondedCoins)}`);
    }
  }

  /**
   * The module-account invariants (x/staking ModuleAccountInvariants): the bonded pool holds
   * the bonded validators' tokens; the not-bonded pool the others' plus unbonding entries.
   * Returns the problems ([] when they hold).
   */
  async invariants(ctx: Context): Promise<string[]> {
    let bonded = 0n;
    let notBonded = 0n;
    for (const validator of await this.getAllValidators(ctx)) {
      if (validator.status === BondStatus.BONDED) bonded += validatorTokens(validator);
      else notBonded += validatorTokens(validator);
    }
    for (const ubd of await this.getAllUnbondingDelegations(ctx)) for (const entry of ubd.entries) notBonded += intOf(entry.balance);
    const denom = this.bondDenom(ctx);
    const problems: string[] = [];
    const bondedBalance = this.bankKeeper.getBalance(ctx, this.bondedPoolAddress(), denom);
    const notBondedBalance = this.bankKeeper.getBalance(ctx, this.notBondedPoolAddress(), denom);
    if (bondedBalance !== bonded) problems.push(`bonded pool holds ${bondedBalance}${denom}, bonded validators have ${bonded}${denom}`);
    if (notBondedBalance !== notBonded) problems.push(`not-bonded pool holds ${notBondedBalance}${denom}, records sum to ${notBonded}${denom}`);
    // Delegation shares sum to the validator's shares.
    const shares = new Map<string, Dec>();
    for (const delegation of await this.getAllDelegations(ctx)) shares.set(delegation.validatorAddress, (shares.get(delegation.validatorAddress) ?? 0n) + (decFromWire(delegation.shares) ?? 0n));
    for (const validator of await this.getAllValidators(ctx)) {
      const sum = shares.get(validator.operatorAddress) ?? 0n;
      if (sum !== validatorShares(validator)) problems.push(`validator ${validator.operatorAddress} has ${validator.delegatorShares} shares, its delegations ${sum}`);
    }
    return problems;
  }

  // ------------------------------------------------------------------ historical info

  getHistoricalInfo(ctx: Context, height: bigint): HistoricalInfo | undefined {
    return HistoricalInfoByHeight.get(ctx, height);
  }

  /**
   * TrackHistoricalInfo: prune entries older than historical_entries, store this block's header
   * (as the SDK 0.50 FinalizeBlock builds it: chain id, height, time, proposer, next validators
   * hash and the last app hash) and last validator set (by power, then address). The record is assembled from the stored
   * validator bytes (HistoricalInfo = header 1, repeated Validator 2) rather than decoding and
   * re-encoding 100 validators every block; the bytes are the ones protobuf-es would write.
   */
  async trackHistoricalInfo(ctx: Context): Promise<void> {
    const params = this.getParams(ctx);
    const entries = BigInt(params.historicalEntries);
    for (let height = BigInt(ctx.blockHeight) - entries; height >= 0n; height--) {
      if (!HistoricalInfoByHeight.has(ctx, height)) break;
      HistoricalInfoByHeight.remove(ctx, height);
    }
    if (entries === 0n) return;
    const store = ctx.kv(stakingStoreKey);
    const set: { address: Uint8Array; power: bigint; bytes: Uint8Array }[] = [];
    for (const [address, power] of await this.getLastValidatorPowers(ctx)) {
      if (set.length >= params.maxValidators) break;
      const bytes = store.get(Validators.encodeKey(address));
      if (bytes !== undefined) set.push({ address, power, bytes });
    }
    set.sort((a, b) => (a.power !== b.power ? (b.power > a.power ? 1 : -1) : compareBytes(a.address, b.address)));
    const header = create(HeaderSchema, {
      chainId: ctx.chainId,
      height: BigInt(ctx.blockHeight),
      time: timestampFromDate(ctx.blockTime),
      nextValidatorsHash: ctx.header.nextValidatorsHash,
      proposerAddress: ctx.header.proposerAddress,
      appHash: ctx.header.appHash ?? new Uint8Array(0),
    });
    const writer = new ProtoWriter(1024 + set.reduce((sum, entry) => sum + entry.bytes.length + 8, 0));
    writer.messageField(1, toBinary(HeaderSchema, header));
    for (const entry of set) writer.messageField(2, entry.bytes);
    store.set(HistoricalInfoByHeight.encodeKey(BigInt(ctx.blockHeight)), writer.finish());
  }

  /** Heights with stored historical info (for tests/debug). */
  async historicalHeights(ctx: Context): Promise<bigint[]> {
    const heights: bigint[] = [];
    for await (const height of HistoricalInfoByHeight.keys(ctx)) heights.push(height);
    return heights;
  }
}
