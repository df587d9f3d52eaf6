/**
 * The oclif-free fast path of `query bank balances` / `query txs` takes only their plain forms;
 * everything else (help, unknown or repeated flags, bad values, wrong argument count) is left to
 * oclif, which prints its usual help or usage error.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseFast } from '../../src/cli/fast.js';
import { REPO_ROOT } from '../helpers/cli.js';

const balances = {
  args: 1,
  flags: {
    output: { options: ['text', 'json'] },
    node: 'string',
    height: { int: 0 },
    limit: { int: 1 },
    'count-total': 'boolean',
  } as const,
};

describe('fast path argv parsing', () => {
  it('parses the plain forms', () => {
    expect(parseFast(balances, ['token1x', '--node', 'tcp://127.0.0.1:1', '-o', 'json'])).toEqual({ args: ['token1x'], flags: { node: 'tcp://127.0.0.1:1', output: 'json' } });
    expect(parseFast(balances, ['--node=h:1', 'token1x', '-ojson', '--height', '0', '--count-total', '--limit=5'])).toEqual({
      args: ['token1x'],
      flags: { node: 'h:1', output: 'json', height: 0, 'count-total': true, limit: 5 },
    });
  });

  it('leaves everything else to oclif', () => {
    for (const argv of [
      ['token1x', '--help'],
      ['token1x', '-h'],
      ['token1x', '--trace'],
      ['token1x', '--bogus'],
      [],
      ['token1x', 'extra'],
      ['token1x', '--node', 'a', '--node', 'b'],
      ['token1x', '--height', '-1'],
      ['token1x', '--height', '1.5'],
      ['token1x', '--limit', '0'],
      ['token1x', '-o', 'yaml'],
      ['token1x', '-o=json'],
      ['token1x', '--node'],
      ['token1x', '--node='],
      ['token1x', '--count-total=false'],
      ['token1x', '--', '--node'],
    ]) {
      expect(parseFast(balances, argv)).toBeUndefined();
    }
  });

  it('runs its commands itself: bad input is answered there, before any node is asked (the built fast path, in a child)', () => {
    const fast = join(REPO_ROOT, 'dist', 'bundle', 'cli', 'fast.js');
    for (const [argv, error] of [
      [['query', 'tx', 'not-a-hash', '-o', 'json'], 'invalid tx hash "not-a-hash"'],
      [['query', 'tx', '--type', 'acc_seq', 'token1x', '-o', 'json'], 'expected <address>/<sequence>, got "token1x"'],
      [['query', 'txs', '--events', 'nonsense', '-o', 'json'], 'invalid event condition "nonsense"'],
      [['query', 'account', 'nope', '-o', 'json'], 'invalid bech32 address "nope"'],
    ] as const) {
      const script = `const { runFast } = await import(${JSON.stringify(fast)}); process.stdout.write('handled=' + (await runFast(${JSON.stringify(argv)})));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
      expect(child.stdout).toBe('handled=true');
      const printed = JSON.parse(child.stderr) as { error: string; exit_code: number };
      expect(printed.error).toContain(error);
      expect(child.status).toBe(printed.exit_code);
      expect(child.status).not.toBe(0);
    }
  });
});

