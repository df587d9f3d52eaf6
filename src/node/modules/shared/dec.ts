/**
 * math.LegacyDec as a bigint scaled by 10^18. On the protobuf wire a LegacyDec is the decimal
 * text of that scaled integer ("50000000000000000" = 0.05; codec/decimal.ts converts to the
 * JSON form). Arithmetic follows the SDK: Mul/Quo round half to even at 18 digits
 * (chopPrecisionAndRound); MulInt/QuoInt are exact/truncating integer operations.
 */
import { DEC_ONE, parseInt256 } from './coins.js';

export type Dec = bigint;

export const DEC_ZERO: Dec = 0n;
export { DEC_ONE };

/** Wire text → Dec; undefined when malformed. "" reads as zero. */
export function decFromWire(text: string): Dec | undefined {
  if (text === '') return 0n;
  return parseInt256(text);
}

const DIGITS_PER_NUMBER = 15;
const NUMBER_SCALE = 10n ** 15n;

/**
 * `decFromWire` of the text in bytes[start, end) without making the string: hot scans (the gov
 * tally reads 100k delegation shares). Plain digit runs of up to 77 digits (below 2^256) are
 * read 15 digits at a time; anything else goes through `decFromWire`, so results are the same.
 */
export function decFromWireBytes(bytes: Uint8Array, start: number, end: number): Dec | undefined {
  const length = end - start;
  if (length > 0 && length <= 77) {
    let at = start;
    let value = 0n;
    let ok = true;
    for (let run = length % DIGITS_PER_NUMBER || DIGITS_PER_NUMBER; at < end && ok; run = DIGITS_PER_NUMBER) {
      let part = 0;
      for (const stop = at + run; at < stop; at++) {
        const digit = bytes[at]! - 48;
        if (digit < 0 || digit > 9) {
          ok = false;
          break;
        }
        part = part * 10 + digit;
      }
      value = value === 0n ? BigInt(part) : value * NUMBER_SCALE + BigInt(part);
    }
    if (ok) return value;
  }
  return decFromWire(textDecoder.decode(bytes.subarray(start, end)));
}

const textDecoder = new TextDecoder();

export function decToWire(value: Dec): string {
  return value.toString();
}

export function decFromInt(value: bigint): Dec {
  return value * DEC_ONE;
}

/** Truncates toward zero to an integer (TruncateInt). */
export function decTruncate(value: Dec): bigint {
  return value / DEC_ONE;
}

const DEC_HALF = DEC_ONE / 2n;
const DEC_ONE_SQUARED = DEC_ONE * DEC_ONE;

/** Round half to even, dropping 18 digits (chopPrecisionAndRound). */
function chopAndRound(value: bigint): bigint {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const quotient = abs / DEC_ONE;
  const remainder = abs - quotient * DEC_ONE;
  let rounded = quotient;
  if (remainder > DEC_HALF || (remainder === DEC_HALF && (quotient & 1n) === 1n)) rounded = quotient + 1n;
  return negative ? -rounded : rounded;
}

export function decMul(a: Dec, b: Dec): Dec {
  return chopAndRound(a * b);
}

export function decQuo(a: Dec, b: Dec): Dec {
  if (b === 0n) throw new RangeError('division by zero');
  return chopAndRound((a * DEC_ONE_SQUARED) / b);
}

export function decMulInt(a: Dec, i: bigint): Dec {
  return a * i;
}

export function decQuoInt(a: Dec, i: bigint): Dec {
  if (i === 0n) throw new RangeError('division by zero');
  return a / i;
}

/** "0.100000000000000000" (LegacyDec String()). */
export function decToString(value: Dec): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / DEC_ONE}.${(abs % DEC_ONE).toString().padStart(18, '0')}`;
}
