/** --gas and --gas-prices handling. */
import { TokendError } from '../../util/errors.js';
import { feeFromGasPrices, parseDecCoins, type CoinAmount } from './coins.js';
import { DEFAULT_GAS_LIMIT } from './tx.js';

export type GasSetting = { kind: 'auto' } | { kind: 'fixed'; limit: bigint };

/** "auto" | a positive integer | undefined (default 200000). */
export function parseGasSetting(value: string | undefined): GasSetting {
  if (value === undefined || value === '') return { kind: 'fixed', limit: DEFAULT_GAS_LIMIT };
  if (value === 'auto') return { kind: 'auto' };
  if (!/^\d+$/.test(value)) throw new TokendError('INVALID_ARGUMENT', `invalid --gas "${value}"`, { hint: 'use a positive integer or "auto"', exitCode: 2 });
  const limit = BigInt(value);
  if (limit === 0n) throw new TokendError('INVALID_ARGUMENT', '--gas must be positive', { exitCode: 2 });
  return { kind: 'fixed', limit };
}

export function feeFromGatewayPrices(gasPrices: string, gasLimit: bigint): CoinAmount[] {
  return feeFromGasPrices(parseDecCoins(gasPrices), gasLimit);
}
