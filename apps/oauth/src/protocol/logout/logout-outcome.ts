import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';

/** Where the browser goes after a logout request (oauth.proto LogoutOutcome). */
export interface LogoutOutcome {
  next: { redirectTo: string } | { errorPage: { error: string; description: string } };
  /** The session of the browser's cookie ended (or the cookie names none): clear it. */
  clearSessionCookie: boolean;
}

/** Where a finished logout sends the browser: the registered URI with state, or our page. */
export interface LogoutDestination {
  postLogoutRedirectUri?: string;
  state?: string;
}

/**
 * OIDC RP-Initiated Logout 1.0 section 3: to the registered post_logout_redirect_uri with
 * `state` when sent, appended to the URI's own query; otherwise the signed-out page.
 */
export function finishLogout(
  issuer: string,
  { postLogoutRedirectUri, state }: LogoutDestination,
  clearSessionCookie: boolean,
): LogoutOutcome {
  if (postLogoutRedirectUri === undefined) {
    return { next: { redirectTo: `${issuer}${HOSTED_PAGE_PATHS.signedOut}` }, clearSessionCookie };
  }
  if (state === undefined) return { next: { redirectTo: postLogoutRedirectUri }, clearSessionCookie };
  const separator = postLogoutRedirectUri.includes('?') ? '&' : '?';
  const query = new URLSearchParams({ state }).toString();
  return { next: { redirectTo: `${postLogoutRedirectUri}${separator}${query}` }, clearSessionCookie };
}
