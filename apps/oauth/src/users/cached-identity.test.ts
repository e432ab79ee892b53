import { NotFoundError } from '@authz/shared/errors';
import { InvalidatedEntries } from '@authz/shared/invalidation';
import { sampleValue } from '@authz/shared/metrics';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { createUserProfileLookups } from '../metrics/user-profile-cache-metrics.js';
import type { IdentityPort } from '../protocol/identity-port.js';
import { withUserProfileCache, type UserProfileCache } from './cached-identity.js';

describe('GetUser through the profile cache, and user_profile_cache_lookups_total (docs/observability.md)', () => {
  it('answers a returning user from memory, passes every other call through, and counts each lookup', async () => {
    const registry = new Registry();
    const cache: UserProfileCache = new InvalidatedEntries();
    const getUser = vi.fn(async (userId: string) => {
      if (userId === 'gone') throw new NotFoundError();
      return { id: userId, email: 'ada@example.com', emailVerified: true, verifiedEmails: [] };
    });
    const endSession = vi.fn(async () => undefined);
    const identity = withUserProfileCache(
      { getUser, endSession } as unknown as IdentityPort,
      cache,
      createUserProfileLookups(registry),
    );
    const lookups = async () => {
      const exposition = await registry.metrics();
      return ['hit', 'miss', 'unsubscribed'].map((result) =>
        sampleValue(exposition, 'user_profile_cache_lookups_total', { result }),
      );
    };
    expect(await lookups()).toEqual([0, 0, 0]);

    await identity.getUser('u-1');
    cache.activate();
    await identity.getUser('u-1');
    await identity.getUser('u-1');
    await expect(identity.getUser('gone')).rejects.toBeInstanceOf(NotFoundError);
    expect(getUser.mock.calls.map(([userId]) => userId)).toEqual(['u-1', 'u-1', 'gone']);
    expect(await lookups()).toEqual([1, 2, 1]);

    await identity.endSession({ sessionId: 's', userId: 'u-1', origin: { ip: '::1', userAgent: 'test' } });
    expect(endSession).toHaveBeenCalledTimes(1);
  });
});
