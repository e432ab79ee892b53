import type { MessageInitShape } from '@bufbuild/protobuf';
import type { SessionSummarySchema } from '@authz/proto/identity/v1/accounts';
import { NotFoundError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { Session } from '../generated/prisma/client.js';
import { isSeenStale, noteSessionUse, type SessionActivityDeps } from './session-activity.js';
import type { SessionStore } from './session-store.js';

type Deps = SessionActivityDeps & { sessions: Pick<SessionStore, 'listLive' | 'findLive' | 'touch'> };

/**
 * GET /auth/sessions (interface.md 4.10, docs/identity.md #22): every live session of the user,
 * first-party (`/auth/login`) and browser (hosted and wallet sign-in) alike, oldest first. The
 * caller's own session counts as used now, coalesced like every other use (#18).
 */
export async function listSessions(
  deps: Deps,
  userId: string,
  currentSessionId?: string,
): Promise<Session[]> {
  if (!isUuid(userId)) return [];
  const now = new Date();
  const sessions = await deps.sessions.listLive(userId, now);
  const current = sessions.find((session) => session.id === currentSessionId);
  if (current && isSeenStale(deps, current, now)) {
    await noteSessionUse(deps, current.id, now);
    current.lastSeenAt = now;
  }
  return sessions;
}

/** The user's live session, or NotFoundError (unknown, ended, expired, another user's, malformed). */
export async function getUserSession(
  deps: Pick<Deps, 'sessions'>,
  userId: string,
  sessionId: string,
): Promise<Session> {
  const session =
    isUuid(userId) && isUuid(sessionId)
      ? await deps.sessions.findLive(userId, sessionId, new Date())
      : undefined;
  if (!session) throw new NotFoundError();
  return session;
}

/** A use of the session seen elsewhere (a refresh-token rotation), coalesced (#18). */
export async function touchSession(deps: Deps, sessionId: string): Promise<void> {
  if (isUuid(sessionId)) await noteSessionUse(deps, sessionId);
}

export function toSessionSummary(session: Session): MessageInitShape<typeof SessionSummarySchema> {
  return {
    id: session.id,
    createdAt: BigInt(session.createdAt.getTime()),
    lastSeenAt: BigInt((session.lastSeenAt ?? session.createdAt).getTime()),
    ...(session.userAgent === null ? {} : { userAgent: session.userAgent }),
  };
}
