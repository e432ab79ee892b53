import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A key prefix of its own for one test file, so files share the Redis server in parallel. */
export function createRedisTestPrefix(): string {
  return `test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN + UNLINK: never blocks the server like KEYS/DEL). */
export async function cleanupRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
