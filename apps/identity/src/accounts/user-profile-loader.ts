import type { UserProfile, UserProfileStore, UserProfiles } from './user-profile.js';

/** Most accounts one statement reads; a larger turn is read in several. */
export const MAX_PROFILES_PER_READ = 128;

interface Waiting {
  resolve: (profile: UserProfile | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads the profiles asked for within one event-loop turn with one statement
 * (docs/performance.md #21): the GetUser calls of a batch, and unary calls arriving together,
 * cost one round trip to the database instead of three each. Nothing is kept between turns:
 * every caller gets what the database held after it asked, as a read of its own would give.
 */
export class UserProfileLoader implements UserProfiles {
  private queued = new Map<string, Waiting[]>();
  private scheduled = false;

  constructor(private readonly store: UserProfileStore) {}

  find(userId: string): Promise<UserProfile | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.queued.get(userId);
      if (waiting) waiting.push({ resolve, reject });
      else this.queued.set(userId, [{ resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      // After the I/O callbacks of this turn: every call that arrived in it has asked by then.
      setImmediate(() => this.readQueued());
    });
  }

  private readQueued(): void {
    this.scheduled = false;
    const queued = this.queued;
    this.queued = new Map();
    const userIds = [...queued.keys()];
    for (let start = 0; start < userIds.length; start += MAX_PROFILES_PER_READ) {
      void this.read(userIds.slice(start, start + MAX_PROFILES_PER_READ), queued);
    }
  }

  private async read(userIds: string[], queued: Map<string, Waiting[]>): Promise<void> {
    let profiles: Map<string, UserProfile>;
    try {
      profiles = await this.store.findProfiles(userIds);
    } catch (error) {
      for (const userId of userIds) for (const waiting of queued.get(userId)!) waiting.reject(error);
      return;
    }
    for (const userId of userIds) {
      for (const waiting of queued.get(userId)!) waiting.resolve(profiles.get(userId));
    }
  }
}
