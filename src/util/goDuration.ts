/**
 * Go durations, exactly (the CLI, the config files, genesis, tracer timeouts): Go's time.ParseDuration grammar (an optional sign,
 * then "0" or a sequence of decimal numbers with units ns, us/µs/μs, ms, s, m, h, e.g. "1h30m",
 * "1.5s", "300ms") read into int64 nanoseconds without floating point, and rendered as a
 * google.protobuf.Duration — as protobuf JSON ("5400s", "1.5s") or as its {seconds, nanos}.
 */
const UNIT_NANOS: Record<string, bigint> = { ns: 1n, us: 1_000n, µs: 1_000n, μs: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
const MAX_INT64 = (1n << 63n) - 1n;
const NANOS_PER_SECOND = 1_000_000_000n;

/** A Go duration in nanoseconds, or undefined when the text is not one (or overflows int64, as Go refuses). */
export function parseGoDurationNanos(text: string): bigint | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const match = /^([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (match === null || (match[1] === '' && (match[2] ?? '') === '')) return undefined;
    const unit = UNIT_NANOS[match[3]!]!;
    const whole = match[1] === '' ? 0n : BigInt(match[1]!);
    const fraction = match[2] ?? '';
    // The fraction's nanoseconds, truncated (Go drops what is below a nanosecond).
    const fractionNanos = fraction === '' ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += whole * unit + fractionNanos;
    if (total > MAX_INT64 + (negative ? 1n : 0n)) return undefined;
    rest = rest.slice(match[0].length);
  }
  return negative ? -total : total;
}

/** google.protobuf.Duration's fields for `nanos` (seconds and nanos share the sign, as the type requires). */
export function durationFields(nanos: bigint): { seconds: bigint; nanos: number } {
  return { seconds: nanos / NANOS_PER_SECOND, nanos: Number(nanos % NANOS_PER_SECOND) };
}

/** protobuf JSON of a duration: seconds with the fraction's trailing zeros dropped, "s" ("5400s", "1.5s", "-0.000000001s"). */
export function durationJson(nanos: bigint): string {
  const sign = nanos < 0n ? '-' : '';
  const abs = nanos < 0n ? -nanos : nanos;
  const fraction = (abs % NANOS_PER_SECOND).toString().padStart(9, '0').replace(/0+$/, '');
  return `${sign}${abs / NANOS_PER_SECOND}${fraction === '' ? '' : `.${fraction}`}s`;
}
