import { emailKey, parseEmail } from '../accounts/email.js';
import type { AdminStore } from './admin-store.js';

export type RoleChange =
  'granted' | 'revoked' | 'already_admin' | 'not_admin' | 'unknown_account' | 'invalid_email';

/**
 * The operator command's work (docs/admin-api.md #1): grants or revokes the admin role of the
 * account with this address, audited as `admin_role_granted` / `admin_role_revoked` without an
 * actor (the operator at the console is no account).
 */
export async function setAdminRole(
  deps: { admin: Pick<AdminStore, 'setRole'> },
  rawEmail: string,
  grant: boolean,
): Promise<RoleChange> {
  const email = parseEmail(rawEmail);
  if (!email) return 'invalid_email';
  const outcome = await deps.admin.setRole(emailKey(email), grant, (userId) => ({
    type: grant ? 'admin_role_granted' : 'admin_role_revoked',
    origin: undefined,
    details: { targetUserId: userId, via: 'grant-admin command' },
  }));
  if (outcome === 'unknown') return 'unknown_account';
  if (outcome === 'unchanged') return grant ? 'already_admin' : 'not_admin';
  return grant ? 'granted' : 'revoked';
}
