import { NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import type { SessionView } from './sign-in/identity-port.js';
import type { Registry } from '../registry.js';

export interface BrowserSession extends SessionView {
  /** The __Host-service_session cookie value, passed on to oauth. */
  token: string;
}

/**
 * The browser session behind the request's cookie (interface.md 5), or undefined when there is no
 * cookie or identity says it signs nobody in. Other failures (identity unreachable) propagate.
 */
export async function findBrowserSession(
  { identity }: Pick<Registry, 'identity'>,
  cookies: Readonly<Record<string, string>>,
): Promise<BrowserSession | undefined> {
  const token = cookies[SESSION_COOKIE];
  if (!token) return undefined;
  try {
    return { token, ...(await identity.getBrowserSession(token)) };
  } catch (error) {
    if (error instanceof UnauthorizedError || error instanceof NotFoundError) return undefined;
    throw error;
  }
}
