import type { EndSessionRequest } from '@authz/proto/identity/v1/identity';
import { ValidationError, type FieldViolation } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SessionStore } from './session-store.js';

/**
 * Logout (interface.md 4.2): ends the user's session. Idempotent: ending an ended, unknown or someone
 * else's session changes nothing and answers the same; only an actual end is audited.
 */
export async function endSession(
  deps: { sessions: Pick<SessionStore, 'end'>; audit: AuditLog; onSessionEnded(): void },
  request: EndSessionRequest,
): Promise<void> {
  const problems: FieldViolation[] = [];
  if (!isUuid(request.sessionId)) problems.push({ path: 'sessionId', message: 'must be a UUID' });
  if (!isUuid(request.userId)) problems.push({ path: 'userId', message: 'must be a UUID' });
  if (problems.length > 0) throw new ValidationError(problems);
  if (await deps.sessions.end(request.sessionId, request.userId, new Date())) {
    await deps.audit.record({
      type: 'logout',
      actorUserId: request.userId,
      origin: request.origin,
      details: { sessionId: request.sessionId },
    });
    // The end is already in the outbox (its trigger); this only relays it without waiting.
    deps.onSessionEnded();
  }
}
