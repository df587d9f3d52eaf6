/**
 * sdk.DecCoins over LegacyDec bigints (10^18-scaled): sorted by denom, no zero entries, with the
 * SDK's arithmetic (Add, Sub, MulDec rounding, MulDecTruncate, QuoDecTruncate, Intersect,
 * TruncateDecimal). On the wire a DecCoin's amount is the scaled integer's text.
 */
import { create } from '@bufbuild/protobuf';
import { DecCoinSchema, type DecCoin as ProtoDecCoin } from '../../../gen/cosmos/base/v1beta1/coin_pb.js';
import type { Coin } from '../shared/coins.js';
import { DEC_ONE, decFromInt, decMul, type Dec } from '../shared/dec.js';

export interface DecCoin {
  denom: string;
  amount: Dec;
}

export type DecCoins = readonly DecCoin[];

function normalize(map: Map<string, Dec>): DecCoin[] {
  return [...map.entries()]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([denom, amount]) => ({ denom, amount }));
}

function toMap(coins: DecCoins): Map<string, Dec> {
  return new Map(coins.map((coin) => [coin.denom, coin.amount]));
}

export function decCoinsAdd(a: DecCoins, b: DecCoins): DecCoin[] {
  const map = toMap(a);
  for (const coin of b) map.set(coin.denom, (map.get(coin.denom) ?? 0n) + coin.amount);
  return normalize(map);
}

/** a - b; throws when a result would be negative (the SDK panics). */
export function decCoinsSub(a: DecCoins, b: DecCoins): DecCoin[] {
  const map = toMap(a);
  for (const coin of b) {
    const next = (map.get(coin.denom) ?? 0n) - coin.amount;
    if (next < 0n) throw new Error(`negative coin amount: ${coin.denom}`);
    map.set(coin.denom, next);
  }
  return normalize(map);
}

export function decCoinsMulDec(coins: DecCoins, d: Dec): DecCoin[] {
  return normalize(new Map(coins.map((coin) => [coin.denom, decMul(coin.amount, d)])));
}

export function decCoinsMulDecTruncate(coins: DecCoins, d: Dec): DecCoin[] {
  return normalize(new Map(coins.map((coin) => [coin.denom, (coin.amount * d) / DEC_ONE])));
}

export function decCoinsQuoDecTruncate(coins: DecCoins, d: Dec): DecCoin[] {
  if (d === 0n) throw new RangeError('division by zero');
  return normalize(new Map(coins.map((coin) => [coin.denom, (coin.amount * DEC_ONE) / d])));
}

/** Per denom the smaller amount (denoms in both). */
export function decCoinsIntersect(a: DecCoins, b: DecCoins): DecCoin[] {
  const other = toMap(b);
  return normalize(new Map(a.map((coin) => [coin.denom, coin.amount < (other.get(coin.denom) ?? 0n) ? coin.amount : (other.get(coin.denom) ?? 0n)])));
}

/** Integer coins and the decimal change. */
export function decCoinsTruncate(coins: DecCoins): { coins: Coin[]; change: DecCoin[] } {
  const whole: Coin[] = [];
  const change = new Map<string, Dec>();
  for (const coin of coins) {
    const integer = coin.amount / DEC_ONE;
    if (integer > 0n) whole.push({ denom: coin.denom, amount: integer });
    change.set(coin.denom, coin.amount - integer * DEC_ONE);
  }
  return { coins: whole, change: normalize(change) };
}

export function decCoinsFromCoins(coins: readonly Coin[]): DecCoin[] {
  return normalize(new Map(coins.map((coin) => [coin.denom, decFromInt(coin.amount)])));
}

export function isZeroDecCoins(coins: DecCoins): boolean {
  return coins.every((coin) => coin.amount === 0n);
}

export function decCoinsFromProto(coins: readonly ProtoDecCoin[]): DecCoin[] {
  return normalize(new Map(coins.map((coin) => [coin.denom, coin.amount === '' ? 0n : BigInt(coin.amount)])));
}

export function decCoinsToProto(coins: DecCoins): ProtoDecCoin[] {
  return coins.map((coin) => create(DecCoinSchema, { denom: coin.denom, amount: coin.amount.toString() }));
}

export function decCoinsToString(coins: DecCoins): string {
  return coins.map((coin) => `${coin.amount / DEC_ONE}.${(coin.amount % DEC_ONE).toString().padStart(18, '0')}${coin.denom}`).join(',');
}
