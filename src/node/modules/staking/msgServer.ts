/**
 * cosmos.staking.v1beta1.Msg (x/staking/keeper/msg_server.go): CreateValidator (refused when the
 * network's accept_all_validators is false), EditValidator, Delegate, BeginRedelegate,
 * Undelegate, CancelUnbondingDelegation, UpdateParams — with the messages' ValidateBasic checks,
 * CommissionRates.Validate and Description.EnsureLength. The end blocker bonds validators.
 */
import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BondStatus, CommissionRatesSchema, CommissionSchema, DescriptionSchema, UnbondingDelegationEntrySchema, UnbondingDelegationSchema, ValidatorSchema, type CommissionRates, type Description } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import {
  Msg,
  MsgBeginRedelegateResponseSchema,
  MsgCancelUnbondingDelegationResponseSchema,
  MsgCreateValidatorResponseSchema,
  type MsgCreateValidator,
  type MsgCreateValidatorResponse,
  MsgDelegateResponseSchema,
  MsgEditValidatorResponseSchema,
  MsgUndelegateResponseSchema,
  MsgUpdateParamsResponseSchema,
} from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { validateStakingParams } from './params.js';
import { parseAccAddress, parseValAddress } from '../shared/address.js';
import { coinFromProto, coinToProto, coinToString, isValidDenom, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, decFromWire, decToString, type Dec } from '../shared/dec.js';
import { SdkErrors } from '../shared/errors.js';
import { ATTRIBUTE_KEY_AMOUNT, newEvent } from '../shared/events.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { StakingErrors } from './errors.js';
import { ATTRIBUTE_KEY_DELEGATOR, ATTRIBUTE_KEY_NEW_SHARES, ATTRIBUTE_KEY_VALIDATOR, EVENT_TYPE_CREATE_VALIDATOR, EVENT_TYPE_DELEGATE } from './events.js';
import type { StakingKeeper } from './keeper.js';
import { consensusAddressOf, consensusKeyOf, newValidator, validatorTokens, type ConsensusKey } from './validator.js';

export const MAX_MONIKER_LENGTH = 70;
export const MAX_IDENTITY_LENGTH = 3000;
export const MAX_WEBSITE_LENGTH = 140;
export const MAX_SECURITY_CONTACT_LENGTH = 140;
export const MAX_DETAILS_LENGTH = 280;

function dec(text: string, what: string): Dec {
  const value = decFromWire(text);
  if (value === undefined) throw SdkErrors.InvalidRequest.wrap(`invalid ${what}: ${text}`);
  return value;
}

/** CommissionRates.Validate. */
export function validateCommission(rates: CommissionRates): void {
  const rate = dec(rates.rate, 'commission rate');
  const maxRate = dec(rates.maxRate, 'commission max rate');
  const maxChangeRate = dec(rates.maxChangeRate, 'commission max change rate');
  if (maxRate < 0n) throw StakingErrors.CommissionNegative.error();
  if (maxRate > DEC_ONE) throw StakingErrors.CommissionHuge.error();
  if (rate < 0n) throw StakingErrors.CommissionNegative.error();
  if (rate > maxRate) throw StakingErrors.CommissionGTMaxRate.error();
  if (maxChangeRate < 0n) throw StakingErrors.CommissionChangeRateNegative.error();
  if (maxChangeRate > maxRate) throw StakingErrors.CommissionChangeRateGTMaxRate.error();
}

/** Description.EnsureLength. */
export function ensureDescriptionLength(description: Description): void {
  const checks: [string, string, number][] = [
    ['moniker', description.moniker, MAX_MONIKER_LENGTH],
    ['identity', description.identity, MAX_IDENTITY_LENGTH],
    ['website', description.website, MAX_WEBSITE_LENGTH],
    ['security contact', description.securityContact, MAX_SECURITY_CONTACT_LENGTH],
    ['details', description.details, MAX_DETAILS_LENGTH],
  ];
  for (const [name, value, max] of checks) {
    if (value.length > max) throw SdkErrors.InvalidRequest.wrap(`invalid ${name} length; got: ${value.length}, max: ${max}`);
  }
}

function isEmptyDescription(description: Description | undefined): boolean {
  return description === undefined || (description.moniker === '' && description.identity === '' && description.website === '' && description.securityContact === '' && description.details === '');
}

function accAddress(text: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid delegator address: ${parsed.error}`);
  return parsed.bytes;
}

function valAddress(text: string): Uint8Array {
  const parsed = parseValAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid validator address: ${parsed.error}`);
  return parsed.bytes;
}

function positiveCoin(coin: { denom: string; amount: string } | undefined, text: string): Coin {
  if (coin === undefined) throw SdkErrors.InvalidRequest.wrap(text);
  let parsed: Coin;
  try {
    parsed = coinFromProto(coin);
  } catch {
    throw SdkErrors.InvalidRequest.wrap(text);
  }
  if (!isValidDenom(parsed.denom) || parsed.amount <= 0n) throw SdkErrors.InvalidRequest.wrap(text);
  return parsed;
}

function positiveInt(text: string, error: string): bigint {
  if (!/^[0-9]+$/.test(text) || BigInt(text) <= 0n) throw SdkErrors.InvalidRequest.wrap(error);
  return BigInt(text);
}

/** The SDK's "[do-not-modify]" marker: keep the stored value. */
const DO_NOT_MODIFY = '[do-not-modify]';

function updateDescription(current: Description | undefined, update: Description | undefined): Description {
  const base = current ?? create(DescriptionSchema);
  if (update === undefined) return base;
  const pick = (next: string, old: string): string => (next === DO_NOT_MODIFY ? old : next);
  return create(DescriptionSchema, {
    moniker: pick(update.moniker, base.moniker),
    identity: pick(update.identity, base.identity),
    website: pick(update.website, base.website),
    securityContact: pick(update.securityContact, base.securityContact),
    details: pick(update.details, base.details),
  });
}

/**
 * MsgCreateValidator's handler; `admitted` when a passed CreateValidatorProposal admits the
 * validator (the network's rule that otherwise refuses it while accept_all_validators is false).
 */
export async function createValidator(keeper: StakingKeeper, ctx: Context, msg: MsgCreateValidator, admitted = false): Promise<MsgCreateValidatorResponse> {
    const parsed = parseValAddress(msg.validatorAddress);
    if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid validator address: ${parsed.error}`);
    const valAddr = parsed.bytes;

    // MsgCreateValidator.Validate
    if (msg.pubkey === undefined) throw StakingErrors.EmptyValidatorPubKey.error();
    if (msg.value === undefined) throw SdkErrors.InvalidRequest.wrap('invalid delegation amount');
    const value = coinFromProto(msg.value);
    if (!isValidDenom(value.denom) || value.amount <= 0n) throw SdkErrors.InvalidRequest.wrap('invalid delegation amount');
    if (isEmptyDescription(msg.description)) throw SdkErrors.InvalidRequest.wrap('empty description');
    const commission = msg.commission;
    if (commission === undefined || (commission.rate === '' && commission.maxRate === '' && commission.maxChangeRate === '')) {
      throw SdkErrors.InvalidRequest.wrap('empty commission');
    }
    validateCommission(commission);
    const minSelfDelegation = /^[0-9]+$/.test(msg.minSelfDelegation) ? BigInt(msg.minSelfDelegation) : 0n;
    if (minSelfDelegation <= 0n) throw SdkErrors.InvalidRequest.wrap('minimum self delegation must be a positive integer');
    if (value.amount < minSelfDelegation) throw StakingErrors.SelfDelegationBelowMinimum.error();

    // The network's rule: without accept_all_validators, validators are admitted by governance.
    // Gentxs (delivered during InitChain: a finalize context without a block hash) are exempt.
    const genesis = ctx.mode === 'finalize' && ctx.header.hash.length === 0;
    if (!genesis && !admitted && !keeper.acceptAllValidators(ctx)) {
      throw SdkErrors.Unauthorized.wrap('creating validators is disabled (accept_all_validators is false); a validator is admitted by a governance proposal');
    }
    const params = keeper.getParams(ctx);
    const minRate = dec(params.minCommissionRate, 'min commission rate');
    if (dec(commission.rate, 'commission rate') < minRate) {
      throw StakingErrors.CommissionLTMinRate.wrap(`cannot set validator commission to less than minimum rate of ${decToString(minRate)}`);
    }
    if (keeper.getValidator(ctx, valAddr) !== undefined) throw StakingErrors.ValidatorOwnerExists.error();

    let consKey: ConsensusKey;
    try {
      consKey = consensusKeyOf(msg.pubkey);
    } catch {
      throw SdkErrors.InvalidType.wrap(`Expecting cryptotypes.PubKey, got ${msg.pubkey.typeUrl}`);
    }
    if (keeper.getValidatorByConsAddr(ctx, consensusAddressOf(consKey)) !== undefined) throw StakingErrors.ValidatorPubKeyExists.error();
    if (value.denom !== params.bondDenom) {
      throw SdkErrors.InvalidRequest.wrap(`invalid coin denomination: got ${value.denom}, expected ${params.bondDenom}`);
    }
    ensureDescriptionLength(msg.description!);
    const allowedTypes = ctx.consensusParams?.validator.pubKeyTypes ?? ['ed25519'];
    if (!allowedTypes.includes(consKey.type)) {
      throw StakingErrors.ValidatorPubKeyTypeNotSupported.wrap(`got: ${consKey.type}, expected: [${allowedTypes.join(' ')}]`);
    }

    let validator = newValidator(msg.validatorAddress, msg.pubkey, msg.description!);
    validator = create(ValidatorSchema, {
      ...validator,
      commission: create(CommissionSchema, {
        commissionRates: create(CommissionRatesSchema, { rate: commission.rate, maxRate: commission.maxRate, maxChangeRate: commission.maxChangeRate }),
        updateTime: timestampFromDate(ctx.blockTime),
      }),
      minSelfDelegation: msg.minSelfDelegation,
    });
    keeper.setValidator(ctx, validator);
    keeper.setValidatorByConsAddr(ctx, validator);
    keeper.setValidatorByPowerIndex(ctx, validator);
    await keeper.hooks.afterValidatorCreated(ctx, valAddr);
    // The operator's account address has the same bytes as the validator address.
    await keeper.delegate(ctx, valAddr, value.amount, BondStatus.UNBONDED, keeper.getValidator(ctx, valAddr)!);
    ctx.events.emit(newEvent(EVENT_TYPE_CREATE_VALIDATOR, [ATTRIBUTE_KEY_VALIDATOR, msg.validatorAddress], [ATTRIBUTE_KEY_AMOUNT, coinToString(value)]));
    return create(MsgCreateValidatorResponseSchema);
}

/** `authority`: who may update the params (the gov module account). */
export function stakingMsgRoutes(keeper: StakingKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.createValidator, (ctx: Context, msg) => createValidator(keeper, ctx, msg)),

    msgRoute(Msg.method.editValidator, async (ctx: Context, msg) => {
      const valAddr = valAddress(msg.validatorAddress);
      if (msg.description === undefined || isEmptyDescription(msg.description)) {
        if (msg.commissionRate === '' && msg.minSelfDelegation === '') throw SdkErrors.InvalidRequest.wrap('empty description');
      }
      const minSelf = msg.minSelfDelegation === '' ? undefined : positiveInt(msg.minSelfDelegation, 'minimum self delegation must be a positive integer');
      const newRate = msg.commissionRate === '' ? undefined : dec(msg.commissionRate, 'commission rate');
      if (newRate !== undefined && (newRate > DEC_ONE || newRate < 0n)) throw SdkErrors.InvalidRequest.wrap('commission rate must be between 0 and 1 (inclusive)');
      const validator = keeper.getValidator(ctx, valAddr);
      if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
      const description = updateDescription(validator.description, msg.description);
      ensureDescriptionLength(description);
      let commission = validator.commission;
      if (newRate !== undefined) {
        const rates = validator.commission!.commissionRates!;
        const params = keeper.getParams(ctx);
        const updateTime = validator.commission?.updateTime === undefined ? 0 : timestampDate(validator.commission.updateTime).getTime();
        if (ctx.blockTime.getTime() - updateTime < 24 * 3600 * 1000) throw StakingErrors.CommissionUpdateTime.error();
        if (newRate < 0n) throw StakingErrors.CommissionNegative.error();
        if (newRate > dec(rates.maxRate, 'max rate')) throw StakingErrors.CommissionGTMaxRate.error();
        const change = newRate - dec(rates.rate, 'rate');
        if ((change < 0n ? -change : change) > dec(rates.maxChangeRate, 'max change rate')) throw StakingErrors.CommissionGTMaxChangeRate.error();
        const minRate = dec(params.minCommissionRate, 'min commission rate');
        if (newRate < minRate) throw StakingErrors.CommissionLTMinRate.wrap(`cannot set validator commission to less than minimum rate of ${decToString(minRate)}`);
        await keeper.hooks.beforeValidatorModified(ctx, valAddr);
        commission = create(CommissionSchema, { commissionRates: create(CommissionRatesSchema, { ...rates, rate: msg.commissionRate }), updateTime: timestampFromDate(ctx.blockTime) });
      }
      let minSelfDelegation = validator.minSelfDelegation;
      if (minSelf !== undefined) {
        if (minSelf <= BigInt(validator.minSelfDelegation || '0')) throw StakingErrors.MinSelfDelegationDecreased.error();
        if (minSelf > validatorTokens(validator)) throw StakingErrors.SelfDelegationBelowMinimum.error();
        minSelfDelegation = minSelf.toString();
      }
      keeper.setValidator(ctx, create(ValidatorSchema, { ...keeper.getValidator(ctx, valAddr)!, description, commission, minSelfDelegation }));
      ctx.events.emit(newEvent('edit_validator', ['commission_rate', newRate === undefined ? '<nil>' : decToString(newRate)], ['min_self_delegation', minSelf === undefined ? '<nil>' : minSelf.toString()]));
      return create(MsgEditValidatorResponseSchema);
    }),

    msgRoute(Msg.method.delegate, async (ctx: Context, msg) => {
      const delAddr = accAddress(msg.delegatorAddress);
      const valAddr = valAddress(msg.validatorAddress);
      const amount = positiveCoin(msg.amount, 'invalid delegation amount');
      const validator = keeper.getValidator(ctx, valAddr);
      if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
      if (validator.jailed) throw StakingErrors.ValidatorJailed.error();
      const bondDenom = keeper.bondDenom(ctx);
      if (amount.denom !== bondDenom) throw SdkErrors.InvalidRequest.wrap(`invalid coin denomination: got ${amount.denom}, expected ${bondDenom}`);
      const shares = await keeper.delegate(ctx, delAddr, amount.amount, BondStatus.UNBONDED, validator);
      ctx.events.emit(newEvent(EVENT_TYPE_DELEGATE, [ATTRIBUTE_KEY_VALIDATOR, msg.validatorAddress], [ATTRIBUTE_KEY_DELEGATOR, msg.delegatorAddress], [ATTRIBUTE_KEY_AMOUNT, coinToString(amount)], [ATTRIBUTE_KEY_NEW_SHARES, decToString(shares)]));
      return create(MsgDelegateResponseSchema);
    }),

    msgRoute(Msg.method.beginRedelegate, async (ctx: Context, msg) => {
      const delAddr = accAddress(msg.delegatorAddress);
      const src = valAddress(msg.validatorSrcAddress);
      const dst = valAddress(msg.validatorDstAddress);
      const amount = positiveCoin(msg.amount, 'invalid shares amount');
      const bondDenom = keeper.bondDenom(ctx);
      if (amount.denom !== bondDenom) throw SdkErrors.InvalidRequest.wrap(`invalid coin denomination: got ${amount.denom}, expected ${bondDenom}`);
      const shares = keeper.validateUnbondAmount(ctx, delAddr, src, amount.amount);
      const completionMs = await keeper.beginRedelegation(ctx, delAddr, src, dst, shares);
      ctx.events.emit(
        newEvent('redelegate', ['source_validator', msg.validatorSrcAddress], ['destination_validator', msg.validatorDstAddress], [ATTRIBUTE_KEY_AMOUNT, coinToString(amount)], ['completion_time', new Date(completionMs).toISOString()]),
      );
      return create(MsgBeginRedelegateResponseSchema, { completionTime: timestampFromMs(completionMs) });
    }),

    msgRoute(Msg.method.undelegate, async (ctx: Context, msg) => {
      const delAddr = accAddress(msg.delegatorAddress);
      const valAddr = valAddress(msg.validatorAddress);
      const amount = positiveCoin(msg.amount, 'invalid shares amount');
      const bondDenom = keeper.bondDenom(ctx);
      if (amount.denom !== bondDenom) throw SdkErrors.InvalidRequest.wrap(`invalid coin denomination: got ${amount.denom}, expected ${bondDenom}`);
      const shares = keeper.validateUnbondAmount(ctx, delAddr, valAddr, amount.amount);
      const { completionMs, amount: unbonded } = await keeper.undelegate(ctx, delAddr, valAddr, shares);
      const coin: Coin = { denom: bondDenom, amount: unbonded };
      ctx.events.emit(newEvent('unbond', [ATTRIBUTE_KEY_VALIDATOR, msg.validatorAddress], [ATTRIBUTE_KEY_AMOUNT, coinToString(coin)], ['completion_time', new Date(completionMs).toISOString()]));
      return create(MsgUndelegateResponseSchema, { completionTime: timestampFromMs(completionMs), amount: coinToProto(coin) });
    }),

    msgRoute(Msg.method.cancelUnbondingDelegation, async (ctx: Context, msg) => {
      const delAddr = accAddress(msg.delegatorAddress);
      const valAddr = valAddress(msg.validatorAddress);
      const amount = positiveCoin(msg.amount, 'invalid amount');
      if (msg.creationHeight <= 0n) throw SdkErrors.InvalidRequest.wrap('invalid height');
      const validator = keeper.getValidator(ctx, valAddr);
      if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
      if (validator.jailed) throw StakingErrors.ValidatorJailed.error();
      const bondDenom = keeper.bondDenom(ctx);
      if (amount.denom !== bondDenom) throw SdkErrors.InvalidRequest.wrap(`invalid coin denomination: got ${amount.denom}, expected ${bondDenom}`);
      const ubd = keeper.getUnbondingDelegation(ctx, delAddr, valAddr);
      if (ubd === undefined) throw StakingErrors.NoUnbondingDelegation.wrap(`unbonding delegation with delegator ${msg.delegatorAddress} not found for validator ${msg.validatorAddress}`);
      const index = ubd.entries.findIndex((entry) => entry.creationHeight === msg.creationHeight);
      if (index < 0) throw StakingErrors.NoUnbondingDelegation.wrap(`unbonding delegation entry is not found at block height ${msg.creationHeight}`);
      const entry = ubd.entries[index]!;
      const balance = BigInt(entry.balance || '0');
      if (balance < amount.amount) throw SdkErrors.InvalidRequest.wrap('amount is greater than the unbonding delegation entry balance');
      if (entry.completionTime !== undefined && timestampDate(entry.completionTime).getTime() < ctx.blockTime.getTime()) throw SdkErrors.InvalidRequest.wrap('unbonding delegation is already processed');
      // The tokens sit in the not-bonded pool: delegate them back without touching the account.
      await keeper.delegate(ctx, delAddr, amount.amount, BondStatus.UNBONDING, validator, false);
      const remaining = balance - amount.amount;
      const entries = [...ubd.entries];
      if (remaining === 0n) entries.splice(index, 1);
      else entries[index] = create(UnbondingDelegationEntrySchema, { ...entry, balance: remaining.toString(), initialBalance: remaining.toString() });
      if (entries.length === 0) keeper.removeUnbondingDelegation(ctx, ubd);
      else keeper.setUnbondingDelegation(ctx, create(UnbondingDelegationSchema, { ...ubd, entries }));
      ctx.events.emit(
        newEvent('cancel_unbonding_delegation', [ATTRIBUTE_KEY_AMOUNT, coinToString(amount)], [ATTRIBUTE_KEY_VALIDATOR, msg.validatorAddress], [ATTRIBUTE_KEY_DELEGATOR, msg.delegatorAddress], ['creation_height', msg.creationHeight.toString()]),
      );
      return create(MsgCancelUnbondingDelegationResponseSchema);
    }),

    msgRoute(Msg.method.updateParams, (ctx: Context, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      const problems = validateStakingParams(msg.params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),
  ];
}
