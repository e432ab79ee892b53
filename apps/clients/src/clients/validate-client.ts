import { ValidationError, type FieldViolation } from '@authz/shared/errors';
import { holdsUnstorableString, isStorableText } from '@authz/shared/protocol';
import { isAcceptableJwksUri, isJwksShape, JWKS_MESSAGE, JWKS_URI_MESSAGE } from './check-jwks.js';
import { isAcceptableRedirectUri, REDIRECT_URI_MESSAGE } from './registrable-redirect-uri.js';
import { isConfidential, type ClientConfig } from './client-config.js';
import { DEVICE_CODE_GRANT } from './device-code-grant.js';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT];
export const RESPONSE_TYPES = ['code'];
export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic', 'private_key_jwt'];
const USER_GRANTS = ['authorization_code', 'refresh_token'];

export interface ValidationContext {
  /** docs/decisions.md #1: the realm's allowed-scopes policy. */
  allowedScopes: ReadonlySet<string>;
  /** interface.md 4.7 PATCH: the realm cap is checked when scopes are set. */
  checkScopes: boolean;
  /** The grant types a client may hold; GRANT_TYPES unless said otherwise. */
  grantTypes?: readonly string[];
  /** Test-only CIMD_ALLOW_INSECURE_LOOPBACK: a loopback http jwksUri is accepted. */
  allowInsecureLoopback?: boolean;
}

/**
 * interface.md 4.7 and docs/clients.md #2: every rule over the effective configuration, one
 * violation per rejected field (interface.md 7: the first problem found for that field).
 */
export function validateClientConfig(config: ClientConfig, context: ValidationContext): void {
  const problems = new Map<string, string>();
  const reject = (path: string, message: string) => {
    if (!problems.has(path)) problems.set(path, message);
  };
  checkStorableText(config, reject);
  checkName(config, reject);
  checkRedirectUris(config, reject);
  if (context.checkScopes) checkScopes(config, context.allowedScopes, reject);
  checkGrantsAndResponses(config, context.grantTypes ?? GRANT_TYPES, reject);
  checkAuthMethod(config, context.allowInsecureLoopback ?? false, reject);
  checkLogoutUris(config, context.allowInsecureLoopback ?? false, reject);
  // docs/tokens.md #34: ID tokens are EdDSA by default (interface.md 2.5) or RS256; nothing else.
  if (!ID_TOKEN_SIGNING_ALGS.includes(config.idTokenSignedResponseAlg)) {
    reject('idTokenSignedResponseAlg', 'must be one of EdDSA, RS256');
  }
  if (problems.size > 0) {
    const details: FieldViolation[] = [...problems].map(([path, message]) => ({ path, message }));
    throw new ValidationError(details);
  }
}

type Reject = (path: string, message: string) => void;

const UNSTORABLE_MESSAGE = 'must not contain U+0000 or an unpaired surrogate';

// Checked here as well as at the gateway: RFC 7591 metadata arrives as JSON text, and a CIMD
// document is fetched and parsed by this service itself, so no caller has looked at either.
function checkStorableText(config: ClientConfig, reject: Reject): void {
  if (!isStorableText(config.name)) reject('name', UNSTORABLE_MESSAGE);
  if (config.description !== null && !isStorableText(config.description))
    reject('description', UNSTORABLE_MESSAGE);
  config.redirectUris.forEach((uri, index) => {
    if (!isStorableText(uri)) reject(`redirectUris.${index}`, UNSTORABLE_MESSAGE);
  });
  if (config.jwksUri !== null && !isStorableText(config.jwksUri)) reject('jwksUri', UNSTORABLE_MESSAGE);
  if (holdsUnstorableString(config.jwks)) reject('jwks', UNSTORABLE_MESSAGE);
  config.postLogoutRedirectUris.forEach((uri, index) => {
    if (!isStorableText(uri)) reject(`postLogoutRedirectUris.${index}`, UNSTORABLE_MESSAGE);
  });
  if (config.backchannelLogoutUri !== null && !isStorableText(config.backchannelLogoutUri))
    reject('backchannelLogoutUri', UNSTORABLE_MESSAGE);
}

// interface.md 2.2 / 8: 1-255 characters.
function checkName({ name, description }: ClientConfig, reject: Reject): void {
  const length = [...name].length;
  if (length < 1 || length > 255) reject('name', 'must be 1 to 255 characters long');
  if (description !== null && description.length > 2000)
    reject('description', 'must be at most 2000 characters long');
}

// interface.md 4.7: https or loopback; at least one for the user grants.
function checkRedirectUris({ redirectUris, grantTypes }: ClientConfig, reject: Reject): void {
  redirectUris.forEach((uri, index) => {
    if (!isAcceptableRedirectUri(uri)) reject(`redirectUris.${index}`, REDIRECT_URI_MESSAGE);
  });
  // docs/device-grant.md #8: refresh_token beside the device grant alone redirects nowhere.
  const redirecting = grantTypes.filter(
    (grant) => grant !== 'refresh_token' || !grantTypes.includes(DEVICE_CODE_GRANT),
  );
  if (redirectUris.length === 0 && redirecting.some((grant) => USER_GRANTS.includes(grant))) {
    reject('redirectUris', 'at least one is required for authorization_code or refresh_token');
  }
}

// interface.md 4.7 and 5: scopes within the realm's allowed-scopes policy (deny-by-default).
function checkScopes({ scopes }: ClientConfig, allowed: ReadonlySet<string>, reject: Reject): void {
  const outside = scopes.filter((scope) => !allowed.has(scope));
  if (outside.length > 0) reject('scopes', `outside the realm's allowed scopes: ${outside.join(' ')}`);
}

// docs/clients.md #2: authorization_code <=> code; refresh_token needs authorization_code;
// client_credentials needs a confidential client.
function checkGrantsAndResponses(config: ClientConfig, known: readonly string[], reject: Reject): void {
  const { grantTypes, responseTypes } = config;
  if (grantTypes.length === 0) reject('grantTypes', 'must name at least one grant type');
  if (grantTypes.some((grant) => !known.includes(grant))) {
    reject('grantTypes', `must be among ${known.join(', ')}`);
  }
  const userGrant = grantTypes.includes('authorization_code') || grantTypes.includes(DEVICE_CODE_GRANT);
  if (grantTypes.includes('refresh_token') && !userGrant) {
    reject('grantTypes', 'refresh_token requires authorization_code');
  }
  if (grantTypes.includes('client_credentials') && !isConfidential(config.tokenEndpointAuthMethod)) {
    reject('grantTypes', 'client_credentials requires a confidential tokenEndpointAuthMethod');
  }
  if (responseTypes.some((type) => !RESPONSE_TYPES.includes(type))) {
    reject('responseTypes', 'only code is supported');
  }
  const hasCode = responseTypes.includes('code');
  const hasAuthorizationCode = grantTypes.includes('authorization_code');
  if (hasAuthorizationCode && !hasCode) reject('responseTypes', 'must contain code for authorization_code');
  if (hasCode && !hasAuthorizationCode) reject('responseTypes', 'code requires the authorization_code grant');
}

// interface.md 4.3: post-logout redirect URIs follow the redirect URI rules (OIDC RP-Initiated
// Logout 1.0 section 3.1); the back-channel URI is https, without a fragment (Back-Channel
// Logout 1.0 section 2.2), loopback http only under the test-only CIMD_ALLOW_INSECURE_LOOPBACK
// since the server itself POSTs to it (docs/clients.md #20).
function checkLogoutUris(config: ClientConfig, allowInsecureLoopback: boolean, reject: Reject): void {
  config.postLogoutRedirectUris.forEach((uri, index) => {
    if (!isAcceptableRedirectUri(uri)) reject(`postLogoutRedirectUris.${index}`, REDIRECT_URI_MESSAGE);
  });
  const backchannel = config.backchannelLogoutUri;
  if (
    backchannel !== null &&
    (backchannel.length > 2048 || !isAcceptableJwksUri(backchannel, allowInsecureLoopback))
  ) {
    reject('backchannelLogoutUri', BACKCHANNEL_LOGOUT_URI_MESSAGE);
  }
}

const ID_TOKEN_SIGNING_ALGS: readonly string[] = ['EdDSA', 'RS256'];

const BACKCHANNEL_LOGOUT_URI_MESSAGE = 'must be an absolute https URL without a fragment';

// docs/decisions.md #16: private_key_jwt needs jwks or jwksUri, not both.
function checkAuthMethod(config: ClientConfig, allowInsecureLoopback: boolean, reject: Reject): void {
  const { tokenEndpointAuthMethod: method, jwks, jwksUri } = config;
  if (!AUTH_METHODS.includes(method))
    reject('tokenEndpointAuthMethod', `must be one of ${AUTH_METHODS.join(', ')}`);
  if (jwks !== null && !isJwksShape(jwks)) reject('jwks', JWKS_MESSAGE);
  if (jwksUri !== null && !isAcceptableJwksUri(jwksUri, allowInsecureLoopback))
    reject('jwksUri', JWKS_URI_MESSAGE);
  if (jwks !== null && jwksUri !== null) reject('jwksUri', 'give jwks or jwksUri, not both');
  if (method === 'private_key_jwt' && jwks === null && jwksUri === null) {
    reject('jwks', 'jwks or jwksUri is required for private_key_jwt');
  }
}
