import { useState } from 'react';
import { ApiError, messageOf } from './api-client';
import { correctFieldsMessage } from './field-errors';

/** How a piece of work ended: done, or failed with the message to show. */
export type Outcome =
  | { ok: true }
  | { ok: false; error: unknown; message: string; fieldErrors: Record<string, string> };

/** Runs the work and turns a failure into the message the api client produced for it. */
export async function attempt(work: () => Promise<unknown>, fallback?: string): Promise<Outcome> {
  try {
    await work();
    return { ok: true };
  } catch (error) {
    const fieldErrors = error instanceof ApiError ? error.fieldErrors() : {};
    const fields = Object.keys(fieldErrors).length;
    return {
      ok: false,
      error,
      // Each field's problem shows beside it; the message says only where to look, not it again.
      message: fields ? correctFieldsMessage(fields) : messageOf(error, fallback),
      fieldErrors,
    };
  }
}

export interface ActionOptions {
  /** The message when the failure carries none of its own. */
  fallback?: string;
  /** Called after a failure, e.g. to show a toast. */
  onError?(message: string, error: unknown): void;
}

export interface Action<A extends unknown[]> {
  /** Runs the work; never rejects. Resolves whether it succeeded. */
  run(...args: A): Promise<boolean>;
  busy: boolean;
  /** The message of the last failure, until the next run or reset. */
  error: string | null;
  /** The field problems of the last failure (a 400), keyed by field name. */
  fieldErrors: Record<string, string>;
  /** Shows a message as the action's error without running it, e.g. after a check of the form. */
  fail(message: string): void;
  reset(): void;
}

const noFields: Record<string, string> = {};

/**
 * The one way a component runs an action (a save, a send, a sign-in) with busy and error state.
 * The work does its own follow-ups on success (toasts, closing); failures end up in `error`,
 * `fieldErrors` and the optional onError.
 */
export function useAction<A extends unknown[]>(
  work: (...args: A) => Promise<unknown>,
  options: ActionOptions = {},
): Action<A> {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{
    message: string;
    fieldErrors: Record<string, string>;
  } | null>(null);

  const run = async (...args: A) => {
    setBusy(true);
    setFailure(null);
    const outcome = await attempt(() => work(...args), options.fallback);
    if (!outcome.ok) {
      setFailure({ message: outcome.message, fieldErrors: outcome.fieldErrors });
      options.onError?.(outcome.message, outcome.error);
    }
    setBusy(false);
    return outcome.ok;
  };

  return {
    run,
    busy,
    error: failure?.message ?? null,
    fieldErrors: failure?.fieldErrors ?? noFields,
    fail: (message) => setFailure({ message, fieldErrors: noFields }),
    reset: () => setFailure(null),
  };
}
