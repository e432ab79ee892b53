export * from './invalidated-entries.js';
export * from './publisher.js';
export * from './subscriber.js';

/**
 * The pub/sub channel of one kind of change, `<REDIS_KEY_PREFIX><topic>:invalidations`.
 * ioredis applies keyPrefix to keys only, never to channel names, so the prefix is written out.
 */
export function invalidationChannel(redisKeyPrefix: string, topic: 'clients' | 'users'): string {
  return `${redisKeyPrefix}${topic}:invalidations`;
}
