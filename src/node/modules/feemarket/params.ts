/**
 * Fee market parameters (Ethermint v0.22 defaults): base fee 1 gwei (10^9), change denominator
 * 8, elasticity 2, enabled from height 0, min_gas_price 0, min_gas_multiplier 0.5. Dec fields
 * hold the SDK's wire form (the 10^18-scaled integer as text).
 */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../gen/ethermint/feemarket/v1/feemarket_pb.js';

export type FeeMarketParams = Params;

export const DEC_ONE = 10n ** 18n;

export function defaultFeeMarketParams(): FeeMarketParams {
  return create(ParamsSchema, {
    noBaseFee: false,
    baseFeeChangeDenominator: 8,
    elasticityMultiplier: 2,
    enableHeight: 0n,
    baseFee: '1000000000',
    minGasPrice: '0',
    minGasMultiplier: (DEC_ONE / 2n).toString(),
  });
}

/** A Dec field's wire form → its 10^18-scaled integer. */
export function decAtto(wire: string): bigint {
  return wire === '' ? 0n : BigInt(wire);
}

export function validateFeeMarketParams(params: FeeMarketParams): string[] {
  const problems: string[] = [];
  if (params.baseFeeChangeDenominator === 0) problems.push('base fee change denominator cannot be 0');
  if (params.elasticityMultiplier === 0) problems.push('elasticity multiplier cannot be 0');
  if (params.enableHeight < 0n) problems.push(`enable height cannot be negative: ${params.enableHeight}`);
  if (!/^[0-9]*$/.test(params.baseFee)) problems.push(`base fee cannot be negative or non-integer: ${params.baseFee}`);
  if (!/^[0-9]*$/.test(params.minGasPrice)) problems.push(`invalid parameter: min gas price cannot be negative: ${params.minGasPrice}`);
  if (!/^[0-9]*$/.test(params.minGasMultiplier) || decAtto(params.minGasMultiplier) > DEC_ONE) problems.push(`invalid parameter: min gas multiplier must be between 0 and 1: ${params.minGasMultiplier}`);
  return problems;
}
