import { describe, expect, it } from 'vitest';
import type { UserProfile, UserProfileStore } from './user-profile.js';
import { MAX_PROFILES_PER_READ, UserProfileLoader } from './user-profile-loader.js';

function profileOf(id: string): UserProfile {
  const user = {
    id,
    email: `${id}@example.com`,
    emailVerified: true,
    realmId: 'realm',
    name: null,
    createdAt: new Date(0),
    updatedAt: null,
  };
  return { user, walletEmails: [], federatedEmails: [] };
}

class CountingStore implements UserProfileStore {
  reads: string[][] = [];
  failing = false;
  async findProfiles(userIds: readonly string[]): Promise<Map<string, UserProfile>> {
    this.reads.push([...userIds]);
    if (this.failing) throw new Error('database down');
    return new Map(userIds.filter((id) => !id.startsWith('gone')).map((id) => [id, profileOf(id)]));
  }
}

describe('UserProfileLoader', () => {
  it('reads every account asked for in one turn with one read, each id once', async () => {
    const store = new CountingStore();
    const loader = new UserProfileLoader(store);
    const answers = await Promise.all(['a', 'b', 'a', 'gone-1'].map((id) => loader.find(id)));
    expect(answers).toEqual([profileOf('a'), profileOf('b'), profileOf('a'), undefined]);
    expect(store.reads).toEqual([['a', 'b', 'gone-1']]);
  });

  it('reads again in a later turn: nothing is kept', async () => {
    const store = new CountingStore();
    const loader = new UserProfileLoader(store);
    await loader.find('a');
    await loader.find('a');
    expect(store.reads).toEqual([['a'], ['a']]);
  });

  it('splits a large turn into reads of at most MAX_PROFILES_PER_READ', async () => {
    const store = new CountingStore();
    const loader = new UserProfileLoader(store);
    const ids = Array.from({ length: MAX_PROFILES_PER_READ + 3 }, (_, index) => `u${index}`);
    const answers = await Promise.all(ids.map((id) => loader.find(id)));
    expect(answers.map((answer) => answer?.user.id)).toEqual(ids);
    expect(store.reads.map((read) => read.length)).toEqual([MAX_PROFILES_PER_READ, 3]);
  });

  it('fails every caller of a read that failed, and reads afresh afterwards', async () => {
    const store = new CountingStore();
    const loader = new UserProfileLoader(store);
    store.failing = true;
    const outcomes = await Promise.allSettled([loader.find('a'), loader.find('b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    store.failing = false;
    expect(await loader.find('a')).toEqual(profileOf('a'));
  });
});
