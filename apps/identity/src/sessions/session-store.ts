import type { Session, User } from '../generated/prisma/client.js';

export interface NewSession {
  userId: string;
  authTime: Date;
  expiresAt: Date;
  /** Keyed hash of a browser session's cookie token; null for other sign-ins. */
  tokenHash: string | null;
  /** The sign-in's User-Agent, as sessionUserAgent() keeps it. */
  userAgent?: string | null;
  /** RFC 8176 methods of the authentication (docs/strong-authentication.md #5); none by default. */
  amr?: string[];
}

/** Storage of sign-in sessions (docs/conventions.md #7, docs/identity.md #11). */
export interface SessionStore {
  open(session: NewSession): Promise<Session>;
  /** The session with this cookie-token hash and its account, ended or expired ones included. */
  findByTokenHash(tokenHash: string): Promise<{ session: Session; user: User } | undefined>;
  /** Ends the user's session if it is live; false when nothing changed. */
  end(sessionId: string, userId: string, now: Date): Promise<boolean>;
  /** The user's sessions neither ended nor expired at `now`, oldest first. */
  listLive(userId: string, now: Date): Promise<Session[]>;
  /** The user's session `sessionId` when neither ended nor expired at `now`. */
  findLive(userId: string, sessionId: string, now: Date): Promise<Session | undefined>;
  /**
   * Sets lastSeenAt to `now` when the session is not ended and was last seen before
   * `staleBefore` (or never): one conditional write, none while the note is fresh.
   */
  touch(sessionId: string, now: Date, staleBefore: Date): Promise<void>;
  /** A live session re-authenticated (step-up): its methods and auth time replaced; false when not live. */
  reauthenticate(sessionId: string, amr: string[], authTime: Date): Promise<boolean>;
}
