import { CodecError, legacyDecFromWire, legacyDecToWire } from '../../../src/node/codec/index.js';

describe('LegacyDec wire <-> decimal', () => {
  it.each([
    ['50000000000000000', '0.050000000000000000'],
    ['1000000000000000000', '1.000000000000000000'],
    ['123456789000000000000', '123.456789000000000000'],
    ['1', '0.000000000000000001'],
    ['0', '0.000000000000000000'],
    ['-2500000000000000000', '-2.500000000000000000'],
  ])('%s <-> %s', (wire, decimal) => {
    expect(legacyDecFromWire(wire)).toBe(decimal);
    expect(legacyDecToWire(decimal)).toBe(wire);
  });

  it('reads short decimals and integers', () => {
    expect(legacyDecToWire('0.05')).toBe('50000000000000000');
    expect(legacyDecToWire('2')).toBe('2000000000000000000');
    expect(legacyDecToWire('.5')).toBe('500000000000000000');
    expect(legacyDecToWire('-0')).toBe('0');
    expect(legacyDecFromWire('')).toBe('0.000000000000000000');
  });

  it('rejects more than 18 fractional digits and non-numbers', () => {
    expect(() => legacyDecToWire('0.0000000000000000001')).toThrow(CodecError);
    expect(() => legacyDecToWire('abc')).toThrow("invalid decimal 'abc'");
    expect(() => legacyDecToWire('')).toThrow(CodecError);
    expect(() => legacyDecFromWire('1.5')).toThrow(/expected an integer scaled by 10\^18/);
  });
});
