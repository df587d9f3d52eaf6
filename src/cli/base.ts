/**
 * BaseCommand: every tokend command extends it.
 *
 * A command implements `execute()` returning typed data, and optionally `renderText()`.
 * The base parses flags, resolves home and output format, prints the result (JSON or text)
 * on stdout, and turns any failure into one error line on stderr (a JSON object in JSON
 * mode, the stack with --trace) with a non-zero exit code.
 */
import { Command, Flags, Interfaces } from '@oclif/core';
import { TokendError, isTokendError } from '../util/errors.js';
import { cleanOclifMessage, defaultRenderText, EXIT_USAGE, outputFromArgv, writeError, writeResult } from './output.js';
import { resolveHome } from '../node/config/home.js';
import { resolveClientConfig, type ClientConfig, type ClientConfigKey, type OutputFormat } from '../node/config/client.js';

export type BaseFlags = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags']>;
export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

export { EXIT_USAGE, outputFromArgv } from './output.js';

export abstract class BaseCommand<T extends typeof Command, R = unknown> extends Command {
  static override enableJsonFlag = false;

  static override baseFlags = {
    output: Flags.option({
      char: 'o',
      options: ['text', 'json'] as const,
      description: 'Output format (default from client.toml, else text)',
      helpGroup: 'GLOBAL',
    })(),
    home: Flags.string({
      description: 'Directory for config and data (default ~/.tokend, or $TOKEND_HOME)',
      helpGroup: 'GLOBAL',
    }),
    trace: Flags.boolean({ description: 'Print the full stack trace on errors', helpGroup: 'GLOBAL' }),
    log_level: Flags.option({
      options: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'panic'] as const,
      default: 'info',
      description: 'Log level',
      helpGroup: 'GLOBAL',
    })(),
    log_format: Flags.option({
      options: ['json', 'plain'] as const,
      default: 'plain',
      description: 'Log format',
      helpGroup: 'GLOBAL',
    })(),
  };

  protected flags!: CommandFlags<T>;
  protected args!: CommandArgs<T>;
  /** Every positional argument as typed, in order (what a non-strict command's extra arguments are read from). */
  protected positionalArgv: string[] = [];
  /** Effective output format; known early (from argv) so that parse errors honour it too. */
  protected outputFormat: OutputFormat = 'text';
  protected home!: string;
  private traceErrors = false;
  private clientConfigCache?: ClientConfig;

  /** The command's work: return data, never print it. */
  abstract execute(): Promise<R>;

  /** Text rendering of the result; default: YAML-like dump of the JSON form. */
  protected async renderText(result: R): Promise<string | undefined> {
    return defaultRenderText(result);
  }

  /** JSON form of the result; default: the result itself. */
  protected toJson(result: R): unknown {
    return result;
  }

  protected override async init(): Promise<void> {
    await super.init();
    this.outputFormat = outputFromArgv(this.argv) ?? this.outputFormat;
    this.traceErrors = this.argv.includes('--trace');
    const { args, flags, argv } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: false,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as CommandFlags<T>;
    this.args = args as CommandArgs<T>;
    this.positionalArgv = argv as string[];
    this.home = resolveHome(this.flags.home);
    this.traceErrors = this.flags.trace;
    this.outputFormat = this.flags.output ?? this.clientConfig().output;
  }

  /**
   * Client configuration resolved with flag > env > client.toml > default. Commands pass the
   * flag values that correspond to client.toml keys.
   */
  protected clientConfig(flagValues: Partial<Record<ClientConfigKey, string | boolean | undefined>> = {}): ClientConfig {
    if (Object.keys(flagValues).length === 0 && this.clientConfigCache) return this.clientConfigCache;
    const resolved = resolveClientConfig(this.home ?? resolveHome(undefined), flagValues);
    if (Object.keys(flagValues).length === 0) this.clientConfigCache = resolved;
    return resolved;
  }

  async run(): Promise<R> {
    const result = await this.execute();
    await this.print(result);
    return result;
  }

  protected async print(result: R): Promise<void> {
    await writeResult(
      this.outputFormat,
      () => this.toJson(result),
      () => this.renderText(result),
    );
  }

  /** Diagnostics go to stderr so stdout stays data only. */
  protected note(message: string): void {
    process.stderr.write(`${message}\n`);
  }

  /** "missing argument <denom> (Denom, e.g. attotoken). Usage: tokend query bank balance <address> <denom>" */
  private missingArgsLine(missing: { name: string; description?: string }[]): string {
    const names = missing.map((arg) => `<${arg.name}>${arg.description ? ` (${arg.description})` : ''}`).join(', ');
    const args = Object.entries(this.ctor.args ?? {}).map(([name, arg]) => (arg.required ? `<${name}>` : `[${name}]`));
    const usage = [this.config.bin, ...(this.id ?? '').split(':'), ...args].filter(Boolean).join(' ');
    return `missing argument${missing.length === 1 ? '' : 's'} ${names}. Usage: ${usage}`;
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    // A parse error is reported here; without this oclif adds an "UnparsedCommand" warning line
    // when NODE_ENV is development or test.
    this.parsed = true;
    // oclif signals --help/--version and this.exit() through errors that carry an exit code.
    if (err.oclif?.exit === 0 || (err as { code?: string }).code === 'EEXIT') {
      process.exitCode = err.oclif?.exit ?? 0;
      if (process.exitCode === 0) return;
    }
    const exitCode = isTokendError(err) ? err.exitCode : (err.oclif?.exit ?? err.exitCode ?? 1);
    const line = isTokendError(err) ? err.line : isMissingArgs(err) ? this.missingArgsLine(err.args) : cleanOclifMessage(err.message);
    writeError(err, line, exitCode, this.outputFormat, this.traceErrors);
  }
}

/** oclif's RequiredArgsError: the arguments that were not given. */
function isMissingArgs(err: Error): err is Error & { args: { name: string }[] } {
  return err.name === 'RequiredArgsError' || (Array.isArray((err as { args?: unknown }).args) && /^Missing \d+ required arg/.test(err.message));
}

export function usageError(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: EXIT_USAGE });
}
