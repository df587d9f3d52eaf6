/** Coins and decimals with bigint semantics of sdk.Coins / LegacyDec. */
import { addCoins, coinsError, coinsToString, decCoinsToString, isAnyGTE, parseDecCoins, requiredFees, subCoins } from '../../../src/node/modules/shared/coins.js';
import { decFromWire, decFromWireBytes, decMul, decQuo, decToString } from '../../../src/node/modules/shared/dec.js';

describe('coins', () => {
  test('String form is sorted amount+denom joined by commas, "" when empty', () => {
    expect(coinsToString(addCoins([{ denom: 'stake', amount: 5n }], [{ denom: 'aphoton', amount: 10n ** 18n }]))).toBe('1000000000000000000aphoton,5stake');
    expect(coinsToString([])).toBe('');
  });

  test('validation texts', () => {
    expect(coinsError([{ denom: 'x', amount: 1n }])).toBe('invalid denom: x');
    expect(coinsError([{ denom: 'abc', amount: 0n }])).toBe('coin 0abc amount is not positive');
    expect(coinsError([{ denom: 'bcd', amount: 1n }, { denom: 'abc', amount: 1n }])).toBe('denomination abc is not sorted');
    expect(coinsError([{ denom: 'abc', amount: 1n }, { denom: 'abc', amount: 1n }])).toBe('duplicate denomination abc');
    expect(coinsError([{ denom: 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2', amount: 1n }])).toBeUndefined();
  });

  test('arithmetic stays exact beyond 2^53', () => {
    const big = 2n ** 200n;
    expect(subCoins([{ denom: 'abc', amount: big }], [{ denom: 'abc', amount: big - 1n }])).toEqual([{ denom: 'abc', amount: 1n }]);
    expect(subCoins([{ denom: 'abc', amount: 1n }], [{ denom: 'abc', amount: 2n }])).toBeUndefined();
  });

  test('minimum gas prices: fee = ceil(price × gas), any denom suffices', () => {
    const prices = parseDecCoins('0.025attotoken,1stake');
    expect(decCoinsToString(prices)).toBe('0.025000000000000000attotoken,1.000000000000000000stake');
    expect(requiredFees(prices, 200_001n)).toEqual([{ denom: 'attotoken', amount: 5001n }, { denom: 'stake', amount: 200_001n }]);
    expect(isAnyGTE([{ denom: 'attotoken', amount: 5001n }], requiredFees(prices, 200_001n))).toBe(true);
    expect(isAnyGTE([{ denom: 'attotoken', amount: 5000n }], requiredFees(prices, 200_001n))).toBe(false);
    expect(isAnyGTE([], requiredFees(prices, 1n))).toBe(false);
    expect(() => parseDecCoins('abc')).toThrow('invalid decimal coin expression: abc');
  });
});

describe('LegacyDec', () => {
  test('wire form, string form, rounding half to even', () => {
    expect(decToString(decFromWire('100000000000000000')!)).toBe('0.100000000000000000');
    expect(decToString(decQuo(10n ** 18n, 3n * 10n ** 18n))).toBe('0.333333333333333333');
    expect(decToString(decQuo(2n * 10n ** 18n, 3n * 10n ** 18n))).toBe('0.666666666666666667');
    expect(decMul(5n, 10n ** 17n)).toBe(0n); // 5e-18 × 0.1 = 5e-19 → rounds half to even (0)
    expect(decMul(15n, 10n ** 17n)).toBe(2n); // 1.5e-18 → 2e-18
  });

  test('wire form read from bytes (the tally\'s path) is what the text reads as, malformed and oversized included', () => {
    const texts = ['', '0', '7', '000123', '1000000000000000000', '123456789012345', '1234567890123456', '9'.repeat(30), '1'.repeat(77), '9'.repeat(77), '9'.repeat(78), '1'.repeat(78), '2'.repeat(80), '-5', '-0', '1.5', '12a4', ' 12', '+3', '١٢'];
    for (const text of texts) {
      const framed = new TextEncoder().encode(`xy${text}z`);
      expect([text, decFromWireBytes(framed, 2, framed.length - 1)]).toEqual([text, decFromWire(text)]);
    }
  });
});

describe('the coin grammar (one for the node and the CLI)', () => {
  test('parseCoins sorts, refuses duplicates, zero amounts (unless allowed), bad parts and empty text', async () => {
    const { parseCoins } = await import('../../../src/node/modules/shared/coins.js');
    const { parseCoins: parseCli } = await import('../../../src/node/client/coins.js');
    expect(parseCoins('5stake,1000attotoken')).toEqual([{ denom: 'attotoken', amount: 1000n }, { denom: 'stake', amount: 5n }]);
    expect(() => parseCoins('1abc,2abc')).toThrow('duplicate denom abc: invalid coins');
    expect(() => parseCoins('0abc')).toThrow('amount of abc must be positive: invalid coins');
    expect(parseCoins('0abc', { allowZero: true })).toEqual([{ denom: 'abc', amount: 0n }]);
    expect(() => parseCoins('1.5abc')).toThrow('"1.5abc" is not <integer><denom>: invalid coins');
    expect(parseCoins(' ', { allowEmpty: true })).toEqual([]);
    // The CLI's wording of the same failure: one line with the input and a hint.
    expect(() => parseCli('1.5abc')).toThrow('invalid coins "1.5abc": "1.5abc" is not <integer><denom>');
  });
});
