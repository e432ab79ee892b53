import type { LiveAccessToken } from '../access-token/deny-list.js';

/** Everything oauth keeps of one user, for account deletion (interface.md 4.10, docs/identity.md #19). */
export interface UserGrantsStore {
  /**
   * Revokes every refresh-token family of the user and answers the access tokens issued to
   * the user that are still live at `now`: those of its families and of redeemed codes.
   */
  revokeAll(userId: string, now: Date): Promise<LiveAccessToken[]>;
  /** Deletes the user's consents, refresh-token families (with their tokens) and codes. */
  deleteAll(userId: string): Promise<void>;
}
