import { findBrowserSession as findSession, sessionTokenOf } from '@authz/shared/sessions';
import type { SessionView } from './sign-in/identity-port.js';
import type { Registry } from '../registry.js';

export interface BrowserSession extends SessionView {
  /** The __Host-service_session cookie value, passed on to oauth. */
  token: string;
}

/**
 * The browser session behind the request's cookie (interface.md 5), or undefined when there is no
 * cookie or identity says it signs nobody in. Other failures (identity unreachable) propagate
 * (@authz/shared/sessions).
 */
export async function findBrowserSession(
  { identity }: Pick<Registry, 'identity'>,
  cookies: Readonly<Record<string, string>>,
): Promise<BrowserSession | undefined> {
  const token = sessionTokenOf(cookies);
  if (token === undefined) return undefined;
  const session = await findSession(token, (value) => identity.getBrowserSession(value));
  return session && { token, ...session };
}
