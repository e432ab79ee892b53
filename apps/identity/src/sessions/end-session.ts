import type { EndSessionRequest } from '@authz/proto/identity/v1/identity';
import { ValidationError, type FieldViolation } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import { recordAudit } from '../audit/audit-log.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * Logout (interface.md 4.2): ends the user's session. Idempotent: ending an ended, unknown or someone
 * else's session changes nothing and answers the same; only an actual end is audited.
 */
export async function endSession(prisma: PrismaClient, request: EndSessionRequest): Promise<void> {
  const problems: FieldViolation[] = [];
  if (!isUuid(request.sessionId)) problems.push({ path: 'sessionId', message: 'must be a UUID' });
  if (!isUuid(request.userId)) problems.push({ path: 'userId', message: 'must be a UUID' });
  if (problems.length > 0) throw new ValidationError(problems);
  const ended = await prisma.session.updateMany({
    where: { id: request.sessionId, userId: request.userId, endedAt: null },
    data: { endedAt: new Date() },
  });
  if (ended.count > 0) {
    await recordAudit(prisma, {
      type: 'logout',
      actorUserId: request.userId,
      origin: request.origin,
      details: { sessionId: request.sessionId },
    });
  }
}
