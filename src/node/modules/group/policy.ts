/**
 * Decision policies (x/group/types.go): ThresholdDecisionPolicy and PercentageDecisionPolicy —
 * their basic checks, their check against a group (the execution window must be reachable), and
 * Allow: whether a tally accepts a proposal and whether that result is final.
 */
import { create } from '@bufbuild/protobuf';
import type { Any, Duration } from '@bufbuild/protobuf/wkt';
import { PercentageDecisionPolicySchema, ThresholdDecisionPolicySchema, type DecisionPolicyWindows, type GroupInfo, type TallyResult } from '../../../gen/cosmos/group/v1/types_pb.js';
import { TallyResultSchema } from '../../../gen/cosmos/group/v1/types_pb.js';
import { anyUnpackAs } from '../../codec/index.js';
import { DEC_ZERO, decString, parseDec, parseNonNegativeDec, parsePositiveDec, quo, subNonNegative, type GroupDec } from './decimal.js';
import { isSdkError } from '../shared/errors.js';
import { GroupErrors } from './errors.js';

/** The app's group config (group.Config): the SDK defaults. */
export interface GroupConfig {
  /** How long after the voting period an accepted proposal may still be executed (ms). */
  maxExecutionPeriodMs: number;
  /** Longest metadata string accepted (bytes). */
  maxMetadataLen: number;
}

export const DEFAULT_GROUP_CONFIG: GroupConfig = { maxExecutionPeriodMs: 14 * 24 * 3600 * 1000, maxMetadataLen: 255 };

export interface DecisionPolicy {
  readonly kind: 'threshold' | 'percentage';
  /** The threshold or percentage. */
  readonly value: GroupDec;
  readonly votingPeriodMs: number;
  readonly minExecutionPeriodMs: number;
}

export interface DecisionPolicyResult {
  allow: boolean;
  final: boolean;
}

function toMs(duration: Duration | undefined): number {
  return duration === undefined ? 0 : durationMs(duration);
}

function durationMs(duration: Duration): number {
  return Number(duration.seconds) * 1000 + Math.trunc(duration.nanos / 1_000_000);
}

function windowsOf(windows: DecisionPolicyWindows | undefined): { votingPeriodMs: number; minExecutionPeriodMs: number } {
  return { votingPeriodMs: toMs(windows?.votingPeriod), minExecutionPeriodMs: toMs(windows?.minExecutionPeriod) };
}

/** Unpacks and checks a decision policy Any (ValidateBasic); ErrInvalid / ErrEmpty / ErrType. */
export function decodeDecisionPolicy(any: Any | undefined): DecisionPolicy {
  if (any === undefined) throw GroupErrors.Empty.wrap('decision policy');
  let policy: DecisionPolicy;
  try {
    if (any.typeUrl === `/${ThresholdDecisionPolicySchema.typeName}`) {
      const message = anyUnpackAs(any, ThresholdDecisionPolicySchema);
      let threshold: GroupDec;
      try {
        threshold = parsePositiveDec(message.threshold);
      } catch (err) {
        throw GroupErrors.Invalid.wrap(`threshold: ${(err as Error).message}`);
      }
      policy = { kind: 'threshold', value: threshold, ...windowsOf(message.windows) };
    } else if (any.typeUrl === `/${PercentageDecisionPolicySchema.typeName}`) {
      const message = anyUnpackAs(any, PercentageDecisionPolicySchema);
      let percentage: GroupDec;
      try {
        percentage = parsePositiveDec(message.percentage);
      } catch (err) {
        throw GroupErrors.Invalid.wrap(`percentage: ${(err as Error).message}`);
      }
      if (percentage > parseDec('1')) throw GroupErrors.Invalid.wrap('percentage must be > 0 and <= 1');
      policy = { kind: 'percentage', value: percentage, ...windowsOf(message.windows) };
    } else {
      throw GroupErrors.Type.wrap(`unknown decision policy ${any.typeUrl}`);
    }
  } catch (err) {
    if (isSdkError(err)) throw err;
    throw GroupErrors.Invalid.wrap(`decision policy: ${(err as Error).message}`);
  }
  if (policy.votingPeriodMs <= 0) throw GroupErrors.Invalid.wrap('decision policy windows: voting period cannot be zero');
  if (policy.minExecutionPeriodMs < 0) throw GroupErrors.Invalid.wrap('decision policy windows: min execution period cannot be negative');
  return policy;
}

/** DecisionPolicy.Validate(group, config): the execution window must not be empty. */
export function validatePolicyForGroup(policy: DecisionPolicy, group: GroupInfo, config: GroupConfig): void {
  try {
    parseNonNegativeDec(group.totalWeight);
  } catch (err) {
    throw GroupErrors.Invalid.wrap(`group total weight: ${(err as Error).message}`);
  }
  if (policy.minExecutionPeriodMs > policy.votingPeriodMs + config.maxExecutionPeriodMs) {
    throw GroupErrors.Invalid.wrap('min_execution_period should be smaller than voting_period + max_execution_period');
  }
}

export interface Tally {
  yes: GroupDec;
  abstain: GroupDec;
  no: GroupDec;
  veto: GroupDec;
}

export const emptyTally = (): Tally => ({ yes: DEC_ZERO, abstain: DEC_ZERO, no: DEC_ZERO, veto: DEC_ZERO });

export function tallyMessage(tally: Tally): TallyResult {
  return create(TallyResultSchema, { yesCount: decString(tally.yes), abstainCount: decString(tally.abstain), noCount: decString(tally.no), noWithVetoCount: decString(tally.veto) });
}

export function tallyFromMessage(tally: TallyResult | undefined): Tally {
  const read = (text: string | undefined): GroupDec => (text === undefined || text === '' ? DEC_ZERO : parseNonNegativeDec(text));
  return { yes: read(tally?.yesCount), abstain: read(tally?.abstainCount), no: read(tally?.noCount), veto: read(tally?.noWithVetoCount) };
}

/** DecisionPolicy.Allow: accepted yet, and whether more votes could change that. */
export function allow(policy: DecisionPolicy, tally: Tally, totalWeightText: string): DecisionPolicyResult {
  const totalWeight = parseNonNegativeDec(totalWeightText);
  const counted = tally.yes + tally.abstain + tally.no + tally.veto;
  const undecided = subNonNegative(totalWeight, counted);
  const maxYes = tally.yes + undecided;
  if (policy.kind === 'threshold') {
    // The effective threshold is min(threshold, total weight): members may have left since.
    const threshold = policy.value < totalWeight ? policy.value : totalWeight;
    if (tally.yes >= threshold) return { allow: true, final: true };
    if (maxYes < threshold) return { allow: false, final: true };
    return { allow: false, final: false };
  }
  if (totalWeight === DEC_ZERO) return { allow: false, final: true };
  if (quo(tally.yes, totalWeight) >= policy.value) return { allow: true, final: true };
  if (quo(maxYes, totalWeight) < policy.value) return { allow: false, final: true };
  return { allow: false, final: false };
}
