import type { ListAuditEventsRequest } from '@authz/proto/identity/v1/admin';
import { ValidationError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { Registry } from '../registry.js';
import { decodeCursor, pageLimit, toPage } from '@authz/shared/pagination';
import type { StoredAuditEvent } from './admin-store.js';
import { authorizeAdmin } from './authorize-admin.js';

const TYPE_PATTERN = /^[a-z_]{1,64}$/;

/** GET /admin/audit-events (interface.md 4.15): newest first, keyset on (occurred_at, id). */
export async function listAuditEvents(
  deps: Pick<Registry, 'admin'>,
  request: ListAuditEventsRequest,
): Promise<{ events: StoredAuditEvent[]; nextCursor: string | undefined }> {
  await authorizeAdmin(deps, request.adminUserId);
  const limit = pageLimit(request.limit);
  const before = decodeCursor(request.cursor);
  if (before && !/^\d{1,19}$/.test(before.id)) {
    throw new ValidationError([{ path: 'cursor', message: 'is not a cursor of this list' }]);
  }
  if (request.userId !== undefined && !isUuid(request.userId)) {
    throw new ValidationError([{ path: 'userId', message: 'must be a user id' }]);
  }
  if (request.type !== undefined && !TYPE_PATTERN.test(request.type)) {
    throw new ValidationError([{ path: 'type', message: 'must be an event type (lower case and _)' }]);
  }
  const rows = await deps.admin.listAuditEvents({
    ...(request.userId === undefined ? {} : { userId: request.userId.toLowerCase() }),
    ...(request.type === undefined ? {} : { type: request.type }),
    ...(request.since === undefined ? {} : { since: new Date(Number(request.since)) }),
    ...(before ? { before } : {}),
    limit: limit + 1,
  });
  const page = toPage(rows, limit, (row) => ({ at: row.occurredAt, id: row.id }));
  return { events: page.rows, nextCursor: page.nextCursor };
}
