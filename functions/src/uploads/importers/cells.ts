import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { cellText, moneyOf } from '../../auctions/lots/catalogue-rows.js';
import type { RequestContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { RowProblem } from '../importer.js';
import type { FileFormat } from '../uploads.schema.js';

/**
 * What the category importers share: a row's cells (CSV text, spreadsheet numbers and dates,
 * JSON values) read as text, choices, days and money, and a service's refusal read as a row's
 * problem naming the field.
 */

export { cellText };

/** Lower case, letters and digits only: how headers, choices and keys are compared. */
export const normalised = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The text of a cell, or undefined when blank (a blank cell never clears a value on file). */
export function given(values: Record<string, unknown>, field: string): string | undefined {
  const text = cellText(values[field]);
  return text === '' ? undefined : text;
}

/**
 * The choice a cell names, by its value or its label, ignoring case, spaces and signs
 * ("Payment Dispute", "payment_dispute"); `extra` adds other names houses use.
 */
export function choiceOf<T extends string>(
  text: string,
  choices: readonly T[],
  labels: Partial<Record<T, string>> = {},
  extra: Record<string, T> = {},
): T | undefined {
  const wanted = normalised(text);
  return (
    choices.find(
      (choice) =>
        normalised(choice) === wanted ||
        (labels[choice] !== undefined && normalised(labels[choice]) === wanted),
    ) ?? extra[wanted]
  );
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day from a cell: an ISO day, an ISO instant's day, or a spreadsheet date. */
export function dayOf(value: unknown): { day: string | undefined } | { problem: string } {
  const text = cellText(value);
  if (text === '') return { day: undefined };
  const day = /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
  if (!ISO_DAY.test(day)) return { problem: 'is a date like 2026-12-31' };
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    return { problem: 'is not a real date' };
  }
  return { day };
}

/**
 * An amount in major units ("1,250.00", "$1250", 1250.5) as minor units of a currency with
 * `exponent` decimals; undefined when blank.
 */
export function minorOf(
  value: unknown,
  exponent: number,
): { minor: number | undefined } | { problem: string } {
  const read = moneyOf(value, exponent);
  if ('problem' in read) return read;
  return { minor: read.minor ?? undefined };
}

/** The most decimals any currency has: what a row's money is checked with before its currency is known. */
export const MAX_EXPONENT = 2;

/** Why a file of this format holds no rows of `what`, or null when it can. */
export function refusesFormat(format: FileFormat | null, what: string): string | null {
  if (format === 'xls') {
    return 'is a legacy Excel (.xls) file, which cannot be read safely. Save it as .xlsx or CSV and upload that.';
  }
  if (format === 'csv' || format === 'xlsx' || format === 'json') return null;
  return `only CSV, Excel (.xlsx) and JSON files hold ${what}`;
}

const messageOf = (issue: z.core.$ZodIssue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;

/** A contract's first problem with a row, named by the field `fieldOf` reads from its path. */
export function issueProblem(error: z.ZodError, fieldOf: (path: string[]) => string): RowProblem {
  const issue = error.issues[0];
  if (!issue) return { field: null, message: 'is not valid' };
  return { field: fieldOf(issue.path.map(String)), message: messageOf(issue) };
}

/**
 * A service's refusal of a row (a 4xx AppError) as the row's problem, its field named as the
 * importer names it; anything else (the platform failing) is thrown again, so the run is retried.
 */
export function refusalOf(
  error: unknown,
  fieldOf: (field: string) => string = (f) => f,
): RowProblem {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const fields = (error.details as { fields?: { field: string; message: string }[] } | undefined)
    ?.fields;
  const first = fields?.[0];
  if (first) return { field: fieldOf(first.field), message: first.message };
  return { field: null, message: error.message };
}

/** Whether two values are the same once written (objects by their JSON). */
export const same = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What an importer reads once per request context and uses for every row of it (the overwrite
 * preview calls `overwrite` row by row with one context): forgotten with the context.
 */
export function perContext<T>(load: (ctx: RequestContext) => Promise<T>) {
  const cache = new WeakMap<RequestContext, Promise<T>>();
  return (ctx: RequestContext) => {
    let found = cache.get(ctx);
    if (!found) {
      found = load(ctx);
      cache.set(ctx, found);
      found.catch(() => cache.delete(ctx));
    }
    return found;
  };
}

/** A document id made from its parts, the same on every run (an auction an upload creates). */
export function stableId(...parts: string[]): string {
  const hex = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
