/**
 * Coin strings typed by users ("1000attotoken", "1000attotoken,5stake", "0.025attotoken"): the
 * node's one coin grammar (modules/shared/coins.ts), with errors worded for the command line.
 */
import { TokendError } from '../../util/errors.js';
import { isSdkError } from '../modules/shared/errors.js';
import {
  DENOM_PATTERN,
  coinsToString,
  parseCoins as parseCoinsText,
  parseDecCoins as parseDecCoinsText,
  requiredFees,
  type Coin,
  type DecCoin,
} from '../modules/shared/coins.js';

export { DENOM_PATTERN };
export type CoinAmount = Coin;
/** A decimal coin kept exact: value = atto / 10^18. */
export type DecCoinAmount = DecCoin;

function userInput<T>(input: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const why = isSdkError(err) ? err.wraps.join(': ') : err instanceof Error ? err.message : String(err);
    throw new TokendError('INVALID_ARGUMENT', `invalid coins "${input}": ${why}`, { hint: 'use <amount><denom>, e.g. 1000attotoken or 1000attotoken,5stake' });
  }
}

/** Parse "1000attotoken,5stake" into coins sorted by denom (no duplicates, no zero amounts). */
export function parseCoins(input: string, options: { allowZero?: boolean; allowEmpty?: boolean } = {}): CoinAmount[] {
  return userInput(input, () => parseCoinsText(input, options));
}

export function parseDecCoins(input: string): DecCoinAmount[] {
  return userInput(input, () => parseDecCoinsText(input));
}

/** fee = ceil(price × gas) per denom (zero amounts dropped). */
export function feeFromGasPrices(prices: DecCoinAmount[], gas: bigint): CoinAmount[] {
  return requiredFees(prices, gas).filter((coin) => coin.amount > 0n);
}

export function formatCoins(coins: readonly CoinAmount[]): string {
  return coinsToString(coins);
}
