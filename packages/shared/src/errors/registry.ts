import * as api from './api-errors.js';
import type { AppError, ErrorInit } from './app-error.js';
import * as oauth from './oauth-errors.js';

type ErrorFactory = (init: ErrorInit) => AppError;

/**
 * Every concrete error class by `kind:code`, so an error that crossed a gRPC boundary is
 * rebuilt as the very class that was thrown (instanceof keeps working in the gateway).
 */
const factories = new Map<string, ErrorFactory>();

// A token used with two statuses (RFC 9449 use_dpop_nonce: 400 at the token endpoint, 401 at a
// resource) is registered under its status too; the first class registered keeps the plain key.
function register(factory: ErrorFactory): void {
  const sample = factory({});
  const key = `${sample.kind}:${sample.code}`;
  if (!factories.has(key)) factories.set(key, factory);
  factories.set(`${key}:${sample.statusCode}`, factory);
}

for (const ErrorClass of Object.values(oauth)) {
  if (typeof ErrorClass === 'function' && ErrorClass !== oauth.OAuthError) {
    const Concrete = ErrorClass as unknown as new (init: ErrorInit) => AppError;
    register((init) => new Concrete(init));
  }
}
register((init) => new api.ValidationError(init.details ?? [], init));
register((init) => new api.MalformedBodyError(init));
register((init) => new api.MalformedRequestError(init));
register((init) => new api.RequestTimeoutError(init));
register((init) => new api.RequestHeaderFieldsTooLargeError(init));
register((init) => new api.InvalidTokenError(init));
register((init) => new api.InvalidCodeError(init));
register((init) => new api.InvalidCsrfTokenError(init));
register((init) => new api.UnauthorizedError(init));
register((init) => new api.InvalidCredentialsError(init));
register((init) => new api.ForbiddenError(init));
register((init) => new api.NotFoundError(init));
register((init) => new api.ConflictError(init));
register((init) => new api.PayloadTooLargeError(init));
register((init) => new api.UnsupportedMediaTypeError(init));
register((init) => new api.RateLimitedError(init));
register((init) => new api.InternalError(init));
register((init) => new api.ServiceUnavailableError(init));
register((init) => new api.UpstreamTimeoutError(init));

/** Rebuilds a registered error, or undefined when `kind:code` is unknown. */
export function rebuildError(
  kind: string,
  code: string,
  init: ErrorInit,
  statusCode?: number,
): AppError | undefined {
  const factory =
    (statusCode === undefined ? undefined : factories.get(`${kind}:${code}:${statusCode}`)) ??
    factories.get(`${kind}:${code}`);
  return factory?.(init);
}
