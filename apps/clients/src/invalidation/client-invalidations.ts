import { createInvalidationPublisher, invalidationChannel as channelOf } from '@authz/shared/invalidation';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';

/** Why a cached client record is stale (docs/clients.md "Change notifications"). */
export type InvalidationReason =
  'updated' | 'disabled' | 'deleted' | 'secret_regenerated' | 'api_key_revoked' | 'environment_changed';

export interface ClientInvalidations {
  /** Tells every cache of client records that `clientId` changed (docs/decisions.md #28). */
  publish(clientId: string, reason: InvalidationReason): Promise<void>;
}

/** The pub/sub channel: `<REDIS_KEY_PREFIX>clients:invalidations`. */
export function invalidationChannel(redisKeyPrefix: string): string {
  return channelOf(redisKeyPrefix, 'clients');
}

/**
 * Publishes `{ clientId, reason }` after the change has committed, and resolves once every
 * subscriber has it (docs/decisions.md #28); a Redis failure is logged, never thrown.
 */
export function createClientInvalidations(
  redis: Redis,
  redisKeyPrefix: string,
  log: Logger,
): ClientInvalidations {
  const publisher = createInvalidationPublisher<{ clientId: string; reason: InvalidationReason }>({
    redis,
    channel: invalidationChannel(redisKeyPrefix),
    subject: 'client',
    log,
  });
  return { publish: (clientId, reason) => publisher.publish({ clientId, reason }) };
}
