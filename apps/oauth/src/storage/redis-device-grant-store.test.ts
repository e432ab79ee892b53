import { createRedisClient } from '@authz/shared/redis';
import { useTestEnvironment } from '@authz/shared/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewDeviceGrant } from '../protocol/device-authorization/device-grant-store.js';
import { RedisDeviceGrantStore } from './redis-device-grant-store.js';

// docs/device-grant.md #3, #6: every state change of a device authorization is atomic, so of
// concurrent decisions or redemptions exactly one wins, on one replica or several.
const environment = useTestEnvironment();
let redis: Redis;
let store: RedisDeviceGrantStore;
let sequence = 0;

beforeAll(async () => {
  redis = createRedisClient(environment.redisUrl, {
    name: 'device-test',
    keyPrefix: environment.redisPrefix,
  });
  await redis.ping();
  store = new RedisDeviceGrantStore(redis);
});

afterAll(() => redis?.disconnect());

function newGrant(overrides: Partial<NewDeviceGrant> = {}): NewDeviceGrant {
  sequence += 1;
  return {
    deviceCodeHash: `device-${sequence}`,
    userCodeHash: `user-${sequence}`,
    clientId: 'tv',
    clientName: 'TV',
    clientSource: 'pre_registered',
    scope: 'openid',
    expiresAt: Date.now() + 60_000,
    interval: 5,
    ...overrides,
  };
}

const approval = { userId: 'u', sessionId: 's', authTime: 1, amr: ['pwd', 'otp', 'mfa'], consentId: 'c' };

describe('RedisDeviceGrantStore', () => {
  it('refuses a user code that a live grant holds', async () => {
    const first = newGrant();
    expect(await store.create(first)).toBe(true);
    expect(await store.create(newGrant({ userCodeHash: first.userCodeHash }))).toBe(false);
    expect(await store.findByUserCode(first.userCodeHash)).toMatchObject({
      deviceCodeHash: first.deviceCodeHash,
    });
  });

  it('grows the interval by the slow-down step only for a pending grant polled too soon', async () => {
    const grant = newGrant();
    await store.create(grant);
    const now = Date.now();
    expect(await store.poll(grant.deviceCodeHash, now, 5)).toMatchObject({
      tooFast: false,
      grant: { interval: 5 },
    });
    expect(await store.poll(grant.deviceCodeHash, now + 1000, 5)).toMatchObject({
      tooFast: true,
      grant: { interval: 10 },
    });
    // Ten seconds after the last poll is in time for the grown interval.
    expect(await store.poll(grant.deviceCodeHash, now + 11_000, 5)).toMatchObject({
      tooFast: false,
      grant: { interval: 10 },
    });
    await store.decide(grant.deviceCodeHash, { denied: true });
    expect(await store.poll(grant.deviceCodeHash, now + 11_001, 5)).toMatchObject({
      tooFast: false,
      grant: { status: 'denied' },
    });
  });

  it('lets exactly one of concurrent decisions through, and retires the user code', async () => {
    const grant = newGrant();
    await store.create(grant);
    const decisions = await Promise.all([
      store.decide(grant.deviceCodeHash, { approval }),
      store.decide(grant.deviceCodeHash, { denied: true }),
      store.decide(grant.deviceCodeHash, { approval }),
    ]);
    expect(decisions.filter(Boolean)).toHaveLength(1);
    expect(await store.findByUserCode(grant.userCodeHash)).toBeUndefined();
  });

  it('redeems an approved grant exactly once', async () => {
    const grant = newGrant();
    await store.create(grant);
    expect(await store.redeem(grant.deviceCodeHash)).toBe(false);
    await store.decide(grant.deviceCodeHash, { approval });
    const redemptions = await Promise.all([1, 2, 3].map(() => store.redeem(grant.deviceCodeHash)));
    expect(redemptions.filter(Boolean)).toHaveLength(1);
    expect(await store.findByDeviceCode(grant.deviceCodeHash)).toMatchObject({
      status: 'redeemed',
      approval,
    });
  });

  it('keeps an expired grant readable for a while, its user code not', async () => {
    const grant = newGrant({ expiresAt: Date.now() + 50 });
    await store.create(grant);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.findByUserCode(grant.userCodeHash)).toBeUndefined();
    expect(await store.findByDeviceCode(grant.deviceCodeHash)).toMatchObject({ status: 'pending' });
  });

  it('counts entries per user code and requests per client', async () => {
    expect(await store.countUserCodeEntry('code-x', 60)).toBe(1);
    expect(await store.countUserCodeEntry('code-x', 60)).toBe(2);
    expect(await store.countClientRequest('client-x', 60)).toBe(1);
  });
});
