/**
 * Go durations (src/util/goDuration.ts): time.ParseDuration's grammar read
 * exactly into nanoseconds (fractions below a nanosecond truncated, int64 overflow refused), and
 * the google.protobuf.Duration they become — protobuf JSON and {seconds, nanos}.
 */
import { describe, expect, test } from '@jest/globals';
import { durationFields, durationJson, parseGoDurationNanos } from '../../src/util/goDuration.js';
import { goDurationToJson } from '../../src/cli/groupTx.js';

describe('Go durations', () => {
  test.each([
    ['0', 0n],
    ['10m', 600_000_000_000n],
    ['1h30m', 5_400_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['300ms', 300_000_000n],
    ['1500ns', 1_500n],
    ['2us', 2_000n],
    ['2µs', 2_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['1.0000000019s', 1_000_000_001n],
    ['-1m', -60_000_000_000n],
    ['+1s', 1_000_000_000n],
    ['2562047h47m16.854775807s', (1n << 63n) - 1n],
  ])('%s is %s ns', (text, nanos) => {
    expect(parseGoDurationNanos(text)).toBe(nanos);
  });

  test.each(['', 'soon', '10', '1x', '1h 30m', '.s', '-', 's', '2562047h47m16.854775808s', ' 1s'])('%j is not a duration', (text) => {
    expect(parseGoDurationNanos(text)).toBeUndefined();
  });

  test('rendered as google.protobuf.Duration', () => {
    expect([durationJson(600_000_000_000n), durationJson(1_500_000_000n), durationJson(1n), durationJson(0n), durationJson(-1_500_000_000n)]).toEqual(['600s', '1.5s', '0.000000001s', '0s', '-1.5s']);
    expect(durationFields(3_600_000_001_500n)).toEqual({ seconds: 3600n, nanos: 1500 });
    expect(durationFields(-1_500_000_000n)).toEqual({ seconds: -1n, nanos: -500_000_000 });
  });

  test('group policy windows: Go or protobuf JSON durations, exact, never negative', () => {
    expect([goDurationToJson('120h', 'w'), goDurationToJson('86400s', 'w'), goDurationToJson('0', 'w'), goDurationToJson('100ns', 'w')]).toEqual(['432000s', '86400s', '0s', '0.0000001s']);
    expect(() => goDurationToJson('-1h', 'windows.voting_period')).toThrow('invalid windows.voting_period "-1h": expected a duration such as 120h, 30m or 86400s');
  });
});

describe('the config files read durations through the same parser', () => {
  test('to whole milliseconds; a sign or anything else not a Go duration is one clear error', async () => {
    const { parseDurationMs } = await import('../../src/node/config/node.js');
    expect(parseDurationMs('1m30s', 'consensus.timeout_commit')).toBe(90_000);
    expect(parseDurationMs(' 200ms ', 'consensus.timeout_commit')).toBe(200);
    expect(parseDurationMs('1500us', 'consensus.timeout_commit')).toBe(2);
    expect(parseDurationMs('0', 'consensus.timeout_commit')).toBe(0);
    for (const bad of ['-1s', '+1s', 'soon', '10', '']) {
      expect(() => parseDurationMs(bad, 'consensus.timeout_commit')).toThrow(`invalid duration "${bad}" for consensus.timeout_commit`);
    }
  });
});
