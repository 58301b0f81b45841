/**
 * What a failed Cosmos (or Storage) call meant, read from the HTTP status its SDK error carries.
 * One place for the `error.code` casts, so features ask `isConflict(error)` instead.
 */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === 'number') return statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** The id (or a unique key) is taken. */
export const isConflict = (error: unknown) => statusOf(error) === 409;
/** The record changed since its ETag was read (or a conditional write's condition failed). */
export const isStale = (error: unknown) => statusOf(error) === 412;
export const isNotFound = (error: unknown) => statusOf(error) === 404;

/** An error that reads like the SDK's, for a failure found in a batch's results. */
export function withStatus(status: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: status });
}
