export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

/** Where a finished JSON line goes: the invocation context in Functions, stdout in scripts. */
export type LogSink = (level: LogLevel, line: string) => void;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  return value;
}

export function createLogger(sink: LogSink, minLevel: LogLevel, base: LogFields = {}): Logger {
  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (rank[level] < rank[minLevel]) return;
    const entry: LogFields = { time: new Date().toISOString(), level, message, ...base };
    for (const [key, value] of Object.entries(fields ?? {})) entry[key] = serialise(value);
    sink(level, JSON.stringify(entry));
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (fields) => createLogger(sink, minLevel, { ...base, ...fields }),
  };
}

export const stdoutSink: LogSink = (level, line) => {
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};
