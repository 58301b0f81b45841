import { z } from 'zod';
import { AppError } from './errors.js';

export type InputLocation = 'params' | 'query' | 'body' | 'headers';

export interface FieldProblem {
  location: InputLocation;
  field: string;
  message: string;
}

function describe(issue: z.core.$ZodIssue): string {
  // Parsed with reportInput, so a missing value shows as an undefined input.
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}

export function fieldProblems(location: InputLocation, error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    location,
    field: issue.path.map(String).join('.') || location,
    message: describe(issue),
  }));
}

export function validationError(problems: FieldProblem[]): AppError {
  const [first] = problems;
  const message = first ? `${first.field}: ${first.message}` : 'The request is not valid';
  return new AppError('validation_failed', message, { fields: problems });
}

/** Parses with the schema or throws a 400 that names the offending field. */
export function parseInput<T>(location: InputLocation, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationError(fieldProblems(location, result.error));
  return result.data;
}

/**
 * A document id as a path segment: one Cosmos can store, and never `.` or `..`, which a URL
 * resolves away before any route sees it.
 */
export const pathIdSchema = z
  .string()
  .min(1)
  .max(100)
  .refine(
    (value) => value.trim() !== '' && !/[/\\#?]/.test(value) && value !== '.' && value !== '..',
    'is not an id',
  );
