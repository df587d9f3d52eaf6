/** Spawn the real built binary (bin/run.js) the way a user's shell script would. */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname_of(import.meta.url), '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'run.js');

function __dirname_of(url: string): string {
  return new URL('.', url).pathname;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Another build's bin/run.js (test/helpers/upgradeBuild.ts); default this checkout's. */
  bin?: string;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
    for (const [key, value] of Object.entries(options.env ?? {})) if (value === undefined) delete env[key];
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    // TOKEND_TEST_CLI_LOG=<file>: one line per CLI run (start ms, duration ms, first words), to see where an e2e suite's time goes.
    const started = Date.now();
    const log = process.env.TOKEND_TEST_CLI_LOG;
    if (log) child.on('close', () => appendFileSync(log, `${started} ${Date.now() - started} ${args.slice(0, 4).join(' ')}\n`));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tokend ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function tempHome(prefix = 'tokend-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every file under `dir` with its size and mtime, to assert that a failing command wrote nothing. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else out[path.slice(dir.length)] = `${stat.size}:${stat.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** Run the CLI and return stdout; throw with the command, exit code and stderr when it fails. */
export async function cliOk(args: string[], input?: string): Promise<string> {
  const result = await runCli(args, { input, timeoutMs: 60000 });
  if (result.code !== 0) throw new Error(`tokend ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Run a Node.js script (a client fixture) from the repository root; resolves with its stdout. */
export function runNodeScript(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, ...args], { cwd: REPO_ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}
