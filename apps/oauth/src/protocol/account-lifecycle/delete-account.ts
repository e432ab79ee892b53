import type { RequestOrigin } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { purgeUserGrants } from './purge-user-grants.js';

type Deps = Pick<Registry, 'accounts' | 'userGrants' | 'denyList'>;

/**
 * DELETE /auth/account (interface.md 4.10), in the order of docs/identity.md #19:
 * 1. identity checks the password, marks the account deleting and ends its sessions (from
 *    here the account signs in nowhere, and GetUser no longer knows it);
 * 2. oauth denies the user's live access tokens and deletes its consents, families and codes;
 * 3. clients deletes the user's clients and API keys;
 * 4. identity deletes the account and rewrites its audit rows to a keyed hash.
 * Every step after the first is idempotent, so a deletion interrupted anywhere is finished
 * by the sweeper (deletion-sweeper.ts) repeating steps 2 to 4.
 */
export async function deleteAccount(
  deps: Deps,
  input: { userId: string; password: string; origin: RequestOrigin },
): Promise<void> {
  const { developerId } = await deps.accounts.beginDeletion(input);
  await finishAccountDeletion(deps, { userId: input.userId, developerId }, input.origin);
}

/**
 * DELETE /admin/users/{id} (interface.md 4.15, docs/admin-api.md #3): the same deletion, begun
 * by identity for the admin it checks instead of by the account's password.
 */
export async function deleteAccountAsAdmin(
  deps: Deps,
  input: { adminUserId: string; userId: string; origin: RequestOrigin },
): Promise<void> {
  const { developerId } = await deps.accounts.beginDeletionAsAdmin(input);
  await finishAccountDeletion(deps, { userId: input.userId.toLowerCase(), developerId }, input.origin);
}

/** Steps 2 to 4; safe to repeat after any failure. */
export async function finishAccountDeletion(
  deps: Deps,
  account: { userId: string; developerId: string | undefined },
  origin: RequestOrigin,
): Promise<void> {
  await purgeUserGrants(deps, account.userId);
  if (account.developerId !== undefined) await deps.accounts.purgeDeveloper(account.developerId);
  await deps.accounts.completeDeletion({ userId: account.userId, origin });
}
