import type { InvocationContext } from '@azure/functions';
import { createLogger, type LogFields, type Logger } from './logging.js';
import { settings } from './settings.js';

/** A structured logger that writes through the invocation context, so Functions keeps the lines. */
export function contextLogger(context: InvocationContext, fields: LogFields): Logger {
  return createLogger(
    (level, line) => {
      if (level === 'error') context.error(line);
      else if (level === 'warn') context.warn(line);
      else if (level === 'debug') context.debug(line);
      else context.info(line);
    },
    settings().LOG_LEVEL,
    fields,
  );
}
