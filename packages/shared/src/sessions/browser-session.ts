import { UnauthorizedError } from '../errors/index.js';
import { SESSION_COOKIE } from '../protocol/index.js';

/** identity's GetBrowserSession for one cookie value, as the caller reaches it. */
export type BrowserSessionLookup<Session> = (sessionToken: string) => Promise<Session>;

/** The `__Host-service_session` value among a request's parsed cookies; empty is none. */
export function sessionTokenOf(cookies: Readonly<Record<string, string | undefined>>): string | undefined {
  return cookies[SESSION_COOKIE] || undefined;
}

/**
 * The browser session behind a `__Host-service_session` cookie value (interface.md 5), or
 * undefined when the browser is signed out: no value, or one identity refuses. identity answers
 * every malformed, unknown, ended or expired value, and a session whose user is gone, with one
 * bare UnauthorizedError (docs/identity.md #11), so that is the only refusal read as "no
 * session". Everything else propagates: identity unreachable (ServiceUnavailableError), a
 * deadline, a malformed answer. An outage must not look like a signed-out browser, which
 * would send a signed-in user to the sign-in form.
 */
export async function findBrowserSession<Session>(
  sessionToken: string | undefined,
  lookup: BrowserSessionLookup<Session>,
): Promise<Session | undefined> {
  if (!sessionToken) return undefined;
  try {
    return await lookup(sessionToken);
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}

/** Like findBrowserSession for callers that need a session: UnauthorizedError without one. */
export async function requireBrowserSession<Session>(
  sessionToken: string | undefined,
  lookup: BrowserSessionLookup<Session>,
): Promise<Session> {
  const session = await findBrowserSession(sessionToken, lookup);
  if (session === undefined) throw new UnauthorizedError({ detail: 'no browser session' });
  return session;
}
