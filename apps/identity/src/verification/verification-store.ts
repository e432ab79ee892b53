import type { AuditEntry } from '../audit/audit-log.js';

/** A verification token (only its keyed hash) and the sealed mail that carries it. */
export interface NewVerification {
  tokenHash: string;
  expiresAt: Date;
  mail: { id: string; jobName: string; payload: string };
}

/** Storage of email verification tokens (docs/conventions.md #7, docs/decisions.md #5, #29). */
export interface VerificationStore {
  /**
   * With the account of `emailLower` locked: when it exists and is unverified, stores the
   * verification `issue` makes for it, with its mail. True when one was stored.
   */
  reissue(
    emailLower: string,
    issue: (user: { id: string; email: string }) => NewVerification,
  ): Promise<boolean>;
  /**
   * Uses the unused, unexpired token with this hash, marks its account's address verified and
   * records the audit event (actor: that account), all or nothing. Of concurrent uses exactly
   * one gets the account and its address; the others, like unknown, used or expired tokens, get undefined.
   */
  consume(
    tokenHash: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<{ userId: string; email: string } | undefined>;
}
