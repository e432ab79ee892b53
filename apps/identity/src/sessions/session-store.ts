import type { Session, User } from '../generated/prisma/client.js';

export interface NewSession {
  userId: string;
  authTime: Date;
  expiresAt: Date;
  /** Keyed hash of a browser session's cookie token; null for other sign-ins. */
  tokenHash: string | null;
}

/** Storage of sign-in sessions (docs/conventions.md #7, docs/identity.md #11). */
export interface SessionStore {
  open(session: NewSession): Promise<Session>;
  /** The session with this cookie-token hash and its account, ended or expired ones included. */
  findByTokenHash(tokenHash: string): Promise<{ session: Session; user: User } | undefined>;
  /** Ends the user's session if it is live; false when nothing changed. */
  end(sessionId: string, userId: string, now: Date): Promise<boolean>;
}
