/**
 * Cosmos `LegacyDec` (math.LegacyDec, scalar "cosmos.Dec") conversions.
 *
 * On the protobuf wire a LegacyDec is the base-10 text of the integer value x 10^18
 * ("50000000000000000" = 0.05); in JSON (gateway and Amino) it is a decimal with exactly 18
 * fractional digits ("0.050000000000000000").
 */
import { CodecError } from './errors.js';

/** Fractional digits of a LegacyDec. */
export const LEGACY_DEC_PRECISION = 18;

const WIRE_PATTERN = /^-?\d+$/;
const DECIMAL_PATTERN = /^(-)?(\d*)(?:\.(\d*))?$/;

/** Wire text ("50000000000000000") to decimal text ("0.050000000000000000"); "" reads as zero. */
export function legacyDecFromWire(wire: string): string {
  if (wire === '') return `0.${'0'.repeat(LEGACY_DEC_PRECISION)}`;
  if (!WIRE_PATTERN.test(wire)) {
    throw new CodecError('INVALID_BYTES', `invalid decimal '${wire}': expected an integer scaled by 10^18`, {
      value: wire,
    });
  }
  const negative = wire.startsWith('-');
  const digits = (negative ? wire.slice(1) : wire).replace(/^0+/, '').padStart(LEGACY_DEC_PRECISION + 1, '0');
  const integerPart = digits.slice(0, -LEGACY_DEC_PRECISION);
  const fraction = digits.slice(-LEGACY_DEC_PRECISION);
  const isZero = /^0+$/.test(digits);
  return `${negative && !isZero ? '-' : ''}${integerPart}.${fraction}`;
}

/**
 * Decimal text ("0.05", "1", "-2.5") to wire text ("50000000000000000"). More than 18
 * fractional digits is an error, as it is for the SDK.
 */
export function legacyDecToWire(decimal: string): string {
  const match = DECIMAL_PATTERN.exec(decimal.trim());
  const integerPart = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (match === null || (integerPart === '' && fraction === '')) {
    throw new CodecError('INVALID_JSON', `invalid decimal '${decimal}': expected digits with an optional '.' fraction`, {
      value: decimal,
    });
  }
  if (fraction.length > LEGACY_DEC_PRECISION) {
    throw new CodecError(
      'INVALID_JSON',
      `invalid decimal '${decimal}': more than ${LEGACY_DEC_PRECISION} fractional digits`,
      { value: decimal },
    );
  }
  const digits = `${integerPart}${fraction.padEnd(LEGACY_DEC_PRECISION, '0')}`.replace(/^0+/, '');
  if (digits === '') return '0';
  return match[1] === '-' ? `-${digits}` : digits;
}
