import type { BeginAccountDeletionRequest } from '@authz/proto/identity/v1/accounts';
import { InvalidCredentialsError, ValidationError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { AccountDeletionStore } from './account-deletion-store.js';

export interface BeginAccountDeletionDeps {
  deletions: Pick<AccountDeletionStore, 'find' | 'markDeleting'>;
  hasher: PasswordHasher;
}

/**
 * Step one of DELETE /auth/account (interface.md 4.10, docs/identity.md #19): the password must be
 * the account's, then the account is marked deleting and its sessions end, so from here on it
 * signs in nowhere and GetUser no longer knows it. An unknown account and a wrong password are
 * the same InvalidCredentialsError after the same argon2id verify. Repeating it on an account
 * already deleting (a retry after a crash) answers the same.
 */
export async function beginAccountDeletion(
  deps: BeginAccountDeletionDeps,
  request: BeginAccountDeletionRequest,
): Promise<{ developerId: string | undefined }> {
  if (request.password === '') throw new ValidationError([{ path: 'password', message: 'is required' }]);
  const account = isUuid(request.userId) ? await deps.deletions.find(request.userId) : undefined;
  const matches = await deps.hasher.verify(account?.passwordHash, request.password);
  if (!account || !matches) throw new InvalidCredentialsError();
  const marked = await deps.deletions.markDeleting(account.userId, new Date(), {
    type: 'account_deletion_started',
    origin: request.origin,
  });
  if (!marked) throw new InvalidCredentialsError({ detail: 'account deleted concurrently' });
  return { developerId: account.developerId };
}
