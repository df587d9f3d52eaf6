/**
 * Coins with exact integer amounts (bigint), the SDK's sdk.Coin / sdk.Coins semantics.
 *
 * On the wire a Coin amount is the decimal text of a math.Int (at most 256 bits); in memory it is
 * a bigint, never a float. `Coins` lists are sorted by denom without duplicates; the String form
 * is "<amount><denom>" joined by ",", "" when empty (COMPAT §4).
 */
import { create } from '@bufbuild/protobuf';
import { CoinSchema, type Coin as ProtoCoin } from '../../../gen/cosmos/base/v1beta1/coin_pb.js';
import { SdkErrors, type SdkError } from './errors.js';

export interface Coin {
  readonly denom: string;
  readonly amount: bigint;
}

/** A decimal coin: value = atto / 10^18 (sdk.DecCoin with LegacyDec precision). */
export interface DecCoin {
  readonly denom: string;
  readonly atto: bigint;
}

export const DENOM_PATTERN = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
const INT_PATTERN = /^-?[0-9]+$/;
const DEC_COIN_PATTERN = /^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/;
/** math.Int allows 256 bits. */
const MAX_INT = (1n << 256n) - 1n;
export const DEC_PRECISION = 18;
export const DEC_ONE = 10n ** 18n;

export function isValidDenom(denom: string): boolean {
  return DENOM_PATTERN.test(denom);
}

/** sdk.ValidateDenom's error text, or undefined. */
export function denomError(denom: string): string | undefined {
  return isValidDenom(denom) ? undefined : `invalid denom: ${denom}`;
}

/** Parses a math.Int text ("-5", "1000"); undefined when malformed or over 256 bits. */
export function parseInt256(text: string): bigint | undefined {
  if (!INT_PATTERN.test(text)) return undefined;
  const value = BigInt(text);
  if (value > MAX_INT || value < -MAX_INT) return undefined;
  return value;
}

/** A protobuf Coin to a Coin; a malformed amount is ErrInvalidCoins. Empty amount reads as 0. */
export function coinFromProto(coin: { denom: string; amount: string }): Coin {
  const amount = coin.amount === '' ? 0n : parseInt256(coin.amount);
  if (amount === undefined) throw SdkErrors.InvalidCoins.wrap(`invalid coin amount: ${coin.amount}${coin.denom}`);
  return { denom: coin.denom, amount };
}

export function coinsFromProto(coins: readonly { denom: string; amount: string }[]): Coin[] {
  return coins.map(coinFromProto);
}

export function coinToProto(coin: Coin): ProtoCoin {
  return create(CoinSchema, { denom: coin.denom, amount: coin.amount.toString() });
}

export function coinsToProto(coins: readonly Coin[]): ProtoCoin[] {
  return coins.map(coinToProto);
}

export function coinToString(coin: Coin): string {
  return `${coin.amount}${coin.denom}`;
}

/** "1000attotoken,5stake"; "" when empty. */
export function coinsToString(coins: readonly Coin[]): string {
  return coins.map(coinToString).join(',');
}

/** sdk.Coins.Validate: the reason the list is invalid, or undefined. */
export function coinsError(coins: readonly Coin[]): string | undefined {
  if (coins.length === 0) return undefined;
  let previous: string | undefined;
  for (const coin of coins) {
    const bad = denomError(coin.denom);
    if (bad !== undefined) return bad;
    if (previous !== undefined) {
      if (coin.denom === previous) return `duplicate denomination ${coin.denom}`;
      if (coin.denom < previous) return `denomination ${coin.denom} is not sorted`;
    }
    if (coin.amount <= 0n) return `coin ${coinToString(coin)} amount is not positive`;
    previous = coin.denom;
  }
  return undefined;
}

export function isValidCoins(coins: readonly Coin[]): boolean {
  return coinsError(coins) === undefined;
}

/** ErrInvalidCoins wrapping the coins' string when the list is not valid and all positive. */
export function checkCoins(coins: readonly Coin[]): SdkError | undefined {
  return isValidCoins(coins) ? undefined : SdkErrors.InvalidCoins.wrap(coinsToString(coins));
}

export function compareDenoms(a: { denom: string }, b: { denom: string }): number {
  return a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0;
}

export function sortCoins(coins: readonly Coin[]): Coin[] {
  return [...coins].sort(compareDenoms);
}

export function amountOf(coins: readonly Coin[], denom: string): bigint {
  for (const coin of coins) if (coin.denom === denom) return coin.amount;
  return 0n;
}

export function isZeroCoins(coins: readonly Coin[]): boolean {
  return coins.every((coin) => coin.amount === 0n);
}

/** Sorted union with amounts added; zero results are dropped. */
export function addCoins(a: readonly Coin[], b: readonly Coin[]): Coin[] {
  const sums = new Map<string, bigint>();
  for (const coin of a) sums.set(coin.denom, (sums.get(coin.denom) ?? 0n) + coin.amount);
  for (const coin of b) sums.set(coin.denom, (sums.get(coin.denom) ?? 0n) + coin.amount);
  return [...sums.entries()].filter(([, amount]) => amount !== 0n).map(([denom, amount]) => ({ denom, amount })).sort(compareDenoms);
}

/** a − b, or undefined when any denom would go negative. */
export function subCoins(a: readonly Coin[], b: readonly Coin[]): Coin[] | undefined {
  const result = addCoins(a, b.map((coin) => ({ denom: coin.denom, amount: -coin.amount })));
  return result.some((coin) => coin.amount < 0n) ? undefined : result;
}

export function coinsEqual(a: readonly Coin[], b: readonly Coin[]): boolean {
  const x = addCoins(a, []);
  const y = addCoins(b, []);
  return x.length === y.length && x.every((coin, i) => coin.denom === y[i]!.denom && coin.amount === y[i]!.amount);
}

/** sdk.Coins.IsAnyGTE: some coin of `a` reaches the (non-zero) amount `b` asks for its denom. */
export function isAnyGTE(a: readonly Coin[], b: readonly Coin[]): boolean {
  if (b.length === 0) return false;
  for (const coin of a) {
    const wanted = amountOf(b, coin.denom);
    if (wanted !== 0n && coin.amount >= wanted) return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------- text

const COIN_TEXT_PATTERN = /^\s*([0-9]+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})\s*$/;

/**
 * The coin grammar (sdk.ParseCoinsNormalized): "1000attotoken,5stake" → Coins sorted by denom.
 * `allowZero` keeps zero amounts (fees); "" is [] only with `allowEmpty`. Throws ErrInvalidCoins
 * naming the offending part.
 */
export function parseCoins(text: string, options: { allowZero?: boolean; allowEmpty?: boolean } = {}): Coin[] {
  if (text.trim() === '') {
    if (options.allowEmpty) return [];
    throw SdkErrors.InvalidCoins.wrap('empty');
  }
  const coins = text.split(',').map((part) => {
    const match = COIN_TEXT_PATTERN.exec(part);
    if (match === null) throw SdkErrors.InvalidCoins.wrap(`"${part.trim()}" is not <integer><denom>`);
    const amount = parseInt256(match[1]!);
    if (amount === undefined) throw SdkErrors.InvalidCoins.wrap(`amount of ${match[2]} is out of range`);
    if (amount === 0n && !options.allowZero) throw SdkErrors.InvalidCoins.wrap(`amount of ${match[2]} must be positive`);
    return { denom: match[2]!, amount };
  });
  coins.sort(compareDenoms);
  for (let i = 1; i < coins.length; i++) if (coins[i]!.denom === coins[i - 1]!.denom) throw SdkErrors.InvalidCoins.wrap(`duplicate denom ${coins[i]!.denom}`);
  return coins;
}

// ------------------------------------------------------------------------------------- decimals

/** "0.025attotoken,1stake" → DecCoins (sorted); "" → []. Throws ErrInvalidCoins. */
export function parseDecCoins(text: string): DecCoin[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const coins = trimmed.split(',').map((part) => {
    const match = DEC_COIN_PATTERN.exec(part.trim());
    if (match === null) throw SdkErrors.InvalidCoins.wrap(`invalid decimal coin expression: ${part.trim()}`);
    return { denom: match[2]!, atto: decToAtto(match[1]!) };
  });
  coins.sort(compareDenoms);
  for (let i = 1; i < coins.length; i++) {
    if (coins[i]!.denom === coins[i - 1]!.denom) throw SdkErrors.InvalidCoins.wrap(`duplicate denomination ${coins[i]!.denom}`);
  }
  return coins;
}

/** "0.025" → 25 × 10^15. */
export function decToAtto(text: string): bigint {
  const [whole = '', fraction = ''] = text.split('.');
  if (fraction.length > DEC_PRECISION) throw SdkErrors.InvalidCoins.wrap(`too many decimal places in ${text}`);
  return BigInt(whole === '' ? '0' : whole) * DEC_ONE + BigInt((fraction === '' ? '0' : fraction).padEnd(DEC_PRECISION, '0'));
}

/** 25 × 10^15 → "0.025000000000000000" (LegacyDec String()). */
export function attoToDecString(atto: bigint): string {
  const negative = atto < 0n;
  const abs = negative ? -atto : atto;
  const whole = abs / DEC_ONE;
  const fraction = (abs % DEC_ONE).toString().padStart(DEC_PRECISION, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export function decCoinsToString(coins: readonly DecCoin[]): string {
  return coins.map((coin) => `${attoToDecString(coin.atto)}${coin.denom}`).join(',');
}

export function isZeroDecCoins(coins: readonly DecCoin[]): boolean {
  return coins.every((coin) => coin.atto === 0n);
}

/** ceil(price × gas) per denom (the SDK's required fee for a minimum gas price). */
export function requiredFees(prices: readonly DecCoin[], gas: bigint): Coin[] {
  return prices.map((price) => ({ denom: price.denom, amount: (price.atto * gas + DEC_ONE - 1n) / DEC_ONE }));
}
