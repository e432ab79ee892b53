import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InvalidClientError,
  InvalidCsrfTokenError,
  InvalidScopeError,
  NotFoundError,
  RateLimitedError,
  ResourceUseDpopNonceError,
  UseDpopNonceError,
  ServiceUnavailableError,
  ValidationError,
  normalizeError,
  rebuildError,
  toApiWire,
  toOAuthWire,
} from './index.js';

describe('API envelope (interface.md 7)', () => {
  it('renders a validation error with one detail per field and nothing else', () => {
    const error = new ValidationError([{ path: 'email', message: 'must be an email' }]);
    expect(toApiWire(error)).toEqual({
      error: 'Validation error',
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      details: [{ path: 'email', message: 'must be an email' }],
    });
  });

  it('renders the fixed CSRF failure body of docs/decisions.md #19', () => {
    expect(toApiWire(new InvalidCsrfTokenError())).toEqual({
      error: 'invalid_csrf_token',
      statusCode: 400,
      code: 'INVALID_CSRF_TOKEN',
    });
  });

  it('keeps a generic conflict generic', () => {
    expect(toApiWire(new ConflictError({ message: 'Registration failed' }))).toEqual({
      error: 'Registration failed',
      statusCode: 409,
      code: 'CONFLICT',
    });
    expect(toApiWire(new NotFoundError())).toEqual({
      error: 'Not found',
      statusCode: 404,
      code: 'NOT_FOUND',
    });
  });

  it('turns anything unexpected into a bare internal error', () => {
    const wire = toApiWire(normalizeError(new Error('relation "identity.users" does not exist')));
    expect(wire).toEqual({ error: 'Internal server error', statusCode: 500, code: 'INTERNAL_ERROR' });
  });
});

describe('OAuth body (RFC 6749 section 5.2 + interface.md 7)', () => {
  it('omits error_description for client authentication failures (docs/decisions.md #21)', () => {
    expect(toOAuthWire(new InvalidClientError())).toEqual({
      error: 'invalid_client',
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
  });

  it('includes error_description when the thrower gave one', () => {
    expect(toOAuthWire(new InvalidScopeError({ message: 'scope "admin" is not allowed' }))).toEqual({
      error: 'invalid_scope',
      error_description: 'scope "admin" is not allowed',
      code: 'INVALID_SCOPE',
      statusCode: 400,
    });
  });

  it('maps non-OAuth failures onto registered tokens, keeping rate limits at 429', () => {
    expect(toOAuthWire(new ServiceUnavailableError())).toEqual({
      error: 'temporarily_unavailable',
      code: 'TEMPORARILY_UNAVAILABLE',
      statusCode: 503,
    });
    expect(toOAuthWire(new RateLimitedError())).toMatchObject({ error: 'rate_limited', statusCode: 429 });
    expect(toOAuthWire(normalizeError(new TypeError('x')))).toEqual({
      error: 'server_error',
      code: 'SERVER_ERROR',
      statusCode: 500,
    });
  });
});

describe('error registry', () => {
  it('rebuilds every registered class by kind and code', () => {
    expect(rebuildError('oauth', 'INVALID_CLIENT', {})).toBeInstanceOf(InvalidClientError);
    expect(rebuildError('api', 'RATE_LIMITED', { attributes: { retryAfterSeconds: '1.2' } })).toMatchObject({
      retryAfterSeconds: 2,
    });
    expect(
      rebuildError('api', 'SERVICE_UNAVAILABLE', { attributes: { retryAfterSeconds: '1' } }),
    ).toMatchObject({ retryAfterSeconds: 1 });
    expect(rebuildError('api', 'SERVICE_UNAVAILABLE', {})).toMatchObject({ retryAfterSeconds: undefined });
    expect(rebuildError('api', 'NO_SUCH_CODE', {})).toBeUndefined();
  });

  it('rebuilds the class of the status when one token has two (RFC 9449 use_dpop_nonce)', () => {
    expect(rebuildError('oauth', 'USE_DPOP_NONCE', {}, 401)).toBeInstanceOf(ResourceUseDpopNonceError);
    expect(rebuildError('oauth', 'USE_DPOP_NONCE', {}, 400)).toBeInstanceOf(UseDpopNonceError);
    expect(rebuildError('oauth', 'USE_DPOP_NONCE', {})).toBeInstanceOf(UseDpopNonceError);
  });
});
