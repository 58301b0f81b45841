export type ErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'payment_required'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'precondition_failed'
  | 'precondition_required'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'service_unavailable'
  | 'internal';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payment_required: 402,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  precondition_required: 428,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  service_unavailable: 503,
  internal: 500,
};

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = statusOf[code];
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError('bad_request', message, details);
export const unauthorized = (message = 'Authentication required') =>
  new AppError('unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this', details?: unknown) =>
  new AppError('forbidden', message, details);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string, details?: unknown) =>
  new AppError('conflict', message, details);
export const preconditionFailed = (
  message = 'This record was changed by someone else. Reload it and try again.',
) => new AppError('precondition_failed', message);
export const preconditionRequired = (message: string) =>
  new AppError('precondition_required', message);
export const payloadTooLarge = (message: string) => new AppError('payload_too_large', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(
    'too_many_requests',
    message,
    { retryAfterSeconds },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
export const serviceUnavailable = (message: string, details?: unknown) =>
  new AppError('service_unavailable', message, details);
