import { denyAll } from '../access-token/deny-list.js';
import type { Registry } from '../../registry.js';

/**
 * oauth's part of an account deletion (docs/identity.md #19): every family of the user is
 * revoked and its live access tokens, with those of redeemed codes, denied (docs/tokens.md
 * #14) before the rows go, so a crash in between leaves revoked rows that a retry deletes.
 * Idempotent. Delegated tokens (token exchange) are recorded nowhere: they die at expiry.
 */
export async function purgeUserGrants(
  deps: Pick<Registry, 'userGrants' | 'denyList'>,
  userId: string,
  now = new Date(),
): Promise<void> {
  await denyAll(deps.denyList, await deps.userGrants.revokeAll(userId, now));
  await deps.userGrants.deleteAll(userId);
}
