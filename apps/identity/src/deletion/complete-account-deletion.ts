import type { CompleteAccountDeletionRequest } from '@authz/proto/identity/v1/accounts';
import { keyedHash } from '@authz/shared/crypto';
import { NotFoundError, ValidationError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { AccountDeletionStore } from './account-deletion-store.js';

export interface CompleteAccountDeletionDeps {
  deletions: Pick<AccountDeletionStore, 'deleteAccount'>;
  secretHashKey: Buffer;
}

/**
 * The keyed hash that stands for a deleted user in the audit log (interface.md 4.10, docs/identity.md
 * #19): an operator who knows an id can find its history; the log alone names nobody.
 */
export function auditUserHash(secretHashKey: Buffer, userId: string): string {
  return keyedHash(secretHashKey, `audit-user:${userId.toLowerCase()}`);
}

/**
 * The last step of an account deletion (docs/identity.md #19): once oauth and clients have
 * purged what they hold, identity deletes the account with everything hanging off it and
 * rewrites the user's audit rows to the keyed hash, in one transaction. Idempotent: an account
 * already gone answers the same; one whose deletion was never begun is NotFoundError.
 */
export async function completeAccountDeletion(
  deps: CompleteAccountDeletionDeps,
  request: CompleteAccountDeletionRequest,
): Promise<void> {
  if (!isUuid(request.userId)) throw new ValidationError([{ path: 'userId', message: 'must be a UUID' }]);
  const userHash = auditUserHash(deps.secretHashKey, request.userId);
  const outcome = await deps.deletions.deleteAccount(request.userId, userHash, {
    type: 'account_deleted',
    origin: request.origin,
    details: { userHash },
  });
  if (outcome === 'not_deleting') throw new NotFoundError({ detail: 'account deletion not begun' });
}
