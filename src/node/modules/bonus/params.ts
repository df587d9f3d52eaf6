/**
 * aioz.bonus.v1 Params: defaults and validation (one line per problem). The default amount is the
 * testnet's, 4 753 213 172 104 342 535 base units a block (its pool held that times 51 840, the
 * mint's start height); a new chain's pool is empty until its genesis funds the bonus module
 * account, so by default nothing is paid.
 */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../gen/aioz/bonus/v1/params_pb.js';
import { denomError, parseInt256 } from '../shared/coins.js';

export type BonusParams = Params;

export const DEFAULT_BONUS_AMOUNT = 4_753_213_172_104_342_535n;

export function defaultBonusParams(denom: string): BonusParams {
  return create(ParamsSchema, { bonusDenom: denom, bonusAmount: DEFAULT_BONUS_AMOUNT.toString() });
}

/** The per-block amount; "" reads as zero (a Go zero Int), undefined when malformed. */
export function bonusAmountOf(params: BonusParams): bigint | undefined {
  return params.bonusAmount === '' ? 0n : parseInt256(params.bonusAmount);
}

export function validateBonusParams(params: BonusParams): string[] {
  const problems: string[] = [];
  const badDenom = denomError(params.bonusDenom);
  if (badDenom !== undefined) problems.push(`bonus denom: ${badDenom}`);
  const amount = bonusAmountOf(params);
  if (amount === undefined) problems.push(`bonus amount is not an integer: ${params.bonusAmount}`);
  else if (amount < 0n) problems.push(`bonus amount cannot be negative: ${amount}`);
  return problems;
}
