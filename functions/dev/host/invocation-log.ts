import type { LogHandler } from '@azure/functions';
import { format } from 'node:util';

/**
 * Writes what a function logs through its context to stdout/stderr as one JSON line, as the
 * Functions host forwards it to Application Insights. Lines that are already JSON pass through.
 */
export function invocationLogHandler(functionName: string): LogHandler {
  return (level, ...args) => {
    const stream = level === 'error' || level === 'warning' ? process.stderr : process.stdout;
    const [first] = args;
    if (args.length === 1 && typeof first === 'string' && first.startsWith('{')) {
      stream.write(`${first}\n`);
      return;
    }
    stream.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, function: functionName, message: format(...args) })}\n`,
    );
  };
}
