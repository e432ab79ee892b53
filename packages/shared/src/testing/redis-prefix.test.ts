import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from './connection.js';
import { cleanupRedisPrefix, createRedisTestPrefix } from './redis-prefix.js';

describe('Redis test prefixes', () => {
  const redis = new Redis(testRedisUrl());
  afterAll(() => redis.quit());

  it('are unique per call', () => {
    expect(createRedisTestPrefix()).toMatch(/^test:[0-9a-f]+:$/);
    expect(createRedisTestPrefix()).not.toBe(createRedisTestPrefix());
  });

  it('are cleaned up without touching other prefixes', async () => {
    const mine = createRedisTestPrefix();
    const other = createRedisTestPrefix();
    await Promise.all(Array.from({ length: 1200 }, (_, i) => redis.set(`${mine}key:${i}`, '1')));
    await redis.set(`${other}key`, '1');
    expect(await cleanupRedisPrefix(testRedisUrl(), mine)).toBe(1200);
    expect(await redis.exists(`${mine}key:0`, `${other}key`)).toBe(1);
    await cleanupRedisPrefix(testRedisUrl(), other);
  });
});
