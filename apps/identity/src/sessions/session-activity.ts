import type { Session } from '../generated/prisma/client.js';
import type { SessionStore } from './session-store.js';

export interface SessionActivityDeps {
  sessions: Pick<SessionStore, 'touch'>;
  /** SESSION_SEEN_INTERVAL: how stale lastSeenAt may get before a use writes it again. */
  sessionSeenIntervalSeconds: number;
}

/**
 * docs/identity.md #20: lastSeenAt is coalesced. A use is written only when the last note is
 * older than the interval, so a busy session costs one write per interval, not one per
 * request; the list's lastSeenAt may lag by up to the interval.
 */
export function isSeenStale(
  deps: Pick<SessionActivityDeps, 'sessionSeenIntervalSeconds'>,
  session: Session,
  now: Date,
): boolean {
  const seen = session.lastSeenAt ?? session.createdAt;
  return now.getTime() - seen.getTime() >= deps.sessionSeenIntervalSeconds * 1000;
}

/** Notes a use of the session, a conditional write that changes nothing while fresh. */
export async function noteSessionUse(
  deps: SessionActivityDeps,
  sessionId: string,
  now = new Date(),
): Promise<void> {
  await deps.sessions.touch(sessionId, now, new Date(now.getTime() - deps.sessionSeenIntervalSeconds * 1000));
}
