/**
 * Structured JSON logs. Callers pass only what is safe to log: never headers, bodies or secrets.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

let threshold = ORDER.info;

/** Set once from the parsed config. */
export function setLogLevel(level: Level | 'silent'): void {
  threshold = ORDER[level];
}

/**
 * The level a `LOG_LEVEL` value names, info when it names none. Applied when this module loads, so code
 * that logs before any config is parsed (a module used on its own, a unit test) follows the variable too.
 */
export function setLogLevelFromEnvironment(value: string | undefined = process.env.LOG_LEVEL): void {
  setLogLevel(value !== undefined && Object.hasOwn(ORDER, value) ? (value as Level | 'silent') : 'info');
}

setLogLevelFromEnvironment();

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold) return;
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** A logger whose fields (a call's id, its workspace) are bound once and written on every line. */
export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to this one's. */
  child(fields: Record<string, unknown>): Logger;
}

/** The logger bound to `bound`; a line's own fields win over bound ones of the same name. */
export function loggerWith(bound: Record<string, unknown>): Logger {
  return {
    log: (level, msg, fields = {}) => log(level, msg, { ...bound, ...fields }),
    child: (more) => loggerWith({ ...bound, ...more }),
  };
}

/** An error described without its payload: name, message, stack and the cause chain. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  return {
    error: error.name,
    message: error.message,
    stack: error.stack,
    ...(error.cause !== undefined ? { cause: describeError(error.cause) } : {}),
  };
}
