import {
  invalidationChannel,
  subscribeToInvalidations,
  type InvalidationSubscription,
} from '@authz/shared/invalidation';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { AuthenticationCache } from './authentication-cache.js';

/** The clients service's channel (docs/clients.md #8). */
export function clientInvalidationChannel(redisKeyPrefix: string): string {
  return invalidationChannel(redisKeyPrefix, 'clients');
}

export type ClientInvalidationSubscription = InvalidationSubscription;

export interface SubscribeOptions {
  /** A connection of its own: a subscribed connection can run nothing else. */
  connection: Redis;
  channel: string;
  cache: AuthenticationCache;
  log: Logger;
}

/**
 * docs/decisions.md #28: a message `{ clientId, reason }` drops that client's cached
 * authentications; every (re)subscription flushes the cache and only then enables it; losing
 * the connection disables it.
 */
export function subscribeToClientInvalidations({
  connection,
  channel,
  cache,
  log,
}: SubscribeOptions): ClientInvalidationSubscription {
  return subscribeToInvalidations({
    connection,
    channel,
    cache: {
      get active() {
        return cache.active;
      },
      activate: () => cache.activate(),
      deactivate: () => cache.deactivate(),
      flush: () => cache.flush(),
      drop: (clientId) => cache.dropClient(clientId),
    },
    keyField: 'clientId',
    subject: 'client',
    log,
  });
}
