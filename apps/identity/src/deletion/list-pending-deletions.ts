import type { ListPendingDeletionsRequest } from '@authz/proto/identity/v1/accounts';
import type { AccountDeletionStore, PendingDeletion } from './account-deletion-store.js';

const MAX_LIMIT = 100;

/** What the deletion sweeper finishes (docs/identity.md #19): begun before the given instant. */
export function listPendingDeletions(
  deps: { deletions: Pick<AccountDeletionStore, 'listPending'> },
  request: ListPendingDeletionsRequest,
): Promise<PendingDeletion[]> {
  const limit = Math.min(Math.max(request.limit, 1), MAX_LIMIT);
  return deps.deletions.listPending(new Date(Number(request.begunBefore)), limit);
}
