import type { InvalidatedEntries } from '@authz/shared/invalidation';
import type { UserProfileLookup, UserProfileLookups } from '../metrics/user-profile-cache-metrics.js';
import type { IdentityPort, IdentityUserProfile } from '../protocol/identity-port.js';

/** The profiles GetUser answered, by user id (docs/identity.md #25). */
export type UserProfileCache = InvalidatedEntries<IdentityUserProfile>;

/**
 * IdentityPort whose GetUser answers a returning user from the profile cache
 * (docs/performance.md #22), each read counted by how it was answered
 * (`user_profile_cache_lookups_total`). Unknown users are never kept.
 */
export function withUserProfileCache(
  identity: IdentityPort,
  cache: UserProfileCache,
  lookups: UserProfileLookups,
): IdentityPort {
  return {
    ...identity,
    async getUser(userId) {
      let result: UserProfileLookup = 'hit';
      try {
        return await cache.find(userId, () => {
          result = cache.active ? 'miss' : 'unsubscribed';
          return identity.getUser(userId);
        });
      } finally {
        lookups.count(result);
      }
    },
  };
}
