import {
  InvalidatedEntries,
  invalidationChannel,
  subscribeToInvalidations,
  type InvalidationSubscription,
} from '@authz/shared/invalidation';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { UserProfileCache } from './cached-identity.js';

/** The profile cache with its subscription to identity's channel (docs/identity.md #25). */
export interface UserProfileAccess {
  cache: UserProfileCache;
  invalidations: Pick<InvalidationSubscription, 'whenSubscribed'>;
  close(): Promise<void>;
}

export function openUserProfileAccess(options: {
  /** The service's Redis client; the subscription gets a connection of its own from it. */
  redis: Redis;
  redisKeyPrefix: string;
  log: Logger;
}): UserProfileAccess {
  // At most 10 000 profiles, each for 30 s (docs/performance.md #22).
  const cache: UserProfileCache = new InvalidatedEntries();
  const subscription = subscribeToInvalidations({
    connection: options.redis.duplicate({
      connectionName: 'oauth-user-invalidations',
      autoResubscribe: false,
    }),
    channel: invalidationChannel(options.redisKeyPrefix, 'users'),
    cache,
    keyField: 'userId',
    subject: 'user profile',
    log: options.log,
  });
  return { cache, invalidations: subscription, close: () => subscription.close() };
}
