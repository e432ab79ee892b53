import type { AppError } from './app-error.js';
import { isAppError } from './app-error.js';
import { InternalError, ServiceUnavailableError } from './api-errors.js';
import { isDatabaseUnreachable } from './database-unreachable.js';
import { OAuthError } from './oauth-errors.js';

export interface ApiErrorBody {
  error: string;
  statusCode: number;
  code?: string;
  details?: { path: string; message: string }[];
}

export interface OAuthErrorBody {
  error: string;
  error_description?: string;
  code: string;
  statusCode: number;
}

/**
 * Anything that is not an AppError leaves as a bare internal error: no stack, no constraint.
 * A database that cannot be reached is an outage the client may retry, so 503 rather than 500
 * (docs/operations.md "Fault behaviour").
 */
export function normalizeError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isDatabaseUnreachable(error))
    return new ServiceUnavailableError({ detail: 'database unreachable', cause: error });
  return new InternalError({ cause: error });
}

/** The API envelope of interface.md 7. */
export function toApiWire(error: AppError): ApiErrorBody {
  const body: ApiErrorBody = { error: error.message, statusCode: error.statusCode, code: error.code };
  if (error.details) body.details = error.details.map(({ path, message }) => ({ path, message }));
  return body;
}

/**
 * The RFC 6749 section 5.2 body plus `code` and `statusCode` (interface.md 7). A non-OAuth
 * failure keeps its status: a malformed request is invalid_request, a rate limit is
 * rate_limited (no registered token exists), a dependency outage temporarily_unavailable,
 * anything else server_error.
 */
export function toOAuthWire(error: AppError): OAuthErrorBody {
  if (error instanceof OAuthError) {
    const body: OAuthErrorBody = { error: error.error, code: error.code, statusCode: error.statusCode };
    if (error.description !== undefined) body.error_description = error.description;
    return body;
  }
  const [token, statusCode] = oauthTokenFor(error.statusCode);
  // A client mistake the thrower chose to explain (e.g. a JSON body where a form is required).
  const description = statusCode < 500 ? error.attributes.description : undefined;
  return {
    error: token,
    ...(description ? { error_description: description } : {}),
    code: token.toUpperCase(),
    statusCode,
  };
}

function oauthTokenFor(statusCode: number): [string, number] {
  if (statusCode === 429) return ['rate_limited', 429];
  if (statusCode === 503 || statusCode === 504) return ['temporarily_unavailable', 503];
  if (statusCode >= 400 && statusCode < 500) return ['invalid_request', statusCode];
  return ['server_error', 500];
}
