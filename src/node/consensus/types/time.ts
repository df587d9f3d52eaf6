/**
 * Nanosecond-precision UTC timestamps (google.protobuf.Timestamp), as CometBFT uses them in
 * headers, votes and commits. A JS `Date` only holds milliseconds, so block times are kept as
 * {seconds, nanos} and converted at the ABCI boundary.
 */
import type { ProtoWriter } from './proto.js';
import { readMessage, type ProtoReader } from './proto.js';

export interface Timestamp {
  /** Seconds since the Unix epoch (negative before 1970; Go's zero time is -62135596800). */
  readonly seconds: number;
  /** 0 ≤ nanos < 1e9. */
  readonly nanos: number;
}

/** Go's zero `time.Time` (0001-01-01T00:00:00Z): what absent commit signatures carry. */
export const ZERO_TIME: Timestamp = Object.freeze({ seconds: -62135596800, nanos: 0 });

/** The Unix epoch, shown by `status` before the first block. */
export const UNIX_EPOCH: Timestamp = Object.freeze({ seconds: 0, nanos: 0 });

export function isZeroTime(t: Timestamp): boolean {
  return t.seconds === ZERO_TIME.seconds && t.nanos === 0;
}

export function timestampFromDate(date: Date): Timestamp {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** Millisecond `Date` (sub-millisecond nanos are truncated). */
export function timestampToDate(t: Timestamp): Date {
  return new Date(t.seconds * 1000 + Math.floor(t.nanos / 1_000_000));
}

export function timestampNow(): Timestamp {
  return timestampFromDate(new Date());
}

export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  if (a.nanos !== b.nanos) return a.nanos < b.nanos ? -1 : 1;
  return 0;
}

export function timestampsEqual(a: Timestamp, b: Timestamp): boolean {
  return a.seconds === b.seconds && a.nanos === b.nanos;
}

export function addMillis(t: Timestamp, ms: number): Timestamp {
  const totalNanos = t.nanos + ms * 1_000_000;
  const carry = Math.floor(totalNanos / 1_000_000_000);
  return { seconds: t.seconds + carry, nanos: totalNanos - carry * 1_000_000_000 };
}

/** Milliseconds from `a` to `b` (b − a). */
export function diffMillis(a: Timestamp, b: Timestamp): number {
  return (b.seconds - a.seconds) * 1000 + (b.nanos - a.nanos) / 1_000_000;
}

/** Go's RFC3339Nano in UTC: fraction with trailing zeros trimmed, no dot when zero. */
export function formatRfc3339Nano(t: Timestamp): string {
  const iso = new Date(t.seconds * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ, 4-digit year for 0..9999
  const base = iso.slice(0, 19);
  if (t.nanos === 0) return `${base}Z`;
  const fraction = String(t.nanos).padStart(9, '0').replace(/0+$/, '');
  return `${base}.${fraction}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parse an RFC 3339 time with up to nanosecond precision; undefined if malformed. */
export function parseRfc3339(text: string): Timestamp | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  if (d.getUTCDate() !== day) return undefined; // e.g. February 30
  let seconds = Math.floor(d.getTime() / 1000);
  if (!m[8]) {
    const sign = m[9] === '-' ? -1 : 1;
    seconds -= sign * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

/** google.protobuf.Timestamp{seconds=1, nanos=2}. */
export function writeTimestamp(w: ProtoWriter, t: Timestamp): void {
  w.varintField(1, t.seconds);
  w.varintField(2, t.nanos);
}

export function readTimestamp(bytes: Uint8Array): Timestamp {
  let seconds = 0;
  let nanos = 0;
  readMessage(bytes, (field, wire, r: ProtoReader) => {
    if (field === 1 && wire === 0) seconds = r.int64Number();
    else if (field === 2 && wire === 0) nanos = r.int32();
    else r.skip(wire);
  });
  return { seconds, nanos };
}
