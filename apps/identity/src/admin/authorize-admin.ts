import { ForbiddenError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { AdminStore } from './admin-store.js';

/**
 * docs/admin-api.md #2: the role is read from the database on every admin call, never taken
 * from a token, so a revoked role ends the admin's access at the next call. An unknown,
 * deleting or malformed user id is refused the same way.
 */
export async function authorizeAdmin(
  deps: { admin: Pick<AdminStore, 'isAdmin'> },
  adminUserId: string,
): Promise<void> {
  if (!isUuid(adminUserId) || !(await deps.admin.isAdmin(adminUserId.toLowerCase()))) {
    throw new ForbiddenError({ detail: 'not an admin' });
  }
}
