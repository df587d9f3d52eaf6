/**
 * The node's structured logger: a message plus a context object, never data glued into the
 * string. `plain` prints one human line per entry (`2026-01-02T03:04:05.678Z INF executed block
 * module=consensus height=5`); `json` prints one JSON object per line. Logs go to stderr.
 *
 * The one logger interface of the node library: every subsystem takes a `Logger` (any object
 * with these five methods fits) and hands children `childLogger(logger, { module })`.
 */

// ------------------------------------------------------------------------------------- the interface

export type LogContext = Record<string, unknown>;

export interface Logger {
  trace(msg: string, ctx?: LogContext): void;
  debug(msg: string, ctx?: LogContext): void;
  info(msg: string, ctx?: LogContext): void;
  warn(msg: string, ctx?: LogContext): void;
  error(msg: string, ctx?: LogContext): void;
}

const noop = (): void => {};

/** A logger that drops everything (tests, tools). */
export const nullLogger: Logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };

/** A logger that adds `fields` to every entry of `base`. */
export function childLogger(base: Logger, fields: LogContext): Logger {
  const wrap =
    (fn: (msg: string, ctx?: LogContext) => void) =>
    (msg: string, ctx?: LogContext): void =>
      fn.call(base, msg, ctx ? { ...fields, ...ctx } : fields);
  return { trace: wrap(base.trace), debug: wrap(base.debug), info: wrap(base.info), warn: wrap(base.warn), error: wrap(base.error) };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LEVELS)[number];

/** JSON lines on stderr at or above `level` (handy in tests: `consoleLogger('debug')`). */
export function consoleLogger(level: LogLevel = 'info'): Logger {
  const min = LEVELS.indexOf(level);
  const make =
    (lvl: LogLevel) =>
    (msg: string, ctx?: LogContext): void => {
      if (LEVELS.indexOf(lvl) < min) return;
      process.stderr.write(`${JSON.stringify({ level: lvl, msg, ...ctx }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    };
  return { trace: make('trace'), debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}

// ------------------------------------------------------------------------------------- the node's logger

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'panic'] as const;
export type NodeLogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'plain' | 'json';

const LEVEL_TAGS: Record<string, string> = { trace: 'TRC', debug: 'DBG', info: 'INF', warn: 'WRN', error: 'ERR' };
const RANK: Record<string, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, fatal: 5, panic: 6 };

export interface LoggerOptions {
  level: NodeLogLevel;
  format: LogFormat;
  /** Where lines go; default stderr. */
  write?: (line: string) => void;
}

function plainValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex').toUpperCase();
  if (value instanceof Error) return JSON.stringify(value.message);
  return JSON.stringify(value, jsonReplacer) ?? 'undefined';
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex').toUpperCase();
  if (value instanceof Error) return value.message;
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer') {
    return Buffer.from((value as { data: number[] }).data).toString('hex').toUpperCase();
  }
  return value;
}

export function createLogger(options: LoggerOptions): Logger {
  const min = RANK[options.level] ?? RANK.info!;
  const write = options.write ?? ((line: string): void => void process.stderr.write(line));
  const make =
    (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') =>
    (msg: string, ctx?: LogContext): void => {
      if (RANK[level]! < min) return;
      const time = new Date().toISOString();
      if (options.format === 'json') {
        write(`${JSON.stringify({ level, time, msg, ...ctx }, jsonReplacer)}\n`);
        return;
      }
      let line = `${time} ${LEVEL_TAGS[level]} ${msg}`;
      if (ctx) for (const [key, value] of Object.entries(ctx)) if (value !== undefined) line += ` ${key}=${plainValue(value)}`;
      write(`${line}\n`);
    };
  return { trace: make('trace'), debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}
