import { RateLimitedError } from '@authz/shared/errors';
import { createRedisClient } from '@authz/shared/redis';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisClientRequestBudget } from './redis-client-request-budget.js';

const environment = useTestEnvironment();
let redis: Redis;

beforeAll(async () => {
  redis = createRedisClient(environment.redisUrl, {
    name: 'budget-test',
    keyPrefix: environment.redisPrefix,
  });
  await redis.ping();
});

afterAll(() => redis?.disconnect());

// A clock inside one 60 s window, so the test never straddles two.
const inWindow = () => 120_000 * 1000 + 5_000;
const budget = (points: number) =>
  new RedisClientRequestBudget(
    redis,
    { points, durationSeconds: 60, flushIntervalMs: 1 },
    testLogger(),
    inWindow,
  );

describe('the per-client budget (docs/security.md #11)', () => {
  it('serves `points` requests of a client in a window, then refuses with the seconds left', async () => {
    const replica = budget(3);
    for (let request = 0; request < 3; request += 1) await replica.consume('client-a');
    const refused = await replica.consume('client-a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(55);
    // Another client has a budget of its own.
    await expect(replica.consume('client-b')).resolves.toBeUndefined();
  });

  it('shares the count between replicas once they flush', async () => {
    const first = budget(4);
    const second = budget(4);
    await first.consume('client-c');
    await first.consume('client-c');
    await first.consume('client-c');
    await first.flush();
    await second.consume('client-c');
    await second.flush();
    await expect(second.consume('client-c')).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('still counts requests whose flush Redis has not answered yet', async () => {
    const replica = budget(2);
    await replica.consume('client-d');
    await replica.consume('client-d');
    const flushing = replica.flush();
    // The pipeline is on its way: the two requests are neither pending nor in the shared count.
    await expect(replica.consume('client-d')).rejects.toBeInstanceOf(RateLimitedError);
    await flushing;
    await expect(replica.consume('client-d')).rejects.toBeInstanceOf(RateLimitedError);
  });
});
