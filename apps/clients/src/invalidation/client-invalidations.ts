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
  return `${redisKeyPrefix}clients:invalidations`;
}

/**
 * Publishes `{ clientId, reason }` as JSON after the change has committed. A lost message is
 * tolerated by design (docs/decisions.md #28: subscribers flush on resubscription and expire
 * entries quickly), so a Redis failure is logged, never turned into a failed request.
 *
 * PUBLISH answers before the subscribers' copies are surely on their way: Redis queues the
 * copies and the answer in one turn of its loop and writes the answer first, so a Redis
 * paused between those writes would let the caller answer its client, and that client ask
 * again, before any subscriber heard of the change. A PING after the answer closes that gap:
 * Redis reads it only once every write of the previous turn is done, so when it answers,
 * each subscriber's copy is in that subscriber's socket, ahead of any later request.
 */
export function createClientInvalidations(
  redis: Redis,
  redisKeyPrefix: string,
  log: Logger,
): ClientInvalidations {
  const channel = invalidationChannel(redisKeyPrefix);
  return {
    async publish(clientId, reason) {
      try {
        await redis.publish(channel, JSON.stringify({ clientId, reason }));
        await redis.ping();
      } catch (error) {
        log.warn({ err: error, clientId, reason }, 'client invalidation not published');
      }
    },
  };
}
