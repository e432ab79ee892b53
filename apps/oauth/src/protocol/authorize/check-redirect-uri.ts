import { InvalidRequestError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { AuthorizationParameters } from './authorization-parameters.js';

/** The redirect URI responses go to, and whether the request named it. */
export interface CheckedRedirectUri {
  redirectUri: string;
  sent: boolean;
}

/**
 * OAuth 2.1 section 4.1.1 and 4.1.2.1, RFC 9700 section 4.1.3: redirect_uri may be omitted
 * only when the client registered exactly one; otherwise it must be one of the registered
 * URIs, compared as strings (docs/authorization.md #3). Failures are never redirected.
 */
export function checkRedirectUri(
  client: Pick<AuthenticatedClient, 'redirectUris'>,
  { values, duplicated }: AuthorizationParameters,
): CheckedRedirectUri {
  if (duplicated.has('redirect_uri')) {
    throw new InvalidRequestError({ message: 'redirect_uri was sent more than once' });
  }
  const sent = values.get('redirect_uri');
  if (sent === undefined) {
    const [only, ...others] = client.redirectUris;
    if (only === undefined || others.length > 0) {
      throw new InvalidRequestError({ message: 'redirect_uri is required' });
    }
    return { redirectUri: only, sent: false };
  }
  if (!client.redirectUris.some((registered) => redirectUriMatches(registered, sent))) {
    throw new InvalidRequestError({
      message: 'redirect_uri is not registered for this client',
      detail: `redirect_uri ${sent}`,
    });
  }
  return { redirectUri: sent, sent: true };
}

// RFC 8252 section 7.3: a native app's loopback listener gets a port at run time, so for http
// loopback redirect URIs the port may differ; everything else must be identical.
const LOOPBACK = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::\d{1,5})?([/?].*)?$/s;

/** Exact string comparison, except the port of http loopback URIs (RFC 8252 section 7.3). */
export function redirectUriMatches(registered: string, sent: string): boolean {
  if (registered === sent) return true;
  const left = LOOPBACK.exec(registered);
  const right = LOOPBACK.exec(sent);
  if (!left || !right) return false;
  return left[1] === right[1] && (left[2] ?? '') === (right[2] ?? '');
}
