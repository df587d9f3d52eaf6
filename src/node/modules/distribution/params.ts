/** x/distribution params: this chain's defaults (the SDK's) and ValidateBasic. */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { DEC_ONE, decFromWire, decToString } from '../shared/dec.js';

export type DistributionParams = Params;

const percent = (n: bigint): string => ((DEC_ONE * n) / 100n).toString();

export function defaultDistributionParams(): DistributionParams {
  return create(ParamsSchema, { communityTax: percent(2n), baseProposerReward: percent(1n), bonusProposerReward: percent(4n), withdrawAddrEnabled: true });
}

export function validateDistributionParams(params: DistributionParams): string[] {
  const problems: string[] = [];
  const values: [string, string][] = [
    ['community tax', params.communityTax],
    ['base proposer reward', params.baseProposerReward],
    ['bonus proposer reward', params.bonusProposerReward],
  ];
  let sum = 0n;
  for (const [name, text] of values) {
    const value = decFromWire(text);
    if (value === undefined) problems.push(`invalid ${name}: ${text}`);
    else if (value < 0n) problems.push(`${name} must be positive: ${decToString(value)}`);
    else if (value > DEC_ONE) problems.push(`${name} too large: ${decToString(value)}`);
    else sum += value;
  }
  if (problems.length === 0 && sum > DEC_ONE) problems.push('sum of base, bonus proposer rewards, and community tax cannot be greater than one');
  return problems;
}
