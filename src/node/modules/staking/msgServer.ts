/**
 * cosmos.staking.v1beta1.Msg: CreateValidator (x/staking/keeper/msg_server.go, SDK 0.50) with
 * MsgCreateValidator.Validate, CommissionRates.Validate and Description.EnsureLength. The
 * self-delegation moves tokens from the operator's account into the not-bonded pool; the end
 * blocker bonds the validator if its power is non-zero.
 */
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CommissionRatesSchema, CommissionSchema, ValidatorSchema, type CommissionRates, type Description } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { Msg, MsgCreateValidatorResponseSchema, MsgUpdateParamsResponseSchema } from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { validateStakingParams } from './params.js';
import { parseValAddress } from '../shared/address.js';
import { coinFromProto, coinToString, isValidDenom } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { DEC_ONE, decFromWire, decToString, type Dec } from '../shared/dec.js';
import { SdkErrors } from '../shared/errors.js';
import { ATTRIBUTE_KEY_AMOUNT, newEvent } from '../shared/events.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { StakingErrors } from './errors.js';
import { ATTRIBUTE_KEY_VALIDATOR, EVENT_TYPE_CREATE_VALIDATOR } from './events.js';
import type { StakingKeeper } from './keeper.js';
import { consensusAddressOf, consensusKeyOf, newValidator, type ConsensusKey } from './validator.js';

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

/** `authority`: who may update the params (the gov module account). */
export function stakingMsgRoutes(keeper: StakingKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.createValidator, (ctx: Context, msg) => {
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
      // The operator's account address has the same bytes as the validator address.
      keeper.delegate(ctx, valAddr, value.amount, validator);
      ctx.events.emit(newEvent(EVENT_TYPE_CREATE_VALIDATOR, [ATTRIBUTE_KEY_VALIDATOR, msg.validatorAddress], [ATTRIBUTE_KEY_AMOUNT, coinToString(value)]));
      return create(MsgCreateValidatorResponseSchema);
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
