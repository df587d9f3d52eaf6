/** Parsing coin strings typed by users: "1000attotoken", "1000attotoken,5stake", "0.025attotoken". */
import { TokendError } from '../../util/errors.js';

export interface CoinAmount {
  denom: string;
  amount: bigint;
}

/** A decimal coin kept exact: value = numerator / 10^18. */
export interface DecCoinAmount {
  denom: string;
  /** amount × 10^18 */
  atto: bigint;
}

export const DENOM_PATTERN = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
const COIN_PATTERN = /^(\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/;
const DEC_COIN_PATTERN = /^(\d+(?:\.\d+)?|\.\d+)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/;
const DEC_PRECISION = 18;

function invalidCoins(input: string, why: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', `invalid coins "${input}": ${why}`, { hint: 'use <amount><denom>, e.g. 1000attotoken or 1000attotoken,5stake' });
}

/** Parse "1000attotoken,5stake" into coins sorted by denom (no duplicates, no zero amounts). */
export function parseCoins(input: string, options: { allowZero?: boolean; allowEmpty?: boolean } = {}): CoinAmount[] {
  const text = input.trim();
  if (text === '') {
    if (options.allowEmpty) return [];
    throw invalidCoins(input, 'empty');
  }
  const coins = text.split(',').map((part) => {
    const match = COIN_PATTERN.exec(part.trim());
    if (!match) throw invalidCoins(input, `"${part.trim()}" is not <integer><denom>`);
    const amount = BigInt(match[1]!);
    if (amount === 0n && !options.allowZero) throw invalidCoins(input, `amount of ${match[2]} must be positive`);
    return { denom: match[2]!, amount };
  });
  coins.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
  for (let i = 1; i < coins.length; i++) if (coins[i]!.denom === coins[i - 1]!.denom) throw invalidCoins(input, `duplicate denom ${coins[i]!.denom}`);
  return coins;
}

export function parseDecCoins(input: string): DecCoinAmount[] {
  const text = input.trim();
  if (text === '') return [];
  return text.split(',').map((part) => {
    const match = DEC_COIN_PATTERN.exec(part.trim());
    if (!match) throw invalidCoins(input, `"${part.trim()}" is not <decimal><denom>`);
    const [whole = '0', frac = ''] = match[1]!.split('.');
    if (frac.length > DEC_PRECISION) throw invalidCoins(input, `more than ${DEC_PRECISION} decimal places`);
    const atto = BigInt(whole || '0') * 10n ** BigInt(DEC_PRECISION) + BigInt((frac || '0').padEnd(DEC_PRECISION, '0'));
    return { denom: match[2]!, atto };
  });
}

/** fee = ceil(price × gas) per denom. */
export function feeFromGasPrices(prices: DecCoinAmount[], gas: bigint): CoinAmount[] {
  const scale = 10n ** BigInt(DEC_PRECISION);
  return prices
    .map((price) => ({ denom: price.denom, amount: (price.atto * gas + scale - 1n) / scale }))
    .filter((coin) => coin.amount > 0n)
    .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
}

export function formatCoins(coins: CoinAmount[]): string {
  return coins.map((coin) => `${coin.amount}${coin.denom}`).join(',');
}
