/**
 * gov's x/params subspace (SDK 0.46 keys): `depositparams`, `votingparams`, `tallyparams`, each
 * one amino JSON object, as the v1beta1 DepositParams / VotingParams / TallyParams.
 */
import type { JsonObject } from '@bufbuild/protobuf';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import { ParamsSchema } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import { legacyDecFromWire, legacyDecToWire } from '../../codec/decimal.js';
import { ParamsErrors, type ParamSpace } from '../../platform/params.js';
import { SdkErrors } from '../shared/errors.js';
import type { GovKeeper } from './keeper.js';
import { durationMs, validateGovParams } from './params.js';

const KEYS = ['depositparams', 'votingparams', 'tallyparams'] as const;

function nanos(ms: number): string {
  return (BigInt(ms) * 1_000_000n).toString();
}

function msOf(value: unknown, key: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw ParamsErrors.SettingParameter.wrap(`${key}: a duration is its nanoseconds as a string`);
  return Number(BigInt(value) / 1_000_000n);
}

function dec(value: unknown, key: string): string {
  if (typeof value !== 'string') throw ParamsErrors.SettingParameter.wrap(`${key}: expected a decimal string`);
  try {
    return legacyDecFromWire(legacyDecToWire(value));
  } catch {
    throw ParamsErrors.SettingParameter.wrap(`${key}: invalid decimal ${value}`);
  }
}

export function govParamSpace(keeper: GovKeeper): ParamSpace {
  return {
    keys: KEYS,
    get(ctx, key) {
      const p = keeper.getParams(ctx);
      if (key === 'depositparams') return JSON.stringify({ min_deposit: p.minDeposit.map((c) => ({ denom: c.denom, amount: c.amount })), max_deposit_period: nanos(durationMs(p.maxDepositPeriod)) });
      if (key === 'votingparams') return JSON.stringify({ voting_period: nanos(durationMs(p.votingPeriod)) });
      if (key === 'tallyparams') return JSON.stringify({ quorum: p.quorum, threshold: p.threshold, veto_threshold: p.vetoThreshold });
      return undefined;
    },
    set(ctx, changes) {
      const params = create(ParamsSchema, keeper.getParams(ctx));
      for (const change of changes) {
        let json: JsonObject;
        try {
          json = JSON.parse(change.value) as JsonObject;
        } catch (err) {
          throw ParamsErrors.SettingParameter.wrap(`key: ${change.key}, value: ${change.value}, err: ${(err as Error).message}`);
        }
        if (json === null || typeof json !== 'object' || Array.isArray(json)) throw ParamsErrors.SettingParameter.wrap(`key: ${change.key}: expected a JSON object`);
        if (change.key === 'depositparams') {
          if (json.min_deposit !== undefined) {
            if (!Array.isArray(json.min_deposit)) throw ParamsErrors.SettingParameter.wrap('min_deposit: expected a list of coins');
            params.minDeposit = json.min_deposit.map((c) => ({ $typeName: 'cosmos.base.v1beta1.Coin', denom: String((c as JsonObject).denom), amount: String((c as JsonObject).amount) }));
          }
          if (json.max_deposit_period !== undefined) params.maxDepositPeriod = durationFromMs(msOf(json.max_deposit_period, 'max_deposit_period'));
        } else if (change.key === 'votingparams') {
          if (json.voting_period !== undefined) params.votingPeriod = durationFromMs(msOf(json.voting_period, 'voting_period'));
        } else if (change.key === 'tallyparams') {
          if (json.quorum !== undefined) params.quorum = dec(json.quorum, 'quorum');
          if (json.threshold !== undefined) params.threshold = dec(json.threshold, 'threshold');
          if (json.veto_threshold !== undefined) params.vetoThreshold = dec(json.veto_threshold, 'veto_threshold');
        } else {
          throw ParamsErrors.SettingParameter.wrap(`parameter ${change.key} not registered`);
        }
      }
      const problems = validateGovParams(params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, params);
    },
  };
}
