import {
  createInvalidationPublisher,
  invalidationChannel,
  type InvalidationPublisher,
} from '@authz/shared/invalidation';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';

/** What changed in what a profile answers (docs/identity.md #25): kept for the operator reading the channel. */
export type UserChangeReason =
  | 'name_changed'
  | 'email_verified'
  | 'email_changed'
  | 'password_reset'
  | 'wallet_linked'
  | 'wallet_used'
  | 'upstream_identity_linked'
  | 'upstream_identity_used'
  | 'upstream_identity_unlinked'
  | 'admin_updated'
  | 'deletion_started'
  | 'deleted';

export type UserChanges = InvalidationPublisher<{ userId: string; reason: UserChangeReason }>;

/** Publishes `{ userId, reason }` on `<REDIS_KEY_PREFIX>users:invalidations` (docs/decisions.md #28). */
export function createUserChanges(redis: Redis, redisKeyPrefix: string, log: Logger): UserChanges {
  return createInvalidationPublisher({
    redis,
    channel: invalidationChannel(redisKeyPrefix, 'users'),
    subject: 'user',
    log,
  });
}
