import { describe, expect, it } from '@jest/globals';
import { Query, compareDecimals, matchEventConditions, MAX_QUERY_LENGTH } from '../../../src/node/indexer/query.js';
import { isIndexerError } from '../../../src/node/indexer/errors.js';

function parseError(text: string): string {
  try {
    Query.parse(text);
  } catch (err) {
    expect(isIndexerError(err, 'QUERY_SYNTAX')).toBe(true);
    return (err as Error).message;
  }
  throw new Error(`query parsed: ${text}`);
}

describe('query language: parsing', () => {
  it('parses conditions joined by AND with every operator and operand kind', () => {
    const q = Query.parse(
      "tm.event='Tx' AND transfer.amount>=5 AND transfer.amount < 10.5 AND tx.height<=7 AND a.b>3 AND c.d CONTAINS 'x y' AND e.f EXISTS AND t.s > TIME 2024-01-02T03:04:05Z AND d.x = DATE 2024-01-02",
    );
    expect(q.conditions.map((c) => [c.tag, c.op, c.operand?.kind, c.operand?.text])).toEqual([
      ['tm.event', '=', 'string', 'Tx'],
      ['transfer.amount', '>=', 'number', '5'],
      ['transfer.amount', '<', 'number', '10.5'],
      ['tx.height', '<=', 'number', '7'],
      ['a.b', '>', 'number', '3'],
      ['c.d', 'CONTAINS', 'string', 'x y'],
      ['e.f', 'EXISTS', undefined, undefined],
      ['t.s', '>', 'time', '2024-01-02T03:04:05Z'],
      ['d.x', '=', 'date', '2024-01-02'],
    ]);
    expect(q.toString()).toBe(
      "tm.event = 'Tx' AND transfer.amount >= 5 AND transfer.amount < 10.5 AND tx.height <= 7 AND a.b > 3 AND c.d CONTAINS 'x y' AND e.f EXISTS AND t.s > TIME 2024-01-02T03:04:05Z AND d.x = DATE 2024-01-02",
    );
  });

  it('accepts token1… addresses, dashes, underscores and whitespace variations', () => {
    const q = Query.parse("  transfer.recipient   =   'token1qy352eufqy352eufqy352eufqy352euf0zpe4u'   AND  my_mod-x.key_1 = 'v'  ");
    expect(q.conditions).toHaveLength(2);
    expect(q.conditions[1]!.tag).toBe('my_mod-x.key_1');
  });

  it('reports clear errors with offsets', () => {
    expect(parseError('')).toBe('offset 0: unexpected end of query (EOF)');
    expect(parseError("tm.event='Tx' AND")).toMatch(/^offset \d+: unexpected end of query/);
    expect(parseError("tm.event 'Tx'")).toBe('offset 9: got string, wanted <= operator, >= operator, < operator, > operator, = operator, CONTAINS operator or EXISTS operator');
    expect(parseError("tm.event='Tx' OR a.b=1")).toBe('offset 14: got tag, want AND operator');
    expect(parseError('a.b CONTAINS 5')).toBe('offset 13: got number, wanted string');
    expect(parseError("a.b > 'x'")).toBe('offset 6: got string, wanted number, timestamp or datestamp');
    expect(parseError("a.b = 'unterminated")).toMatch(/unexpected end of query/);
    expect(parseError('a.b = @')).toBe('offset 6: invalid input @ at offset 7');
    expect(parseError('a.b > TIME 2024-13-01T00:00:00Z')).toMatch(/invalid TIME value/);
    expect(parseError('a.b > DATE 1800-01-01')).toMatch(/datestamp year 1800 out of range/);
  });

  it('limits the length for RPC use', () => {
    expect(() => Query.parseLimited(`a.b='${'x'.repeat(MAX_QUERY_LENGTH)}'`)).toThrow('maximum query length exceeded');
  });
});

describe('query language: matching', () => {
  it('compares decimals exactly, reading the numeric prefix of values', () => {
    expect(compareDecimals('10', '9')).toBe(1);
    expect(compareDecimals('007', '7.000')).toBe(0);
    expect(compareDecimals('3.25', '3.3')).toBe(-1);
    expect(compareDecimals('100000000000000000001', '100000000000000000000')).toBe(1);
    const q = Query.parse('transfer.amount > 100');
    expect(q.matches({ 'transfer.amount': ['101attotoken'] })).toBe(true);
    expect(q.matches({ 'transfer.amount': ['100attotoken'] })).toBe(false);
    expect(q.matches({ 'transfer.amount': ['-500'] })).toBe(false);
    expect(q.matches({ 'transfer.amount': ['abc'] })).toBe(false);
    expect(Query.parse('a.n = 5').matches({ 'a.n': ['5.0'] })).toBe(true);
  });

  it('matches dates and times', () => {
    const q = Query.parse('a.t >= TIME 2024-01-02T00:00:00Z AND a.d < DATE 2024-02-01');
    expect(q.matches({ 'a.t': ['2024-01-02T00:00:00.5Z'], 'a.d': ['2024-01-31'] })).toBe(true);
    expect(q.matches({ 'a.t': ['2024-01-01T23:59:59+00:00'], 'a.d': ['2024-01-31'] })).toBe(false);
    expect(q.matches({ 'a.t': ['2024-01-02T01:00:00+02:00'], 'a.d': ['2024-01-31'] })).toBe(false);
    expect(q.matches({ 'a.t': ['2024-01-03T00:00:00Z'], 'a.d': ['2024-02-01'] })).toBe(false);
  });

  it('pubsub matching: every condition needs one matching value; an empty event map never matches', () => {
    const q = Query.parse("tm.event='Tx' AND transfer.recipient='bob'");
    expect(q.matches({ 'tm.event': ['Tx'], 'transfer.recipient': ['alice', 'bob'] })).toBe(true);
    expect(q.matches({ 'tm.event': ['Tx'], 'transfer.recipient': ['alice'] })).toBe(false);
    expect(q.matches({ 'tm.event': ['NewBlock'], 'transfer.recipient': ['bob'] })).toBe(false);
    expect(Query.parse('a.b EXISTS').matches({})).toBe(false);
    expect(Query.parse("a.b CONTAINS 'ob'").matches({ 'a.b': ['bob'] })).toBe(true);
  });

  it('subscription matching: reserved tags against the map, attributes within one ABCI event (indexed or not)', () => {
    const events = [
      { type: 'transfer', attributes: [{ key: 'recipient', value: 'fee', index: true }, { key: 'amount', value: '1', index: true }] },
      { type: 'transfer', attributes: [{ key: 'recipient', value: 'bob', index: true }, { key: 'amount', value: '500', index: false }] },
    ];
    const map = { 'tm.event': ['Tx'], 'tx.height': ['7'], 'transfer.recipient': ['fee', 'bob'], 'transfer.amount': ['1', '500'] };
    const q = (text: string): Query => Query.parse(text);
    expect(q("tm.event='Tx' AND transfer.recipient='bob' AND transfer.amount=500").matchesEvent(map, events)).toBe(true);
    // Flattened (CometBFT pubsub) would accept this; within one event it is false.
    expect(q("transfer.recipient='bob' AND transfer.amount=1").matches(map)).toBe(true);
    expect(q("transfer.recipient='bob' AND transfer.amount=1").matchesEvent(map, events)).toBe(false);
    expect(q("tm.event='NewBlock' AND transfer.recipient='bob'").matchesEvent(map, events)).toBe(false);
    expect(q('tx.height > 5').matchesEvent(map, events)).toBe(true);
    expect(q("tm.event='Tx'").matchesEvent(map, undefined)).toBe(true);
  });

  it('indexer matching: conditions on one event type must hold within ONE event; other types may be elsewhere', () => {
    const events = [
      { type: 'transfer', attributes: [{ key: 'recipient', value: 'fee', index: true }, { key: 'amount', value: '1', index: true }] },
      { type: 'transfer', attributes: [{ key: 'recipient', value: 'bob', index: true }, { key: 'amount', value: '500', index: true }] },
      { type: 'message', attributes: [{ key: 'sender', value: 'alice', index: true }, { key: 'memo', value: 'hi', index: false }] },
    ];
    const match = (text: string, indexedOnly = true): boolean => matchEventConditions(Query.parse(text).conditions, events, indexedOnly);
    expect(match("transfer.recipient='bob' AND transfer.amount=500")).toBe(true);
    expect(match("transfer.recipient='bob' AND transfer.amount=1")).toBe(false);
    expect(match("transfer.recipient='bob' AND message.sender='alice'")).toBe(true);
    expect(match("message.memo='hi'")).toBe(false);
    expect(match("message.memo='hi'", false)).toBe(true);
  });
});
