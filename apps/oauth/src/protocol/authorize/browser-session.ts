import { UnauthorizedError } from '@authz/shared/errors';
import type { BrowserSession } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import type { AuthorizationRequest } from './authorization-request.js';

/** The browser's signed-in session (interface.md 5 cookie), or undefined when it has none. */
export async function findBrowserSession(
  { identity }: Pick<Registry, 'identity'>,
  sessionToken: string | undefined,
): Promise<BrowserSession | undefined> {
  if (!sessionToken) return undefined;
  try {
    return await identity.getBrowserSession(sessionToken);
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}

/** Like findBrowserSession, for the hosted pages that need one: UnauthorizedError otherwise. */
export async function requireBrowserSession(
  deps: Pick<Registry, 'identity'>,
  sessionToken: string | undefined,
): Promise<BrowserSession> {
  const session = await findBrowserSession(deps, sessionToken);
  if (!session) throw new UnauthorizedError({ detail: 'no browser session' });
  return session;
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
