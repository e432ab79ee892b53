import { NotFoundError } from '@authz/shared/errors';
import { describe, expect, it, vi } from 'vitest';
import type { IdentityUserProfile } from '../protocol/identity-port.js';
import { UserProfileCache, type UserProfileLookup } from './user-profile-cache.js';

function profile(id: string, name = 'Ada'): IdentityUserProfile {
  return { id, email: `${id}@example.com`, emailVerified: true, name, verifiedEmails: [] };
}

/** A subscribed cache on a clock the test moves, and identity's GetUser counted. */
function setUp(options: { maxEntries?: number } = {}) {
  let now = 1_000_000;
  const cache = new UserProfileCache({ ...options, ttlMs: 30_000, now: () => now });
  cache.activate();
  let name = 'Ada';
  const identity = vi.fn(async (userId: string) => profile(userId, name));
  const lookups: UserProfileLookup[] = [];
  const find = (userId: string) =>
    cache.find(
      userId,
      () => identity(userId),
      (lookup) => lookups.push(lookup),
    );
  return {
    cache,
    identity,
    lookups,
    find,
    rename: (to: string) => (name = to),
    advance: (ms: number) => (now += ms),
  };
}

describe('user profile cache (docs/identity.md #25, docs/decisions.md #28)', () => {
  it('asks identity once for a returning user, and counts hit and miss', async () => {
    const { identity, lookups, find } = setUp();
    expect(await find('u-1')).toEqual(profile('u-1'));
    expect(await find('u-1')).toEqual(profile('u-1'));
    expect(identity).toHaveBeenCalledTimes(1);
    expect(lookups).toEqual(['miss', 'hit']);
  });

  it('a message drops the named user only', async () => {
    const { cache, identity, find, rename } = setUp();
    await find('u-1');
    await find('u-2');
    rename('Grace');
    cache.drop('u-1');
    expect((await find('u-1')).name).toBe('Grace');
    expect((await find('u-2')).name).toBe('Ada');
    expect(identity).toHaveBeenCalledTimes(3);
  });

  it('keeps nothing that was in flight when anything was invalidated', async () => {
    const { cache, identity, find } = setUp();
    let answer!: () => void;
    identity.mockImplementationOnce(
      (userId) => new Promise((resolve) => (answer = () => resolve(profile(userId, 'before the change')))),
    );
    const pending = find('u-1');
    cache.drop('u-1');
    answer();
    expect((await pending).name).toBe('before the change');
    expect(cache.size).toBe(0);
    expect((await find('u-1')).name).toBe('Ada');
  });

  it('never keeps a failure', async () => {
    const { cache, identity, find } = setUp();
    identity.mockRejectedValueOnce(new NotFoundError());
    await expect(find('gone')).rejects.toBeInstanceOf(NotFoundError);
    expect(cache.size).toBe(0);
    await find('gone');
    expect(identity).toHaveBeenCalledTimes(2);
  });

  it('expires an entry after its TTL, a lost message bounded', async () => {
    const { identity, find, advance } = setUp();
    await find('u-1');
    advance(29_999);
    await find('u-1');
    expect(identity).toHaveBeenCalledTimes(1);
    advance(1);
    await find('u-1');
    expect(identity).toHaveBeenCalledTimes(2);
  });

  it('lets the oldest entry go when full', async () => {
    const { cache, identity, find } = setUp({ maxEntries: 2 });
    await find('u-1');
    await find('u-2');
    await find('u-3');
    expect(cache.size).toBe(2);
    await find('u-3');
    await find('u-2');
    expect(identity).toHaveBeenCalledTimes(3);
    await find('u-1');
    expect(identity).toHaveBeenCalledTimes(4);
  });

  it('while not subscribed, answers and keeps nothing; subscribed again, starts empty', async () => {
    const { cache, identity, lookups, find } = setUp();
    await find('u-1');
    cache.deactivate();
    expect(cache.size).toBe(0);
    await find('u-1');
    await find('u-1');
    expect(cache.size).toBe(0);
    cache.activate();
    await find('u-1');
    await find('u-1');
    expect(identity).toHaveBeenCalledTimes(4);
    expect(lookups).toEqual(['miss', 'unsubscribed', 'unsubscribed', 'miss', 'hit']);
  });
});
