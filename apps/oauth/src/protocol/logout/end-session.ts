import { OAuthError } from '@authz/shared/errors';
import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import { findBrowserSession } from '../authorize/browser-session.js';
import type { BrowserSession, RequestOrigin } from '../identity-port.js';
import type { RawParameter } from '../token/token-parameters.js';
import type { Registry } from '../../registry.js';
import { finishLogout, type LogoutOutcome } from './logout-outcome.js';
import { endBrowserSession } from './logout-prompt.js';
import { readLogoutRequest, type LogoutRequest } from './logout-request.js';

export interface EndSessionRequest {
  parameters: readonly RawParameter[];
  sessionToken?: string;
  origin: RequestOrigin;
}

export type EndSessionDeps = Pick<
  Registry,
  | 'config'
  | 'keys'
  | 'clients'
  | 'identity'
  | 'logoutPrompts'
  | 'refreshTokens'
  | 'denyList'
  | 'authorizationCodes'
>;

/**
 * interface.md 4.3, OIDC RP-Initiated Logout 1.0 (GET and POST /oauth/logout). A valid
 * `id_token_hint` names the session by its `sid`: it ends at once, cookie or not (a
 * cross-site POST carries no SameSite=Lax cookie). Otherwise a signed-in browser confirms on
 * /ui/logout, and a signed-out one has nothing to end. Then the registered
 * `post_logout_redirect_uri` with `state`, or the signed-out page
 * (docs/tokens.md #27).
 */
export async function endSession(deps: EndSessionDeps, request: EndSessionRequest): Promise<LogoutOutcome> {
  let logout: LogoutRequest;
  try {
    logout = await readLogoutRequest(deps, request.parameters);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return {
      next: { errorPage: { error: error.error, description: error.message } },
      clearSessionCookie: false,
    };
  }
  const browser = await findBrowserSession(deps, request.sessionToken);
  const sid = logout.hint?.sid;
  if (sid !== undefined && logout.hint) {
    await endBrowserSession(deps, { sessionId: sid, userId: logout.hint.sub }, request.origin);
    return finishLogout(deps.config.issuer, logout, isCookieOf(browser, sid, request.sessionToken));
  }
  if (browser) return askToConfirm(deps, logout, browser);
  return finishLogout(deps.config.issuer, logout, request.sessionToken !== undefined);
}

// The cookie is cleared when its session is the one that ended, or names no live session.
function isCookieOf(browser: BrowserSession | undefined, sid: string, sessionToken?: string): boolean {
  return browser ? browser.sessionId === sid : sessionToken !== undefined;
}

async function askToConfirm(
  deps: EndSessionDeps,
  logout: LogoutRequest,
  browser: BrowserSession,
): Promise<LogoutOutcome> {
  const handle = await deps.logoutPrompts.create({
    sessionId: browser.sessionId,
    userId: browser.user.id,
    ...(logout.client ? { clientName: logout.client.name } : {}),
    ...(logout.postLogoutRedirectUri === undefined
      ? {}
      : { postLogoutRedirectUri: logout.postLogoutRedirectUri }),
    ...(logout.state === undefined ? {} : { state: logout.state }),
  });
  const query = new URLSearchParams({ handle }).toString();
  return {
    next: { redirectTo: `${deps.config.issuer}${HOSTED_PAGE_PATHS.logout}?${query}` },
    clearSessionCookie: false,
  };
}
