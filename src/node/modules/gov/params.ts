/** x/gov v1 params (SDK 0.47): defaults and Params.ValidateBasic's texts. */
import { create } from '@bufbuild/protobuf';
import { durationFromMs, type Duration } from '@bufbuild/protobuf/wkt';
import { ParamsSchema, type Params } from '../../../gen/cosmos/gov/v1/gov_pb.js';
import { legacyDecToWire } from '../../codec/decimal.js';
import { coinsError, coinsFromProto, type Coin } from '../shared/coins.js';
import { DEC_ONE, type Dec } from '../shared/dec.js';

export type GovParams = Params;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The SDK's default min deposit amount (10 000 000 of the bond denom). */
export const DEFAULT_MIN_DEPOSIT = 10_000_000n;

export function defaultGovParams(denom: string): GovParams {
  return create(ParamsSchema, {
    minDeposit: [{ denom, amount: DEFAULT_MIN_DEPOSIT.toString() }],
    maxDepositPeriod: durationFromMs(2 * DAY_MS),
    votingPeriod: durationFromMs(2 * DAY_MS),
    quorum: '0.334000000000000000',
    threshold: '0.500000000000000000',
    vetoThreshold: '0.334000000000000000',
    minInitialDepositRatio: '0.000000000000000000',
    burnVoteQuorum: false,
    burnProposalDepositPrevote: false,
    burnVoteVeto: true,
  });
}

/** A decimal text ("0.5") as a Dec; undefined when malformed. */
export function parseDec(text: string): Dec | undefined {
  try {
    return BigInt(legacyDecToWire(text));
  } catch {
    return undefined;
  }
}

/** A Dec parameter: the parsed value, or throws the problem text. */
export function decParam(text: string): Dec {
  const value = parseDec(text);
  if (value === undefined) throw new Error(`invalid decimal string: ${JSON.stringify(text)}`);
  return value;
}

export function durationMs(duration: Duration | undefined): number {
  if (duration === undefined) return 0;
  return Number(duration.seconds) * 1000 + Math.floor(duration.nanos / 1_000_000);
}

export function minDeposit(params: GovParams): Coin[] {
  return coinsFromProto(params.minDeposit);
}

export function validateGovParams(params: GovParams): string[] {
  const problems: string[] = [];
  const badCoins = coinsError(coinsFromProto(params.minDeposit));
  if (badCoins !== undefined) problems.push(`invalid minimum deposit: ${badCoins}`);
  const ratio = parseDec(params.minInitialDepositRatio);
  if (ratio === undefined) problems.push(`invalid minimum initial deposit ratio of proposal: ${params.minInitialDepositRatio}`);
  else if (ratio < 0n) problems.push(`minimum initial deposit ratio of proposal must be positive: ${params.minInitialDepositRatio}`);
  else if (ratio > DEC_ONE) problems.push(`minimum initial deposit ratio of proposal is too large: ${params.minInitialDepositRatio}`);
  const quorum = parseDec(params.quorum);
  if (quorum === undefined) problems.push(`invalid quorum string: ${params.quorum}`);
  else if (quorum < 0n) problems.push(`quorom cannot be negative: ${params.quorum}`);
  else if (quorum > DEC_ONE) problems.push(`quorom too large: ${params.quorum}`);
  const threshold = parseDec(params.threshold);
  if (threshold === undefined) problems.push(`invalid threshold string: ${params.threshold}`);
  else if (threshold <= 0n) problems.push(`vote threshold must be positive: ${params.threshold}`);
  else if (threshold > DEC_ONE) problems.push(`vote threshold too large: ${params.threshold}`);
  const veto = parseDec(params.vetoThreshold);
  if (veto === undefined) problems.push(`invalid vetoThreshold string: ${params.vetoThreshold}`);
  else if (veto <= 0n) problems.push(`veto threshold must be positive: ${params.vetoThreshold}`);
  else if (veto > DEC_ONE) problems.push(`veto threshold too large: ${params.vetoThreshold}`);
  if (params.maxDepositPeriod === undefined) problems.push('maximum deposit period must not be nil');
  else if (durationMs(params.maxDepositPeriod) <= 0) problems.push(`maximum deposit period must be positive: ${durationMs(params.maxDepositPeriod)}ms`);
  if (params.votingPeriod === undefined) problems.push('voting period must not be nil');
  else if (durationMs(params.votingPeriod) <= 0) problems.push(`voting period must be positive: ${durationMs(params.votingPeriod)}ms`);
  return problems;
}
