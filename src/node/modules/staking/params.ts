/** x/staking params: defaults for this chain and the SDK's validation texts. */
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { ParamsSchema, type Params } from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { denomError } from '../shared/coins.js';
import { DEC_ONE, decFromWire, decToString } from '../shared/dec.js';

export type StakingParams = Params;

/** 21 days. */
export const DEFAULT_UNBONDING_TIME_SECONDS = 1_814_400n;
export const DEFAULT_MAX_VALIDATORS = 100;
export const DEFAULT_MAX_ENTRIES = 7;
export const DEFAULT_HISTORICAL_ENTRIES = 10_000;
/** DefaultPowerReduction for 18-decimal chains: 1 unit of power per 10^18 base units. */
export const POWER_REDUCTION = 10n ** 18n;

export function defaultStakingParams(bondDenom = 'attotoken'): StakingParams {
  return create(ParamsSchema, {
    unbondingTime: create(DurationSchema, { seconds: DEFAULT_UNBONDING_TIME_SECONDS, nanos: 0 }),
    maxValidators: DEFAULT_MAX_VALIDATORS,
    maxEntries: DEFAULT_MAX_ENTRIES,
    historicalEntries: DEFAULT_HISTORICAL_ENTRIES,
    bondDenom,
    minCommissionRate: '0',
  });
}

export function validateStakingParams(params: StakingParams): string[] {
  const problems: string[] = [];
  const unbonding = params.unbondingTime;
  if (unbonding === undefined || unbonding.seconds < 0n || (unbonding.seconds === 0n && unbonding.nanos <= 0)) {
    problems.push(`unbonding time must be positive: ${unbonding === undefined ? 0 : `${unbonding.seconds}s`}`);
  }
  if (params.maxValidators === 0) problems.push(`max validators must be positive: ${params.maxValidators}`);
  if (params.maxEntries === 0) problems.push(`max entries must be positive: ${params.maxEntries}`);
  if (params.bondDenom.trim() === '') problems.push('bond denom cannot be blank');
  else {
    const bad = denomError(params.bondDenom);
    if (bad !== undefined) problems.push(bad);
  }
  const rate = decFromWire(params.minCommissionRate);
  if (rate === undefined) problems.push(`invalid minimum commission rate: ${params.minCommissionRate}`);
  else if (rate < 0n) problems.push(`minimum commission rate cannot be negative: ${decToString(rate)}`);
  else if (rate > DEC_ONE) problems.push(`minimum commission rate cannot be greater than 100%: ${decToString(rate)}`);
  return problems;
}

/** Unbonding time in milliseconds. */
export function unbondingTimeMs(params: StakingParams): number {
  const duration = params.unbondingTime;
  if (duration === undefined) return 0;
  return Number(duration.seconds) * 1000 + Math.floor(duration.nanos / 1e6);
}
