import { UnauthorizedError } from '@authz/shared/errors';
import type { Session, User } from '../generated/prisma/client.js';
import { csrfTokenFor, isSessionTokenShaped, sessionTokenHash } from './browser-session-token.js';
import { isSeenStale, noteSessionUse, type SessionActivityDeps } from './session-activity.js';
import type { SessionStore } from './session-store.js';

export interface GetBrowserSessionDeps extends Pick<SessionActivityDeps, 'sessionSeenIntervalSeconds'> {
  sessions: Pick<SessionStore, 'findByTokenHash' | 'touch'>;
  secretHashKey: Buffer;
}

export interface BrowserSession {
  session: Session;
  user: User;
  csrfToken: string;
}

/**
 * interface.md 4.5, 4.6, 5: the session behind a `__Host-service_session` cookie value. Malformed,
 * unknown, ended and expired values, and sessions whose user is gone, are one and the same
 * UnauthorizedError: a caller learns only that the cookie does not sign anyone in. The value
 * is looked up by its keyed hash, so the lookup time says nothing about stored values.
 */
export async function getBrowserSession(
  deps: GetBrowserSessionDeps,
  sessionToken: string,
): Promise<BrowserSession> {
  if (!isSessionTokenShaped(sessionToken)) throw new UnauthorizedError();
  const found = await deps.sessions.findByTokenHash(sessionTokenHash(deps.secretHashKey, sessionToken));
  const now = new Date();
  if (
    !found ||
    found.session.endedAt !== null ||
    found.session.expiresAt.getTime() <= now.getTime() ||
    found.user.deletingAt !== null
  ) {
    throw new UnauthorizedError();
  }
  const { user, session } = found;
  // The row was just read, so a fresh note costs nothing more (docs/identity.md #20).
  if (isSeenStale(deps, session, now)) await noteSessionUse(deps, session.id, now);
  return { session, user, csrfToken: csrfTokenFor(deps.secretHashKey, sessionToken) };
}
