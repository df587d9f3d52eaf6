/**
 * How a command's result and its failure are written — shared by the oclif commands (base.ts)
 * and the oclif-free fast path of the query commands scripts call most (fast.ts), so that both
 * print byte for byte the same. Nothing here loads oclif.
 */
import { isTokendError } from '../util/errors.js';
import type { OutputFormat } from '../node/config/client.js';
import { simpleYaml } from './yaml.js';

/** Exit code for usage errors (unknown flag, missing argument); other failures exit 1. */
export const EXIT_USAGE = 2;

/** Default text rendering of a result: a YAML dump of its JSON form (strings as they are). */
export async function defaultRenderText(result: unknown): Promise<string | undefined> {
  if (result === undefined || result === null) return undefined;
  if (typeof result === 'string') return result;
  // Simple results (a balance, params …) without loading the yaml package; the same bytes.
  const simple = typeof result === 'object' && !Array.isArray(result) ? simpleYaml(result) : undefined;
  if (simple !== undefined) return simple;
  const { stringify } = await import('yaml');
  return stringify(result, { lineWidth: 0 }).trimEnd();
}

/** Write a result on stdout: JSON (2-space indent) in json mode, else its text rendering. */
export async function writeResult(format: OutputFormat, json: () => unknown, text: () => Promise<string | undefined>): Promise<void> {
  if (format === 'json') {
    const value = json();
    if (value !== undefined) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const rendered = await text();
  if (rendered !== undefined && rendered !== '') process.stdout.write(`${rendered}\n`);
}

/**
 * Write a failure on stderr — one line `Error: …` (then the stack with --trace), or one JSON
 * object in json mode — and set the exit code.
 */
export function writeError(err: Error, line: string, exitCode: number, format: OutputFormat, trace: boolean): void {
  process.exitCode = exitCode;
  if (format === 'json') {
    const body: Record<string, unknown> = {
      error: line,
      code: isTokendError(err) ? err.code : exitCode === EXIT_USAGE ? 'USAGE' : 'ERROR',
      exit_code: exitCode,
    };
    if (isTokendError(err) && err.meta) body.meta = err.meta;
    if (trace) body.stack = err.stack;
    process.stderr.write(`${JSON.stringify(body)}\n`);
    return;
  }
  process.stderr.write(`Error: ${line}\n`);
  if (trace && err.stack) process.stderr.write(`${err.stack}\n`);
}

/** Find `-o json`, `-ojson`, `--output json`, `--output=json` before flags are parsed. */
export function outputFromArgv(argv: readonly string[]): OutputFormat | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    let value: string | undefined;
    if (arg === '-o' || arg === '--output') value = argv[i + 1];
    else if (arg.startsWith('--output=')) value = arg.slice('--output='.length);
    else if (arg.startsWith('-o') && arg.length > 2) value = arg.slice(2).replace(/^=/, '');
    if (value === 'json' || value === 'text') return value;
  }
  return undefined;
}

/** oclif messages can span lines ("See more help with --help"); keep the first meaningful one. */
export function cleanOclifMessage(message: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('See more help') && line !== 'The following error occurred:');
  return lines.join(' ').replace(/\s+/g, ' ');
}
