import { describe, expect, it } from 'vitest';
import { announcing } from './announced-profile-changes.js';
import type { UserChanges } from './user-changes.js';

/** A store of the shape the Prisma stores have: state behind `this`, methods on the prototype. */
class NameStore {
  readonly names = new Map<string, string>([['u-1', 'Ada']]);
  async rename(userId: string, name: string): Promise<string | undefined> {
    if (!this.names.has(userId)) return undefined;
    this.names.set(userId, name);
    return name;
  }
  async nameOf(userId: string): Promise<string | undefined> {
    return this.names.get(userId);
  }
  async fail(): Promise<string> {
    throw new Error('the transaction rolled back');
  }
}

function recordingChanges() {
  const published: string[] = [];
  const changes: UserChanges = {
    async publish({ userId, reason }) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      published.push(`${reason} ${userId}`);
    },
  };
  return { published, changes };
}

/** A NameStore whose renames announce the renamed account, as the account store's do. */
function announcingRenames() {
  const { published, changes } = recordingChanges();
  const store = announcing(
    new NameStore(),
    { rename: { reason: 'name_changed', changed: (renamed, userId) => (renamed ? userId : undefined) } },
    changes,
  );
  return { published, store };
}

describe('profile changes announced by the stores (docs/identity.md #25)', () => {
  it('a call that changed a profile resolves only once its change is published', async () => {
    const { published, store } = announcingRenames();
    expect(await store.rename('u-1', 'Grace')).toBe('Grace');
    expect(published).toEqual(['name_changed u-1']);
    expect(await store.nameOf('u-1')).toBe('Grace');
  });

  it('a call that changed nothing publishes nothing', async () => {
    const { published, store } = announcingRenames();
    expect(await store.rename('nobody', 'Grace')).toBeUndefined();
    expect(published).toEqual([]);
  });

  it('a call that failed publishes nothing and fails as before', async () => {
    const { published, changes } = recordingChanges();
    const store = announcing(new NameStore(), { fail: { reason: 'deleted', changed: () => 'u-1' } }, changes);
    await expect(store.fail()).rejects.toThrow('the transaction rolled back');
    expect(published).toEqual([]);
  });

  it('leaves every other method, and the state behind it, to the store', async () => {
    const { published, changes } = recordingChanges();
    const original = new NameStore();
    const store = announcing(original, {}, changes);
    expect(await store.nameOf('u-1')).toBe('Ada');
    expect(await store.rename('u-1', 'Grace')).toBe('Grace');
    expect(original.names.get('u-1')).toBe('Grace');
    expect(published).toEqual([]);
  });
});
