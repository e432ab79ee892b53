import { invalidationChannel } from '@authz/shared/invalidation';
import { createRedisTestPrefix, testLogger, testRedisUrl } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IdentityUserProfile } from '../protocol/identity-port.js';
import { openUserProfileAccess } from './user-profile-access.js';

// Against the real Redis, on a channel of this file's own prefix (docs/conventions.md #11).
const prefix = createRedisTestPrefix();
let redis: Redis;
let publisher: Redis;

beforeAll(() => {
  redis = new Redis(testRedisUrl());
  publisher = new Redis(testRedisUrl());
});
afterAll(async () => {
  await Promise.all([redis.quit(), publisher.quit()]);
});

const profile = (id: string): IdentityUserProfile => ({
  id,
  email: `${id}@example.com`,
  emailVerified: false,
  verifiedEmails: [],
});

describe("the profile cache's subscription to identity (docs/identity.md #25)", () => {
  it("drops the user a message of identity's channel names, and flushes on an unreadable one", async () => {
    const access = openUserProfileAccess({ redis, redisKeyPrefix: prefix, log: testLogger() });
    try {
      await access.invalidations.whenSubscribed();
      const load = vi.fn(async (userId: string) => profile(userId));
      await access.cache.find('u-1', () => load('u-1'));
      await access.cache.find('u-2', () => load('u-2'));
      expect(access.cache.size).toBe(2);

      const channel = invalidationChannel(prefix, 'users');
      expect(channel).toBe(`${prefix}users:invalidations`);
      await publisher.publish(channel, JSON.stringify({ userId: 'u-1', reason: 'name_changed' }));
      await vi.waitFor(() => expect(access.cache.size).toBe(1));
      await access.cache.find('u-2', () => load('u-2'));
      expect(load).toHaveBeenCalledTimes(2);

      await publisher.publish(channel, 'not json');
      await vi.waitFor(() => expect(access.cache.size).toBe(0));
      expect(access.cache.active).toBe(true);
    } finally {
      await access.close();
    }
    expect(access.cache.active).toBe(false);
  });
});
