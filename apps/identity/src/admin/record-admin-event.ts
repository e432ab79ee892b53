import type { RecordAdminEventRequest } from '@authz/proto/identity/v1/admin';
import { ValidationError } from '@authz/shared/errors';
import { RECORDABLE_ADMIN_EVENT_TYPES } from '../audit/audit-log.js';
import type { Registry } from '../registry.js';
import { authorizeAdmin } from './authorize-admin.js';

const MAX_VALUE_LENGTH = 2048;

/**
 * docs/admin-api.md #8: an admin action carried out by another service (a client change, a key
 * rotation), recorded with the admin as actor. Only those types: no caller writes a login,
 * a registration or an identity-owned admin event through it.
 */
export async function recordAdminEvent(
  deps: Pick<Registry, 'admin' | 'audit'>,
  request: RecordAdminEventRequest,
): Promise<void> {
  await authorizeAdmin(deps, request.adminUserId);
  const type = RECORDABLE_ADMIN_EVENT_TYPES.find((candidate) => candidate === request.type);
  if (!type) {
    throw new ValidationError([
      { path: 'type', message: `must be one of ${RECORDABLE_ADMIN_EVENT_TYPES.join(', ')}` },
    ]);
  }
  const details = Object.entries(request.details);
  if (
    details.length > 16 ||
    details.some(([name, value]) => name.length > 64 || value.length > MAX_VALUE_LENGTH)
  ) {
    throw new ValidationError([{ path: 'details', message: 'entries must be few and short' }]);
  }
  await deps.audit.record({
    type,
    actorUserId: request.adminUserId.toLowerCase(),
    origin: request.origin,
    details: Object.fromEntries(details),
  });
}
