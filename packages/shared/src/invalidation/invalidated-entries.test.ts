import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../errors/index.js';
import { InvalidatedEntries } from './invalidated-entries.js';

interface Profile {
  id: string;
  name: string;
}

const profile = (id: string, name = 'Ada'): Profile => ({ id, name });

/** Subscribed entries on a clock the test moves, and the source they keep answers of, counted. */
function setUp(options: { maxEntries?: number } = {}) {
  let now = 1_000_000;
  const cache = new InvalidatedEntries<Profile>({ ...options, ttlMs: 30_000, now: () => now });
  cache.activate();
  let name = 'Ada';
  const source = vi.fn(async (userId: string) => profile(userId, name));
  const find = (userId: string) => cache.find(userId, () => source(userId));
  return {
    cache,
    source,
    find,
    rename: (to: string) => (name = to),
    advance: (ms: number) => (now += ms),
  };
}

describe('entries kept fresh by invalidation messages (docs/decisions.md #28)', () => {
  it('asks the source once for a returning key', async () => {
    const { source, find } = setUp();
    expect(await find('u-1')).toEqual(profile('u-1'));
    expect(await find('u-1')).toEqual(profile('u-1'));
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('a message drops the named key only, or every entry it describes', async () => {
    const { cache, source, find, rename } = setUp();
    await find('u-1');
    await find('u-2');
    rename('Grace');
    cache.drop('u-1');
    expect((await find('u-1')).name).toBe('Grace');
    expect((await find('u-2')).name).toBe('Ada');
    expect(source).toHaveBeenCalledTimes(3);
    cache.dropWhere((entry) => entry.name === 'Ada');
    expect(cache.size).toBe(1);
    expect((await find('u-1')).name).toBe('Grace');
    expect(source).toHaveBeenCalledTimes(3);
  });

  it('keeps nothing that was in flight when anything was invalidated', async () => {
    const { cache, source, find } = setUp();
    let answer!: () => void;
    source.mockImplementationOnce(
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
    const { cache, source, find } = setUp();
    source.mockRejectedValueOnce(new NotFoundError());
    await expect(find('gone')).rejects.toBeInstanceOf(NotFoundError);
    expect(cache.size).toBe(0);
    await find('gone');
    expect(source).toHaveBeenCalledTimes(2);
  });

  it('expires an entry after its TTL, a lost message bounded', async () => {
    const { source, find, advance } = setUp();
    await find('u-1');
    advance(29_999);
    await find('u-1');
    expect(source).toHaveBeenCalledTimes(1);
    advance(1);
    await find('u-1');
    expect(source).toHaveBeenCalledTimes(2);
  });

  it('lets the oldest entry go when full', async () => {
    const { cache, source, find } = setUp({ maxEntries: 2 });
    await find('u-1');
    await find('u-2');
    await find('u-3');
    expect(cache.size).toBe(2);
    await find('u-3');
    await find('u-2');
    expect(source).toHaveBeenCalledTimes(3);
    await find('u-1');
    expect(source).toHaveBeenCalledTimes(4);
  });

  it('while not subscribed, answers and keeps nothing; subscribed again, starts empty', async () => {
    const { cache, source, find } = setUp();
    await find('u-1');
    cache.deactivate();
    expect(cache.size).toBe(0);
    await find('u-1');
    await find('u-1');
    expect(cache.size).toBe(0);
    cache.activate();
    await find('u-1');
    await find('u-1');
    expect(source).toHaveBeenCalledTimes(4);
    expect(cache.size).toBe(1);
  });
});
