import type { SessionEndOutbox as SessionEndRow } from '../generated/prisma/client.js';

export type { SessionEndRow };

/**
 * The session-end outbox as the relay reads it (docs/conventions.md #7). Rows are written by
 * the database trigger on `identity.sessions`, never by code, so every session end is in it.
 */
export interface SessionEndOutbox {
  /** Rows not yet enqueued, oldest first. */
  pending(limit: number): Promise<SessionEndRow[]>;
  /**
   * Forgets a row once its job is on the queue: a relayed end is the queue's to keep, and a
   * row left behind would keep the user's id after an account deletion (docs/identity.md #19).
   */
  forget(id: string): Promise<void>;
}
