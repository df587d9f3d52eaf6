/**
 * The mint rule, as pure functions over LegacyDec (bigint × 10^18, modules/shared/dec.ts):
 *
 *   minted(h)      = TruncateInt(inflation × supply(mint_denom))   for h ≥ start_height, else 0
 *   annual         = (1 + inflation)^blocks_per_year − 1           (LegacyDec.Power, then Sub)
 *   allocation(i)  = TruncateInt(rate_i × minted)                  paid to address_i
 *   fee collector  = minted − Σ allocation(i)
 *
 * The supply read each block already includes every earlier block's mint, so the rate compounds
 * per block. Why this reading of `inflation` is the right one: see this module's README.
 */
import { DEC_ONE, decMul, decMulInt, decTruncate, type Dec } from '../shared/dec.js';

/**
 * `base` to the power `exponent` as LegacyDec.Power does it: square-and-multiply, each product
 * rounded to 18 digits (half to even), so the result matches the SDK's to the last digit.
 */
export function decPow(base: Dec, exponent: bigint): Dec {
  if (exponent < 0n) throw new RangeError('negative exponent');
  if (exponent === 0n) return DEC_ONE;
  let result = DEC_ONE;
  let square = base;
  let remaining = exponent;
  while (remaining > 1n) {
    if (remaining % 2n === 1n) result = decMul(result, square);
    remaining /= 2n;
    square = decMul(square, square);
  }
  return decMul(square, result);
}

/** Whether block `height` mints under `startHeight`. */
export function mintsAt(height: number | bigint, startHeight: bigint): boolean {
  return BigInt(height) >= startHeight;
}

/** Coins minted by one block: the per-block rate times the current supply, truncated. */
export function blockProvision(inflation: Dec, supply: bigint): bigint {
  if (inflation <= 0n || supply <= 0n) return 0n;
  return decTruncate(decMulInt(inflation, supply));
}

/** The annual inflation the per-block rate compounds to over `blocksPerYear` blocks. */
export function annualInflation(inflation: Dec, blocksPerYear: bigint): Dec {
  if (inflation === 0n || blocksPerYear === 0n) return 0n;
  return decPow(DEC_ONE + inflation, blocksPerYear) - DEC_ONE;
}

/** One allocation's share of `minted`, truncated. */
export function allocationShare(rate: Dec, minted: bigint): bigint {
  return decTruncate(decMulInt(rate, minted));
}
