import type { InvalidatedCache } from '@authz/shared/invalidation';
import type { IdentityUserProfile } from '../protocol/identity-port.js';

export interface UserProfileCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
}

/** How a lookup was answered: `hit` from memory, `miss` by identity, `unsubscribed` by identity without the cache. */
export type UserProfileLookup = 'hit' | 'miss' | 'unsubscribed';

interface Entry {
  profile: IdentityUserProfile;
  expiresAt: number;
}

/**
 * The profiles identity answered for GetUser (docs/performance.md #22), so UserInfo and the
 * grants that write ID tokens cost no call to identity for a returning user. Kept fresh as
 * the client cache is (docs/decisions.md #28): identity publishes every change of what a
 * profile holds, a message drops that user's entry, everything is flushed whenever the
 * subscription starts or ends, nothing lives longer than a short TTL, and while the channel is
 * not subscribed the cache answers nothing and keeps nothing. Failures (an unknown user) are
 * never kept.
 */
export class UserProfileCache implements InvalidatedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private subscribed = false;
  private generation = 0;

  constructor({ maxEntries = 10_000, ttlMs = 30_000, now = Date.now }: UserProfileCacheOptions = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  get active(): boolean {
    return this.subscribed;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached profile of `userId`, else `load()`'s, kept when it succeeds. A profile that was
   * in flight while anything was invalidated is not kept: it may predate the change.
   */
  async find(
    userId: string,
    load: () => Promise<IdentityUserProfile>,
    counted: (lookup: UserProfileLookup) => void = () => undefined,
  ): Promise<IdentityUserProfile> {
    if (!this.subscribed) {
      counted('unsubscribed');
      return load();
    }
    const cached = this.lookup(userId);
    counted(cached ? 'hit' : 'miss');
    if (cached) return cached;
    const generation = this.generation;
    const profile = await load();
    if (this.subscribed && generation === this.generation) this.store(userId, profile);
    return profile;
  }

  /** identity published a change of this user's profile (docs/identity.md #25). */
  drop(userId: string): void {
    this.generation += 1;
    this.entries.delete(userId);
  }

  /** Subscribed (again): whatever was missed meanwhile is unknown, so start empty. */
  activate(): void {
    this.flush();
    this.subscribed = true;
  }

  /** Not subscribed: messages may be missed from now on. */
  deactivate(): void {
    this.subscribed = false;
    this.flush();
  }

  /** Drops every entry, and any profile still in flight. */
  flush(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private lookup(userId: string): IdentityUserProfile | undefined {
    const entry = this.entries.get(userId);
    if (entry && entry.expiresAt <= this.now()) this.entries.delete(userId);
    else if (entry) return entry.profile;
    return undefined;
  }

  private store(userId: string, profile: IdentityUserProfile): void {
    this.entries.delete(userId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(userId, { profile, expiresAt: this.now() + this.ttlMs });
  }
}
