import {
  findBrowserSession as findSession,
  requireBrowserSession as requireSession,
} from '@authz/shared/sessions';
import { acrOf, satisfiesAcr } from '@authz/shared/protocol';
import type { BrowserSession } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import type { AuthorizationRequest } from './authorization-request.js';

// The contract of both lookups is @authz/shared/sessions: no cookie value, or one identity
// refuses, is no session; any other failure, identity unreachable among them, propagates.

/** The browser's signed-in session (interface.md 5 cookie), or undefined when it has none. */
export function findBrowserSession(
  { identity }: Pick<Registry, 'identity'>,
  sessionToken: string | undefined,
): Promise<BrowserSession | undefined> {
  return findSession(sessionToken, (token) => identity.getBrowserSession(token));
}

/** Like findBrowserSession, for the hosted pages that need one: UnauthorizedError otherwise. */
export function requireBrowserSession(
  { identity }: Pick<Registry, 'identity'>,
  sessionToken: string | undefined,
): Promise<BrowserSession> {
  return requireSession(sessionToken, (token) => identity.getBrowserSession(token));
}

/**
 * docs/strong-authentication.md #14: a session whose acr is below the one acr_values asked
 * for must step up (a second factor) before the authorization goes on.
 */
export function isStepUpNeeded(
  request: Pick<AuthorizationRequest, 'acrRequired'>,
  session: Pick<BrowserSession, 'amr'>,
): boolean {
  return request.acrRequired !== undefined && !satisfiesAcr(acrOf(session.amr), request.acrRequired);
}

/**
 * OIDC Core 3.1.2.1: the user must sign in (again) without a session, with prompt=login, or
 * when the session's authentication is older than max_age.
 */
export function isLoginNeeded(
  request: Pick<AuthorizationRequest, 'prompt' | 'maxAge'>,
  session: BrowserSession | undefined,
  nowSeconds: number,
): boolean {
  if (!session || request.prompt.includes('login')) return true;
  return request.maxAge !== undefined && nowSeconds - session.authTime > request.maxAge;
}
