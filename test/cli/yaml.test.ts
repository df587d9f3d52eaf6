/** The CLI's small YAML dump prints what the yaml package prints, or declines. */
import { describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { simpleYaml } from '../../src/cli/yaml.js';

const STRINGS = ['attotoken', '999000000000000000000000', '0', '-1', '+1', '1.5', '1e5', '0x1F', '0o17', '.inf', 'null', 'Null', 'true', 'False', '~', 'yes', 'no', 'on', '', 'token1nctypp3satlj8vyd0guut6yu33j9t967jdrawz', '/cosmos.bank.v1beta1.MsgSend', 'AA==', 'abc+/=', '1.2.3', '10attotoken', 'ibc/ABC', 'a-b_c.d', '_x', 'cosmos.bank', 'NaN', '.nan', '1_000', '0.100000000000000000', 'a b', 'a: b', '#x', '-x', '2026-11-26T17:53:03Z', 'x'.repeat(100)];
const KEYS = ['denom', 'amount', 'next_key', 'total', 'a.b', 'count-total', '@type', '0', 'null', 'x y', 'yes'];

function rand(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

function value(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 3 || k < 0.5) {
    const pick = r();
    if (pick < 0.7) return STRINGS[Math.floor(r() * STRINGS.length)];
    if (pick < 0.8) return Math.floor(r() * 2000) - 1000;
    if (pick < 0.85) return r() < 0.5;
    if (pick < 0.9) return null;
    return r() * 10;
  }
  if (k < 0.75) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [KEYS[Math.floor(r() * KEYS.length)]!, value(r, depth + 1)]));
}

describe('simpleYaml', () => {
  it('prints a balance query result as the yaml package does', () => {
    const result = { balances: [{ denom: 'attotoken', amount: '999000000000000000000000' }], pagination: { next_key: null, total: '1' } };
    expect(simpleYaml(result)).toBe(stringify(result, { lineWidth: 0 }).trimEnd());
  });

  it('matches the yaml package on every value it accepts, over many random values', () => {
    const r = rand(7);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const v = { root: value(r, 0), list: [value(r, 1), { a: value(r, 2) }] };
      const mine = simpleYaml(v);
      if (mine === undefined) continue;
      accepted++;
      expect(mine).toBe(stringify(v, { lineWidth: 0 }).trimEnd());
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
