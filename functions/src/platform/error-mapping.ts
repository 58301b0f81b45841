import { ZodError } from 'zod';
import {
  AppError,
  conflict,
  notFound,
  preconditionFailed,
  serviceUnavailable,
  tooManyRequests,
} from './errors.js';
import { fieldProblems, validationError } from './validation.js';

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'REQUEST_SEND_ERROR',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function field(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** True when the error means a dependency could not be reached, not that the request was wrong. */
export function isUnavailable(error: unknown): boolean {
  const code = field(error, 'code');
  const name = field(error, 'name');
  if (name === 'AbortError' || name === 'TimeoutError') return true;
  if (typeof code === 'string' && networkCodes.has(code)) return true;
  const cause = field(error, 'cause');
  return cause !== undefined && cause !== error && isUnavailable(cause);
}

/**
 * Turns what a handler threw into an error the caller may see. Returns undefined for a genuine
 * fault, which the wrapper logs and answers with a bare 500.
 */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return validationError(fieldProblems('body', error));
  // Cosmos and Storage SDK errors carry the HTTP status of the failed call.
  const status = field(error, 'statusCode') ?? field(error, 'code');
  switch (status) {
    case 404:
      return notFound();
    case 409:
      return conflict('This record already exists');
    case 412:
      return preconditionFailed();
    case 429: {
      const retryAfterMs = Number(field(error, 'retryAfterInMs') ?? 1000);
      return tooManyRequests(
        'The service is busy. Try again shortly.',
        Math.ceil(retryAfterMs / 1000),
      );
    }
    case 408:
    case 503:
      return serviceUnavailable(
        'A service Lotwise depends on is not responding. Try again shortly.',
      );
  }
  if (isUnavailable(error)) {
    return serviceUnavailable('A service Lotwise depends on is not responding. Try again shortly.');
  }
  return undefined;
}
