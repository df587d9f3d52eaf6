/**
 * The CometBFT event query language (libs/pubsub/query, 0.38), used by tx_search, block_search and
 * websocket subscriptions.
 *
 *   query     = condition { "AND" condition }
 *   condition = tag ( "=" | "<" | "<=" | ">" | ">=" ) operand | tag "CONTAINS" 'string' | tag "EXISTS"
 *   operand   = 'string' | number | DATE yyyy-mm-dd | TIME yyyy-mm-ddThh:mm:ssZ
 *
 * Tags are composite keys `<event type>.<attribute key>` plus the reserved tm.event, tx.hash,
 * tx.height and block.height. Ranges take numbers, dates and times only; CONTAINS takes strings.
 * Numbers compare as exact decimals (a value "100stake" compares as 100, as CometBFT's prefix
 * extraction does; negative values never match). Parse errors name the offset, like CometBFT's.
 */
import { IndexerError } from './errors.js';

/** CometBFT's maxQueryLength for tx_search and subscribe. */
export const MAX_QUERY_LENGTH = 512;

export type Operator = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';

export type OperandKind = 'string' | 'number' | 'date' | 'time';

export interface Operand {
  kind: OperandKind;
  /** The operand as written (without quotes or the DATE/TIME label). */
  text: string;
}

export interface Condition {
  /** Composite key, e.g. "transfer.recipient" or "tm.event". */
  readonly tag: string;
  readonly op: Operator;
  /** Absent for EXISTS. */
  readonly operand: Operand | undefined;
  /** Whether an attribute value satisfies the condition (EXISTS: always). */
  matches(value: string): boolean;
  toString(): string;
}

// ---------------------------------------------------------------------------------------------
// Scanner (syntax/scanner.go)

type Token =
  | 'invalid'
  | 'tag'
  | 'string'
  | 'number'
  | 'time'
  | 'date'
  | 'and'
  | 'contains'
  | 'exists'
  | '='
  | '<'
  | '<='
  | '>'
  | '>=';

const TOKEN_LABEL: Record<Token, string> = {
  invalid: 'invalid token',
  tag: 'tag',
  string: 'string',
  number: 'number',
  time: 'timestamp',
  date: 'datestamp',
  and: 'AND operator',
  contains: 'CONTAINS operator',
  exists: 'EXISTS operator',
  '=': '= operator',
  '<': '< operator',
  '<=': '<= operator',
  '>': '> operator',
  '>=': '>= operator',
};

class ScanError extends Error {}

const EOF = new ScanError('EOF');

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

function isLetter(ch: string): boolean {
  return /\p{L}/u.test(ch);
}

function isTagRune(ch: string): boolean {
  return ch === '.' || ch === '_' || ch === '-' || isDigit(ch) || isLetter(ch) || /\p{Nd}/u.test(ch);
}

function isFirstTagRune(ch: string): boolean {
  return ch === '_' || isLetter(ch) || /\p{Nd}/u.test(ch);
}

function isSpace(ch: string): boolean {
  return /\s/u.test(ch);
}

class Scanner {
  private readonly chars: string[];
  private end = 0;
  private buf = '';
  tok: Token = 'invalid';
  pos = 0;

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  get text(): string {
    return this.buf;
  }

  private rune(): string | undefined {
    if (this.end >= this.chars.length) {
      this.end++; // mirrors a read past the end; unrune() steps back
      return undefined;
    }
    return this.chars[this.end++];
  }

  private unrune(): void {
    this.end--;
  }

  /** Advance to the next token; throws EOF at the end of input or a ScanError for bad input. */
  next(): void {
    this.buf = '';
    this.pos = this.end;
    this.tok = 'invalid';
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) {
        this.end--;
        throw EOF;
      }
      if (isSpace(ch)) {
        this.pos = this.end;
        continue;
      }
      if (isDigit(ch)) return this.scanNumber(ch);
      if (isFirstTagRune(ch)) return this.scanTagLike(ch);
      if (ch === "'") return this.scanString(ch);
      if (ch === '<' || ch === '>' || ch === '=') return this.scanCompare(ch);
      throw new ScanError(`invalid input ${ch} at offset ${this.end}`);
    }
  }

  private scanWhile(ok: (ch: string) => boolean): void {
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) {
        this.unrune();
        return;
      }
      if (!ok(ch)) {
        this.unrune();
        return;
      }
      this.buf += ch;
    }
  }

  private scanNumber(first: string): void {
    this.buf += first;
    this.scanWhile(isDigit);
    const ch = this.rune();
    if (ch === '.') {
      this.buf += ch;
      this.scanWhile(isDigit);
    } else {
      this.unrune();
    }
    this.tok = 'number';
  }

  private scanString(quote: string): void {
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) {
        this.unrune();
        throw EOF;
      }
      if (ch === quote) {
        this.tok = 'string';
        return;
      }
      this.buf += ch;
    }
  }

  private scanCompare(first: string): void {
    this.buf += first;
    if (first === '=') {
      this.tok = '=';
      return;
    }
    this.tok = first === '<' ? '<' : '>';
    const ch = this.rune();
    if (ch === undefined) {
      this.unrune();
      return;
    }
    if (ch === '=') {
      this.buf += ch;
      this.tok = first === '<' ? '<=' : '>=';
      return;
    }
    this.unrune();
  }

  private scanTagLike(first: string): void {
    this.buf += first;
    let hasSpace = false;
    let consumedTerminator = false;
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) {
        this.unrune();
        break;
      }
      if (!isTagRune(ch)) {
        hasSpace = ch === ' ';
        consumedTerminator = true;
        break;
      }
      this.buf += ch;
    }
    const text = this.buf;
    if (text === 'TIME' && hasSpace) return this.scanStamp('time');
    if (text === 'DATE' && hasSpace) return this.scanStamp('date');
    this.tok = text === 'AND' ? 'and' : text === 'EXISTS' ? 'exists' : text === 'CONTAINS' ? 'contains' : 'tag';
    if (consumedTerminator) this.unrune();
  }

  private scanStamp(kind: 'time' | 'date'): void {
    this.buf = '';
    this.scanWhile(kind === 'time' ? (ch) => isDigit(ch) || '-T:+Z.'.includes(ch) : (ch) => isDigit(ch) || ch === '-');
    const parsed = kind === 'time' ? parseRfc3339Nanos(this.buf) : parseDateNanos(this.buf);
    if (parsed === undefined) {
      throw new ScanError(`invalid ${kind === 'time' ? 'TIME' : 'DATE'} value: cannot parse "${this.buf}" as ${kind === 'time' ? '"2006-01-02T15:04:05Z07:00"' : '"2006-01-02"'}`);
    }
    const year = Number(this.buf.slice(0, 4));
    if (year < 1900 || year > 2999) throw new ScanError(`${kind === 'time' ? 'timestamp' : 'datestamp'} year ${year} out of range`);
    this.tok = kind;
  }
}

// ---------------------------------------------------------------------------------------------
// Values: exact decimals, dates and times

const NUMBER_PREFIX = /^\d+(\.\d+)?/;

/** Compare two non-negative decimal strings ("007", "3.250") exactly. */
export function compareDecimals(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const aInt = ai.replace(/^0+/, '');
  const bInt = bi.replace(/^0+/, '');
  if (aInt.length !== bInt.length) return aInt.length < bInt.length ? -1 : 1;
  if (aInt !== bInt) return aInt < bInt ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const aFrac = af.padEnd(width, '0');
  const bFrac = bf.padEnd(width, '0');
  if (aFrac === bFrac) return 0;
  return aFrac < bFrac ? -1 : 1;
}

/** The numeric part CometBFT reads from an attribute value (leading digits[.digits]); undefined if none. */
function numericPrefix(value: string): string | undefined {
  const m = NUMBER_PREFIX.exec(value);
  return m ? m[0] : undefined;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function civilSeconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number | undefined {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const d = new Date(ms);
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month - 1) return undefined;
  // Date.UTC maps years 0–99 to 1900+; years here are four digits ≥ 1000 in practice.
  return Math.floor(ms / 1000);
}

/** Nanoseconds since the epoch of an RFC 3339 time (Go's time.RFC3339 layout), or undefined. */
export function parseRfc3339Nanos(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const secs = civilSeconds(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (secs === undefined) return undefined;
  let offset = 0;
  const zone = m[8]!;
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const hh = Number(zone.slice(1, 3));
    const mm = Number(zone.slice(4, 6));
    if (hh > 23 || mm > 59) return undefined;
    offset = sign * (hh * 3600 + mm * 60);
  }
  const nanos = m[7] ? BigInt(m[7].padEnd(9, '0')) : 0n;
  return BigInt(secs - offset) * 1_000_000_000n + nanos;
}

/** Nanoseconds since the epoch of a DATE (yyyy-mm-dd, midnight UTC), or undefined. */
export function parseDateNanos(text: string): bigint | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const secs = civilSeconds(Number(m[1]), Number(m[2]), Number(m[3]));
  return secs === undefined ? undefined : BigInt(secs) * 1_000_000_000n;
}

function compareWith(op: Operator, cmp: number): boolean {
  switch (op) {
    case '=':
      return cmp === 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    default:
      return false;
  }
}

function compileMatcher(op: Operator, operand: Operand | undefined): (value: string) => boolean {
  if (op === 'EXISTS' || operand === undefined) return () => true;
  const arg = operand.text;
  switch (operand.kind) {
    case 'string':
      return op === 'CONTAINS' ? (value) => value.includes(arg) : (value) => value === arg;
    case 'number':
      return (value) => {
        const n = numericPrefix(value);
        return n !== undefined && compareWith(op, compareDecimals(n, arg));
      };
    case 'date':
    case 'time': {
      const at = operand.kind === 'date' ? parseDateNanos(arg)! : parseRfc3339Nanos(arg)!;
      const parse = operand.kind === 'date' ? parseDateNanos : parseRfc3339Nanos;
      return (value) => {
        const t = parse(value);
        return t !== undefined && compareWith(op, t < at ? -1 : t > at ? 1 : 0);
      };
    }
  }
}

function operandText(operand: Operand): string {
  switch (operand.kind) {
    case 'string':
      return `'${operand.text}'`;
    case 'date':
      return `DATE ${operand.text}`;
    case 'time':
      return `TIME ${operand.text}`;
    default:
      return operand.text;
  }
}

function makeCondition(tag: string, op: Operator, operand: Operand | undefined): Condition {
  const match = compileMatcher(op, operand);
  const text = operand ? `${tag} ${op} ${operandText(operand)}` : `${tag} ${op}`;
  return { tag, op, operand, matches: match, toString: () => text };
}

// ---------------------------------------------------------------------------------------------
// Parser (syntax/parser.go)

const OPERATOR_TOKENS: Token[] = ['<=', '>=', '<', '>', '=', 'contains', 'exists'];

function tokenLabel(tokens: Token[]): string {
  if (tokens.length === 1) return TOKEN_LABEL[tokens[0]!];
  const head = tokens.slice(0, -1).map((t) => TOKEN_LABEL[t]);
  return `${head.join(', ')} or ${TOKEN_LABEL[tokens[tokens.length - 1]!]}`;
}

function syntaxError(message: string): IndexerError {
  return new IndexerError('QUERY_SYNTAX', message, {
    hint: "write conditions like transfer.recipient='token1…' AND tx.height>5 (strings in single quotes)",
  });
}

function scanMessage(err: unknown): string {
  if (err === EOF) return 'unexpected end of query (EOF)';
  return (err as Error).message;
}

function requireToken(s: Scanner, ...tokens: Token[]): void {
  try {
    s.next();
  } catch (err) {
    throw syntaxError(`offset ${s.pos}: ${scanMessage(err)}`);
  }
  if (!tokens.includes(s.tok)) throw syntaxError(`offset ${s.pos}: got ${TOKEN_LABEL[s.tok]}, wanted ${tokenLabel(tokens)}`);
}

function parseCondition(s: Scanner): Condition {
  requireToken(s, 'tag');
  const tag = s.text;
  requireToken(s, ...OPERATOR_TOKENS);
  const opToken = s.tok;
  if (opToken === 'exists') return makeCondition(tag, 'EXISTS', undefined);
  const op: Operator = opToken === 'contains' ? 'CONTAINS' : (opToken as Operator);
  if (op === 'CONTAINS') requireToken(s, 'string');
  else if (op === '=') requireToken(s, 'number', 'time', 'date', 'string');
  else requireToken(s, 'number', 'time', 'date');
  const kind: OperandKind = s.tok === 'string' ? 'string' : s.tok === 'number' ? 'number' : s.tok === 'date' ? 'date' : 'time';
  return makeCondition(tag, op, { kind, text: s.text });
}

/** A parsed, compiled query: conditions AND-ed together. */
export class Query {
  private constructor(
    readonly conditions: readonly Condition[],
    private readonly text: string,
  ) {}

  /** Parse `text`; throws IndexerError QUERY_SYNTAX with the offset of the problem. */
  static parse(text: string): Query {
    const s = new Scanner(text);
    const conditions = [parseCondition(s)];
    for (;;) {
      try {
        s.next();
      } catch (err) {
        if (err === EOF) break;
        throw syntaxError(`offset ${s.pos}: ${scanMessage(err)}`);
      }
      if (s.tok !== 'and') throw syntaxError(`offset ${s.pos}: got ${TOKEN_LABEL[s.tok]}, want ${TOKEN_LABEL.and}`);
      conditions.push(parseCondition(s));
    }
    return new Query(conditions, conditions.map((c) => c.toString()).join(' AND '));
  }

  /** Parse with CometBFT's length limit (tx_search, block_search, subscribe). */
  static parseLimited(text: string): Query {
    if (text.length > MAX_QUERY_LENGTH) throw new IndexerError('QUERY_TOO_LONG', 'maximum query length exceeded');
    return Query.parse(text);
  }

  /**
   * Pubsub matching against an event's composite-key map ({"tm.event":["Tx"], "transfer.recipient":[…]}),
   * as CometBFT's Query.Matches: each condition independently needs one matching value.
   */
  matches(events: Readonly<Record<string, readonly string[]>>): boolean {
    let any = false;
    for (const _key in events) {
      any = true;
      break;
    }
    if (!any) return false;
    for (const cond of this.conditions) {
      const values = events[cond.tag];
      let ok = false;
      if (values && values.length > 0) {
        for (const v of values) {
          if (cond.matches(v)) {
            ok = true;
            break;
          }
        }
      } else {
        // CometBFT quirk kept: a tag equal to an event type ("tm") matches that type with value "".
        for (const key in events) {
          if (key.slice(0, key.lastIndexOf('.')) === cond.tag && cond.matches('')) {
            ok = true;
            break;
          }
        }
      }
      if (!ok) return false;
    }
    return true;
  }

  /**
   * Subscription matching with the indexer's rule: reserved tags (tm.event, tx.hash, tx.height,
   * block.height) against the composite-key map, every other condition against `abciEvents` with
   * same-type conditions holding within ONE event (non-indexed attributes count here). Without
   * ABCI events this is `matches`.
   */
  matchesEvent(events: Readonly<Record<string, readonly string[]>>, abciEvents: readonly MatchableEvent[] | undefined): boolean {
    if (!abciEvents) return this.matches(events);
    const { reserved, attributes } = this.split();
    if (reserved.length > 0 && !this.reservedQuery!.matches(events)) return false;
    if (attributes.length === 0) return reserved.length > 0 || Object.keys(events).length > 0;
    return matchEventConditions(attributes, abciEvents, false);
  }

  private splitCache: { reserved: Condition[]; attributes: Condition[] } | undefined;
  private reservedQuery: Query | undefined;

  private split(): { reserved: Condition[]; attributes: Condition[] } {
    if (!this.splitCache) {
      const reserved = this.conditions.filter((c) => RESERVED_TAGS.has(c.tag));
      const attributes = this.conditions.filter((c) => !RESERVED_TAGS.has(c.tag));
      this.splitCache = { reserved, attributes };
      this.reservedQuery = new Query(reserved, reserved.map((c) => c.toString()).join(' AND '));
    }
    return this.splitCache;
  }

  toString(): string {
    return this.text;
  }
}

/** Tags the event bus adds (not ABCI event attributes). */
const RESERVED_TAGS = new Set(['tm.event', 'tx.hash', 'tx.height', 'block.height']);

/** An ABCI event as the indexers match it. */
export interface MatchableEvent {
  type: string;
  attributes: readonly { key: string; value: string; index?: boolean }[];
}

/** Split a tag at its last dot: "transfer.recipient" → ["transfer", "recipient"]. */
export function splitTag(tag: string): [string, string] {
  const i = tag.lastIndexOf('.');
  return i < 0 ? ['', tag] : [tag.slice(0, i), tag.slice(i + 1)];
}

/**
 * Match attribute conditions against a tx's (or block's) events with the 0.37+ rule: conditions
 * on the same event type must all hold within ONE event of that type; different types may match
 * in different events. With `indexedOnly`, attributes without index:true are invisible.
 */
export function matchEventConditions(conditions: readonly Condition[], events: readonly MatchableEvent[], indexedOnly: boolean): boolean {
  const groups = new Map<string, { key: string; cond: Condition }[]>();
  for (const cond of conditions) {
    const [type, key] = splitTag(cond.tag);
    const group = groups.get(type);
    if (group) group.push({ key, cond });
    else groups.set(type, [{ key, cond }]);
  }
  for (const [type, group] of groups) {
    if (type === '') return false;
    let found = false;
    for (const event of events) {
      if (event.type !== type) continue;
      let all = true;
      for (const { key, cond } of group) {
        let ok = false;
        for (const attr of event.attributes) {
          if (attr.key === key && (!indexedOnly || attr.index) && cond.matches(attr.value)) {
            ok = true;
            break;
          }
        }
        if (!ok) {
          all = false;
          break;
        }
      }
      if (all) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
