import { AppError, type ErrorInit, type FieldViolation } from './app-error.js';

/** Errors of the JSON APIs, rendered as `{ error, statusCode, code, details? }` (interface.md 7). */
export abstract class ApiError extends AppError {
  readonly kind = 'api' as const;
}

export class ValidationError extends ApiError {
  readonly code = 'VALIDATION_ERROR';
  readonly statusCode = 400;
  constructor(details: FieldViolation[], init: Omit<ErrorInit, 'details'> = {}) {
    super('Validation error', { ...init, details });
  }
}

export class MalformedBodyError extends ApiError {
  readonly code = 'MALFORMED_BODY';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('Malformed request body', init);
  }
}

/**
 * What Node's HTTP parser refuses before any request exists: a malformed request line or header
 * (RFC 9112 section 2.2, 3), rendered by the gateway's clientError handler (docs/errors.md).
 */
export class MalformedRequestError extends ApiError {
  readonly code = 'MALFORMED_REQUEST';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('Malformed request', init);
  }
}

/** RFC 9110 section 15.5.9: the request did not arrive in time (`HTTP_REQUEST_TIMEOUT_MS`). */
export class RequestTimeoutError extends ApiError {
  readonly code = 'REQUEST_TIMEOUT';
  readonly statusCode = 408;
  constructor(init?: ErrorInit) {
    super('Request timeout', init);
  }
}

/** RFC 6585 section 5: the header section is over Node's limit (16 KiB by default). */
export class RequestHeaderFieldsTooLargeError extends ApiError {
  readonly code = 'REQUEST_HEADER_FIELDS_TOO_LARGE';
  readonly statusCode = 431;
  constructor(init?: ErrorInit) {
    super('Request header fields too large', init);
  }
}

/** interface.md 4.2: unknown, expired or used verification token (docs/decisions.md #5). */
export class InvalidTokenError extends ApiError {
  readonly code = 'INVALID_TOKEN';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('Invalid or expired token', init);
  }
}

/**
 * docs/strong-authentication.md #3: a wrong, replayed or already used authenticator-app or
 * recovery code. One body for every case, so a replay does not confirm a code was right.
 */
export class InvalidCodeError extends ApiError {
  readonly code = 'INVALID_CODE';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('Invalid code', init);
  }
}

/** docs/decisions.md #19: the body is fixed, the message is the token itself. */
export class InvalidCsrfTokenError extends ApiError {
  readonly code = 'INVALID_CSRF_TOKEN';
  readonly statusCode = 400;
  constructor(init?: Omit<ErrorInit, 'message'>) {
    super('invalid_csrf_token', init);
  }
}

export class UnauthorizedError extends ApiError {
  readonly code = 'UNAUTHORIZED';
  readonly statusCode = 401;
  constructor(init?: ErrorInit) {
    super('Unauthorized', init);
  }
}

/** interface.md 4.2: one body for unknown email and wrong password alike (no enumeration). */
export class InvalidCredentialsError extends ApiError {
  readonly code = 'INVALID_CREDENTIALS';
  readonly statusCode = 401;
  constructor(init?: Omit<ErrorInit, 'message'>) {
    super('Invalid email or password', init);
  }
}

export class ForbiddenError extends ApiError {
  readonly code = 'FORBIDDEN';
  readonly statusCode = 403;
  constructor(init?: ErrorInit) {
    super('Forbidden', init);
  }
}

export class NotFoundError extends ApiError {
  readonly code = 'NOT_FOUND';
  readonly statusCode = 404;
  constructor(init?: ErrorInit) {
    super('Not found', init);
  }
}

export class ConflictError extends ApiError {
  readonly code = 'CONFLICT';
  readonly statusCode = 409;
  constructor(init?: ErrorInit) {
    super('Conflict', init);
  }
}

export class PayloadTooLargeError extends ApiError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly statusCode = 413;
  constructor(init?: ErrorInit) {
    super('Request body too large', init);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  readonly statusCode = 415;
  constructor(init?: ErrorInit) {
    super('Unsupported media type', init);
  }
}

/** Carries `retryAfterSeconds` so the gateway can send Retry-After (RFC 9110 section 10.2.3). */
export class RateLimitedError extends ApiError {
  readonly code = 'RATE_LIMITED';
  readonly statusCode = 429;
  constructor(init?: ErrorInit) {
    super('Too many requests', init);
  }
}

export class InternalError extends ApiError {
  readonly code = 'INTERNAL_ERROR';
  readonly statusCode = 500;
  constructor(init?: Omit<ErrorInit, 'message'>) {
    super('Internal server error', init);
  }
}

/** May carry `retryAfterSeconds` when the outage is a short overload (docs/errors.md). */
export class ServiceUnavailableError extends ApiError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly statusCode = 503;
  constructor(init?: ErrorInit) {
    super('Service unavailable', init);
  }
}

/** A downstream call ran past its deadline. */
export class UpstreamTimeoutError extends ApiError {
  readonly code = 'UPSTREAM_TIMEOUT';
  readonly statusCode = 504;
  constructor(init?: ErrorInit) {
    super('Upstream service timed out', init);
  }
}
