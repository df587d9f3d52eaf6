/** `start --unsafe-skip-upgrades`: comma-separated positive heights, anything else one usage line. */
import { describe, expect, test } from '@jest/globals';
import { parseSkipHeights } from '../../src/commands/start.js';
import { resolveAppOptions } from '../../src/node/app/options.js';

describe('--unsafe-skip-upgrades', () => {
  test('parses heights; absent is undefined', () => {
    expect(parseSkipHeights(undefined)).toBeUndefined();
    expect(parseSkipHeights('1000')).toEqual([1000]);
    expect(parseSkipHeights(' 1000 , 2000,')).toEqual([1000, 2000]);
  });

  test.each(['abc', '0', '-5', '1.5', '10,x', '99999999999999999999'])('refuses %p with one line naming it', (text) => {
    expect(() => parseSkipHeights(text)).toThrow(/^invalid --unsafe-skip-upgrades height ".*": expected comma-separated positive integers, e\.g\. 1000,2000$/);
  });

  test('the app refuses a height that is not a positive integer', () => {
    expect(() => resolveAppOptions({ upgrades: { skipHeights: [0] } })).toThrow('unsafe-skip-upgrades heights must be positive integers, got 0');
    expect(resolveAppOptions({ upgrades: { skipHeights: [7] } }).upgrades?.skipHeights).toEqual([7]);
  });
});
