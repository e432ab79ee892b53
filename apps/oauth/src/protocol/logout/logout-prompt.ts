import { NotFoundError } from '@authz/shared/errors';
import { requireBrowserSession } from '../authorize/browser-session.js';
import type { RequestOrigin } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { revokeSessionTokens } from '../session-end/revoke-session-tokens.js';
import { finishLogout, type LogoutOutcome } from './logout-outcome.js';

type Deps = Pick<
  Registry,
  'config' | 'identity' | 'logoutPrompts' | 'refreshTokens' | 'denyList' | 'authorizationCodes'
>;

/** GET /ui/logout: what the confirmation page shows. NotFoundError unless made for this session. */
export async function getLogoutPrompt(
  deps: Deps,
  handle: string,
  sessionToken: string,
): Promise<{ clientName: string; redirectOrigin: string }> {
  const session = await requireBrowserSession(deps, sessionToken);
  const prompt = await deps.logoutPrompts.peek(handle);
  if (!prompt || prompt.sessionId !== session.sessionId) {
    throw new NotFoundError({ detail: 'unknown logout prompt, or another session' });
  }
  return {
    clientName: prompt.clientName ?? '',
    redirectOrigin: prompt.postLogoutRedirectUri ? new URL(prompt.postLogoutRedirectUri).origin : '',
  };
}

/**
 * POST /ui/logout (CSRF checked by consent-ui, docs/decisions.md #17): the prompt is taken once
 * (GETDEL) and only by the session it was made for; that session ends with its tokens
 * (interface.md 4.3), and the browser goes on as RP-Initiated Logout 1.0 section 3 says.
 */
export async function confirmLogout(
  deps: Deps,
  request: { handle: string; sessionToken: string; origin: RequestOrigin },
): Promise<LogoutOutcome> {
  const session = await requireBrowserSession(deps, request.sessionToken);
  const peeked = await deps.logoutPrompts.peek(request.handle);
  if (!peeked || peeked.sessionId !== session.sessionId) {
    throw new NotFoundError({ detail: 'unknown logout prompt, or another session' });
  }
  const prompt = await deps.logoutPrompts.take(request.handle);
  if (!prompt) throw new NotFoundError({ detail: 'logout prompt taken concurrently' });
  await endBrowserSession(deps, { sessionId: prompt.sessionId, userId: prompt.userId }, request.origin);
  return finishLogout(deps.config.issuer, prompt, true);
}

/**
 * Ends a session and, at once, its tokens: the session-events queue would revoke them too
 * (docs/tokens.md #26), but the browser that asked should not wait for it.
 */
export async function endBrowserSession(
  deps: Pick<Registry, 'identity' | 'refreshTokens' | 'denyList' | 'authorizationCodes'>,
  session: { sessionId: string; userId: string },
  origin: RequestOrigin,
): Promise<void> {
  await deps.identity.endSession({ ...session, origin });
  await revokeSessionTokens(deps, session.sessionId);
}
