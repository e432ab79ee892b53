import type {
  BeginUserDeletionRequest,
  EndUserSessionsRequest,
  GetAdminUserRequest,
  ListUsersRequest,
  SendPasswordResetRequest,
  UpdateAdminUserRequest,
} from '@authz/proto/identity/v1/admin';
import { ConflictError, NotFoundError, ValidationError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { Registry } from '../registry.js';
import { issuePasswordResetMail } from '../recovery/request-password-reset.js';
import { authorizeAdmin } from './authorize-admin.js';
import { decodeCursor, pageLimit, toPage } from '@authz/shared/pagination';
import type { AdministeredUser } from './admin-store.js';

const MAX_QUERY_LENGTH = 254;

/** GET /admin/users (interface.md 4.15): keyset pages by (created_at, id), docs/admin-api.md #6. */
export async function listUsers(
  deps: Pick<Registry, 'admin'>,
  request: ListUsersRequest,
): Promise<{ users: AdministeredUser[]; nextCursor: string | undefined }> {
  await authorizeAdmin(deps, request.adminUserId);
  const limit = pageLimit(request.limit);
  const after = decodeCursor(request.cursor);
  const query = request.query?.trim();
  if (query !== undefined && query.length > MAX_QUERY_LENGTH) {
    throw new ValidationError([{ path: 'query', message: `must be at most ${MAX_QUERY_LENGTH} characters` }]);
  }
  // PostgreSQL text cannot hold U+0000: no account matches it.
  if (query?.includes('\u0000')) return { users: [], nextCursor: undefined };
  const rows = await deps.admin.listUsers({
    ...(query ? { query } : {}),
    ...(after ? { after } : {}),
    limit: limit + 1,
  });
  const page = toPage(rows, limit, (row) => ({ at: row.user.createdAt, id: row.user.id }));
  return { users: page.rows, nextCursor: page.nextCursor };
}

/** GET /admin/users/{id}. */
export async function getAdminUser(
  deps: Pick<Registry, 'admin'>,
  request: GetAdminUserRequest,
): Promise<AdministeredUser> {
  await authorizeAdmin(deps, request.adminUserId);
  const found = await deps.admin.findUser(targetUserId(request.userId));
  if (!found) throw new NotFoundError({ detail: 'no such user' });
  return found;
}

/**
 * PATCH /admin/users/{id} (docs/admin-api.md #4): each change that actually happens is one
 * audit event naming the admin. Disabling ends the sessions here; the tokens are oauth's.
 */
export async function updateAdminUser(
  deps: Pick<Registry, 'admin'>,
  request: UpdateAdminUserRequest,
): Promise<{ record: AdministeredUser; endedSessions: number }> {
  await authorizeAdmin(deps, request.adminUserId);
  const userId = targetUserId(request.userId);
  if (request.disabled === true) refuseSelf(request.adminUserId, userId, 'disable');
  const changes = {
    ...(request.disabled === undefined ? {} : { disabled: request.disabled }),
    ...(request.emailVerified === undefined ? {} : { emailVerified: request.emailVerified }),
  };
  const updated = await deps.admin.updateUser(userId, changes, (changed) => {
    const entries: AuditEntry[] = [];
    const base = { actorUserId: request.adminUserId.toLowerCase(), origin: request.origin };
    if (changed.disabled !== undefined) {
      entries.push({
        ...base,
        type: changed.disabled ? 'admin_user_disabled' : 'admin_user_enabled',
        details: { targetUserId: userId },
      });
    }
    if (changed.emailVerified !== undefined) {
      entries.push({
        ...base,
        type: 'admin_email_verified_set',
        details: { targetUserId: userId, emailVerified: changed.emailVerified },
      });
    }
    return entries;
  });
  if (!updated) throw new NotFoundError({ detail: 'no such user' });
  return updated;
}

/** POST /admin/users/{id}/sessions/revoke: every live session ends (and is relayed to oauth). */
export async function endUserSessions(
  deps: Pick<Registry, 'admin'>,
  request: EndUserSessionsRequest,
): Promise<number> {
  await authorizeAdmin(deps, request.adminUserId);
  const userId = targetUserId(request.userId);
  const ended = await deps.admin.endSessions(userId, (count) => ({
    type: 'admin_sessions_revoked',
    actorUserId: request.adminUserId.toLowerCase(),
    origin: request.origin,
    details: { targetUserId: userId, endedSessions: String(count) },
  }));
  if (ended === undefined) throw new NotFoundError({ detail: 'no such user' });
  return ended;
}

/**
 * POST /admin/users/{id}/password-reset (docs/admin-api.md #5): the forgot-password mail,
 * through the same token and outbox path, without the per-address limits.
 */
export async function sendPasswordReset(
  deps: Pick<Registry, 'admin' | 'audit'> & Parameters<typeof issuePasswordResetMail>[0],
  request: SendPasswordResetRequest,
): Promise<void> {
  await authorizeAdmin(deps, request.adminUserId);
  const found = await deps.admin.findUser(targetUserId(request.userId));
  if (!found) throw new NotFoundError({ detail: 'no such user' });
  await issuePasswordResetMail(deps, found.user.emailLower, request.origin);
  await deps.audit.record({
    type: 'admin_password_reset_sent',
    actorUserId: request.adminUserId.toLowerCase(),
    origin: request.origin,
    details: { targetUserId: found.user.id },
  });
}

/**
 * DELETE /admin/users/{id}, step one of docs/identity.md #19 without a password: marks the
 * account deleting and ends its sessions, audited as the admin's action. oauth does the rest.
 */
export async function beginUserDeletion(
  deps: Pick<Registry, 'admin' | 'deletions'>,
  request: BeginUserDeletionRequest,
): Promise<{ developerId: string | undefined }> {
  await authorizeAdmin(deps, request.adminUserId);
  const userId = targetUserId(request.userId);
  refuseSelf(request.adminUserId, userId, 'delete');
  const account = await deps.deletions.find(userId);
  if (!account || account.deletingAt !== null) throw new NotFoundError({ detail: 'no such user' });
  const marked = await deps.deletions.markDeleting(userId, new Date(), {
    type: 'admin_user_deletion_started',
    actorUserId: request.adminUserId.toLowerCase(),
    origin: request.origin,
    details: { targetUserId: userId },
  });
  if (!marked) throw new NotFoundError({ detail: 'deleted concurrently' });
  return { developerId: account.developerId };
}

/** The account an admin route names: a malformed id is a validation error (400), docs/admin-api.md #7. */
function targetUserId(userId: string): string {
  if (!isUuid(userId)) throw new ValidationError([{ path: 'id', message: 'must be a user id' }]);
  return userId.toLowerCase();
}

/** docs/admin-api.md #9: an admin cannot lock themselves out through the API. */
function refuseSelf(adminUserId: string, userId: string, action: string): void {
  if (adminUserId.toLowerCase() === userId) {
    throw new ConflictError({ message: `An admin cannot ${action} their own account` });
  }
}
