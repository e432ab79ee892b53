import { RateLimitedError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPV6_48_BUDGET_FACTOR } from './address-keys.js';
import { RateLimiter } from './rate-limit.js';

// docs/security.md #11: per-address budgets, IPv6 per /64 under a /48 ceiling.
const environment = useTestEnvironment();
let redis: Redis;
let limiter: RateLimiter;

beforeAll(async () => {
  redis = new Redis(environment.redisUrl, { keyPrefix: environment.redisPrefix });
  await redis.ping();
  limiter = new RateLimiter(redis, true, (error) => {
    throw error;
  });
});

afterAll(() => redis?.disconnect());

const once = { points: 1, durationSeconds: 60 };

describe('RateLimiter', () => {
  it('counts every address of one /64 together', async () => {
    await limiter.consumeAddress('same-64', once, '2001:db8:10:1::1');
    await expect(limiter.consumeAddress('same-64', once, '2001:db8:10:1::2')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });

  it('lets the /64s of one /48 share a ceiling of 16 budgets', async () => {
    for (let network = 0; network < IPV6_48_BUDGET_FACTOR; network += 1) {
      await limiter.consumeAddress('ceiling', once, `2001:db8:20:${network.toString(16)}::1`);
    }
    await expect(limiter.consumeAddress('ceiling', once, '2001:db8:20:ff::1')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    // Another /48 is not affected.
    await expect(limiter.consumeAddress('ceiling', once, '2001:db8:21:0::1')).resolves.toBeUndefined();
  });

  it('refuses an address once its failures spent the budget, with the seconds left', async () => {
    const failures = { points: 2, durationSeconds: 300 };
    limiter.checkAddress('failures', '203.0.113.9');
    await limiter.countFailure('failures', failures, '203.0.113.9');
    limiter.checkAddress('failures', '203.0.113.9');
    await limiter.countFailure('failures', failures, '203.0.113.9');
    let refused: unknown;
    try {
      limiter.checkAddress('failures', '203.0.113.9');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(290);
    expect(() => limiter.checkAddress('failures', '203.0.113.10')).not.toThrow();
  });
});
