import { AppError, type ErrorInit } from './app-error.js';

/**
 * RFC 6749 (and extension) errors, one class per registered token. Rendered as
 * `{ error, error_description?, code, statusCode }` (interface.md 7): `error` is the token,
 * `code` its upper-case form, error_description only when the thrower gave one.
 */
export abstract class OAuthError extends AppError {
  readonly kind = 'oauth' as const;
  /** The registered error token, e.g. "invalid_grant". */
  abstract readonly error: string;

  get code(): string {
    return this.error.toUpperCase();
  }

  /** error_description, sent only when the thrower supplied one. */
  get description(): string | undefined {
    return this.hasCustomMessage ? this.message : undefined;
  }
}

function oauthError(error: string, statusCode: number) {
  return class extends OAuthError {
    readonly error = error;
    readonly statusCode = statusCode;
    constructor(init?: ErrorInit) {
      super(error, init);
    }
  };
}

// RFC 6749 section 5.2 (token endpoint) and 4.1.2.1 (authorization endpoint).
export class InvalidRequestError extends oauthError('invalid_request', 400) {}
/** docs/decisions.md #21: client authentication failures carry no error_description. */
export class InvalidClientError extends oauthError('invalid_client', 401) {}
export class InvalidGrantError extends oauthError('invalid_grant', 400) {}
export class UnauthorizedClientError extends oauthError('unauthorized_client', 400) {}
export class UnsupportedGrantTypeError extends oauthError('unsupported_grant_type', 400) {}
export class InvalidScopeError extends oauthError('invalid_scope', 400) {}
// 400 as RFC 6749 section 5.2 says: the token endpoint answers it to a device whose user
// denied (RFC 8628 section 3.5); at the authorization endpoint it travels in a redirect.
export class AccessDeniedError extends oauthError('access_denied', 400) {}
export class UnsupportedResponseTypeError extends oauthError('unsupported_response_type', 400) {}
export class ServerError extends oauthError('server_error', 500) {}
export class TemporarilyUnavailableError extends oauthError('temporarily_unavailable', 503) {}
// RFC 8707 section 2.
export class InvalidTargetError extends oauthError('invalid_target', 400) {}
// RFC 6750 section 3.1.
export class InvalidBearerTokenError extends oauthError('invalid_token', 401) {}
export class InsufficientScopeError extends oauthError('insufficient_scope', 403) {}
// RFC 7591 section 3.2.2.
export class InvalidRedirectUriError extends oauthError('invalid_redirect_uri', 400) {}
export class InvalidClientMetadataError extends oauthError('invalid_client_metadata', 400) {}
// OpenID Connect Core section 3.1.2.6.
export class LoginRequiredError extends oauthError('login_required', 400) {}
export class ConsentRequiredError extends oauthError('consent_required', 400) {}
export class InteractionRequiredError extends oauthError('interaction_required', 400) {}
// OpenID Connect Core section 3.1.2.6, for RFC 9126 request URIs (docs/par-and-dpop.md #3).
export class InvalidRequestUriError extends oauthError('invalid_request_uri', 400) {}
// RFC 9449 section 5 (token endpoint, PAR) and section 7.1 (protected resources, 401).
export class InvalidDpopProofError extends oauthError('invalid_dpop_proof', 400) {}
export class UseDpopNonceError extends oauthError('use_dpop_nonce', 400) {}
export class ResourceInvalidDpopProofError extends oauthError('invalid_dpop_proof', 401) {}
export class ResourceUseDpopNonceError extends oauthError('use_dpop_nonce', 401) {}
// RFC 8628 section 3.5: the device authorization grant's polling answers.
export class AuthorizationPendingError extends oauthError('authorization_pending', 400) {}
export class SlowDownError extends oauthError('slow_down', 400) {}
export class ExpiredTokenError extends oauthError('expired_token', 400) {}
