/**
 * scripts/run-parallel.js, which `npm test` runs for build, typecheck and lint: each script's output
 * whole and in the order given, and a failing one fails the whole run after all have finished.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'run-parallel.js');
let dir: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: dir }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tokend-run-parallel-'));
  // The slow one first: its output still comes first, and the failure after it still counts.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'run-parallel-fixture',
      private: true,
      scripts: { slow: 'node -e "setTimeout(() => console.log(\'slow done\'), 300)"', fails: 'node -e "console.error(\'broken\'); process.exit(3)"', ok: 'node -e "console.log(\'fine\')"' },
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run-parallel', () => {
  test('all succeed: exit 0, each output under its name, in the order given', async () => {
    const result = await run(['slow', 'ok']);
    expect(result.code).toBe(0);
    expect(result.stdout.indexOf('slow done')).toBeGreaterThan(result.stdout.indexOf('> npm run slow'));
    expect(result.stdout.indexOf('> npm run ok')).toBeGreaterThan(result.stdout.indexOf('> slow: ok'));
    expect(result.stdout).toContain('> ok: ok');
  });

  test('one fails: its exit code, its output kept, the others still run to the end', async () => {
    const result = await run(['slow', 'fails', 'ok']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('slow done');
    expect(result.stdout).toContain('broken');
    expect(result.stdout).toContain('> fails: failed (exit 3)');
    expect(result.stdout).toContain('> ok: ok');
  });

  test('no script named: a usage line and exit 2', async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('usage: node scripts/run-parallel.js SCRIPT [SCRIPT ...]\n');
    expect(result.stdout).toBe('');
  });
});
