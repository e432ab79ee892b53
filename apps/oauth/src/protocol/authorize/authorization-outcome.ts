import type { OAuthError } from '@authz/shared/errors';
import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';

/** Where the browser goes next (oauth.proto AuthorizationOutcome). */
export type AuthorizationOutcome =
  { redirectTo: string } | { errorPage: { error: string; description: string } };

/** Where a response to the client goes: its redirect URI and the state it sent. */
export interface ClientRedirectTarget {
  redirectUri: string;
  state?: string;
}

/**
 * RFC 6749 section 4.1.2 and RFC 9207: the response parameters, then state when sent and
 * always iss, appended to the redirect URI as is, keeping its own query (section 3.1.2).
 */
export function redirectToClient(
  issuer: string,
  { redirectUri, state }: ClientRedirectTarget,
  parameters: Record<string, string>,
): AuthorizationOutcome {
  const query = new URLSearchParams({
    ...parameters,
    ...(state === undefined ? {} : { state }),
    iss: issuer,
  });
  const separator = redirectUri.includes('?') ? '&' : '?';
  return { redirectTo: `${redirectUri}${separator}${query.toString()}` };
}

/** RFC 6749 section 4.1.2.1: an error the client may learn, sent back to its redirect URI. */
export function redirectErrorToClient(
  issuer: string,
  target: ClientRedirectTarget,
  error: OAuthError,
): AuthorizationOutcome {
  return redirectToClient(issuer, target, {
    error: error.error,
    ...(error.description === undefined ? {} : { error_description: error.description }),
  });
}

/**
 * RFC 6749 section 4.1.2.1: with an untrusted client or redirect URI the user is told, the
 * client never redirected to.
 */
export function errorPage(error: OAuthError): AuthorizationOutcome {
  return { errorPage: { error: error.error, description: error.message } };
}

/** A hosted page under the issuer (interface.md 4.5) with a pending authorization's or prompt's handle. */
export function redirectToHostedPage(
  issuer: string,
  page: 'login' | 'consent',
  handle: string,
): AuthorizationOutcome {
  return { redirectTo: `${issuer}${HOSTED_PAGE_PATHS[page]}?${new URLSearchParams({ handle }).toString()}` };
}
