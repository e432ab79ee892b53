import type { IdentityPort } from '../protocol/identity-port.js';
import type { UserProfileLookups } from '../metrics/user-profile-cache-metrics.js';
import type { UserProfileCache } from './user-profile-cache.js';

/** IdentityPort whose GetUser answers from the profile cache when it can (docs/performance.md #22). */
export function withUserProfileCache(
  identity: IdentityPort,
  cache: UserProfileCache,
  lookups: UserProfileLookups,
): IdentityPort {
  const counted = (lookup: string) => lookups.labels(lookup).inc();
  return {
    ...identity,
    getUser: (userId) => cache.find(userId, () => identity.getUser(userId), counted),
  };
}
