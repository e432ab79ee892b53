import { OAuthError, type ErrorInit } from '@authz/shared/errors';

// OIDC Core 3.1.2.6 error codes that only ever travel in an authorization redirect, never
// across gRPC, so they are not part of the shared error registry.

/** The `request` parameter (a request object) is not supported. */
export class RequestNotSupportedError extends OAuthError {
  readonly error = 'request_not_supported';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('request_not_supported', init);
  }
}

/** The `request_uri` parameter is not supported. */
export class RequestUriNotSupportedError extends OAuthError {
  readonly error = 'request_uri_not_supported';
  readonly statusCode = 400;
  constructor(init?: ErrorInit) {
    super('request_uri_not_supported', init);
  }
}
