import { randomUUID } from 'node:crypto';
import type { Timer } from '@azure/functions';
import { InvocationContext } from './azure-functions.js';
import { CronExpressionParser } from 'cron-parser';
import type { TimerFunction } from '../../src/platform/functions.js';
import { invocationLogHandler } from './invocation-log.js';

// setTimeout cannot wait longer than this; longer waits re-arm.
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The next occurrence of an NCRONTAB schedule (seconds first, UTC as in Functions). */
export function nextOccurrence(schedule: string, after: Date): Date {
  return CronExpressionParser.parse(schedule, { currentDate: after, tz: 'UTC' }).next().toDate();
}

export interface RunningTimers {
  stop(): void;
}

/** Runs each timer function on its schedule until stopped. */
export function startTimers(functions: TimerFunction[]): RunningTimers {
  const handles = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const arm = (fn: TimerFunction, last: Date | undefined) => {
    if (stopped) return;
    // A timeout may wake a millisecond before the wall clock reaches its occurrence: the next one
    // is after the one just fired, or that one would fire twice.
    const next = nextOccurrence(fn.schedule, new Date(Math.max(Date.now(), last?.getTime() ?? 0)));
    const wait = () => {
      const remaining = next.getTime() - Date.now();
      if (remaining > MAX_DELAY_MS) {
        handles.set(fn.name, setTimeout(wait, MAX_DELAY_MS));
        return;
      }
      handles.set(
        fn.name,
        setTimeout(() => void fire(fn, next, last), Math.max(0, remaining)),
      );
    };
    wait();
  };

  const fire = async (fn: TimerFunction, due: Date, last: Date | undefined) => {
    const now = new Date();
    const timer: Timer = {
      isPastDue: now.getTime() - due.getTime() > 1_000,
      schedule: { adjustForDST: true },
      scheduleStatus: {
        last: (last ?? due).toISOString(),
        next: nextOccurrence(
          fn.schedule,
          new Date(Math.max(now.getTime(), due.getTime())),
        ).toISOString(),
        lastUpdated: now.toISOString(),
      },
    };
    const context = new InvocationContext({
      invocationId: randomUUID(),
      functionName: fn.name,
      logHandler: invocationLogHandler(fn.name),
    });
    try {
      await fn.handler(timer, context);
    } catch (error) {
      context.error(`Timer function ${fn.name} failed`, error);
    }
    arm(fn, due);
  };

  for (const fn of functions) arm(fn, undefined);
  return {
    stop: () => {
      stopped = true;
      for (const handle of handles.values()) clearTimeout(handle);
    },
  };
}
