/**
 * The decimals of x/group (member weights, thresholds, percentages, tallies): exact decimal
 * strings such as "1", "2.5", "0.51". They are kept as a bigint scaled by 10^SCALE; SCALE digits
 * after the point are enough for any weight a group stores (the SDK's apd context has 34 digits
 * of precision). Text output is the shortest exact form ("3", "1.5").
 */
import { GroupMathErrors } from './errors.js';

const SCALE = 34;
const ONE = 10n ** BigInt(SCALE);

export type GroupDec = bigint;

export const DEC_ZERO: GroupDec = 0n;

/** Parses a decimal; throws math/1 "invalid decimal string" on anything else. */
export function parseDec(text: string): GroupDec {
  const match = /^([+-]?)([0-9]+)(?:\.([0-9]+))?$/.exec(text) ?? /^([+-]?)()\.([0-9]+)$/.exec(text);
  if (match === null) throw GroupMathErrors.InvalidDecString.wrap(`'${text}'`);
  const fraction = match[3] ?? '';
  if (fraction.length > SCALE) throw GroupMathErrors.InvalidDecString.wrap(`'${text}' has more than ${SCALE} decimal places`);
  const value = BigInt(match[2] === '' ? '0' : match[2]!) * ONE + BigInt(fraction === '' ? '0' : fraction.padEnd(SCALE, '0'));
  return match[1] === '-' ? -value : value;
}

/** A decimal greater than zero (NewPositiveDecFromString). */
export function parsePositiveDec(text: string): GroupDec {
  const value = parseDec(text);
  if (value <= 0n) throw GroupMathErrors.InvalidDecString.wrap(`expected a positive decimal, got ${text}`);
  return value;
}

/** A decimal of zero or more (NewNonNegativeDecFromString). */
export function parseNonNegativeDec(text: string): GroupDec {
  const value = parseDec(text);
  if (value < 0n) throw GroupMathErrors.InvalidDecString.wrap(`expected a non-negative decimal, got ${text}`);
  return value;
}

/** a − b, refused when negative (math.SubNonNegative). */
export function subNonNegative(a: GroupDec, b: GroupDec): GroupDec {
  const result = a - b;
  if (result < 0n) throw GroupMathErrors.InvalidDecString.wrap(`result negative during non-negative subtraction`);
  return result;
}

/** a / b to SCALE places (b > 0). */
export function quo(a: GroupDec, b: GroupDec): GroupDec {
  return (a * ONE) / b;
}

export function decString(value: GroupDec): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / ONE;
  const fraction = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
