/**
 * The structured logger the consensus subsystem is given by the composition root: a message plus
 * a context object, never data glued into the string. (src/node/logger.ts did not exist when this
 * was written; any logger with these five methods fits.)
 */
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
