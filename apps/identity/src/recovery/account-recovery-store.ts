import type { AuditEntry } from '../audit/audit-log.js';

export type AccountTokenPurpose = 'password_reset' | 'email_change';

/** A sealed outbox row: one mail (docs/decisions.md #29, docs/identity.md #4). */
export interface OutboxMail {
  id: string;
  jobName: string;
  payload: string;
}

/** A reset or email-change token to store: only its keyed hash, and the mail carrying it. */
export interface NewAccountToken {
  tokenHash: string;
  expiresAt: Date;
  /** For an email change: the address the link confirms. */
  newEmail?: string;
  mail: OutboxMail;
}

/** A live (unused, unexpired) token and its account. */
export interface LiveAccountToken {
  userId: string;
  email: string;
  newEmail: string | null;
}

export type EmailChangeOutcome =
  { outcome: 'changed'; userId: string; email: string } | { outcome: 'invalid' } | { outcome: 'taken' };

/**
 * Storage of password resets, password changes and email changes (docs/conventions.md #7,
 * docs/identity.md #18). Every method is one transaction: the change, its sessions, its mail's
 * outbox row and its audit event commit together or not at all.
 */
export interface AccountRecoveryStore {
  /**
   * With the account of `emailLower` locked, and the same work for unknown addresses (`issue`
   * is called either way, with a stand-in account for an unknown one): when the account
   * exists, marks its unused reset tokens used (a newer link replaces older ones) and stores
   * the token `issue` made, with its mail and audit event. True when one was stored.
   */
  issuePasswordReset(
    emailLower: string,
    issue: (user: { id: string; email: string }) => NewAccountToken,
    audit: Omit<AuditEntry, 'actorUserId' | 'type'>,
  ): Promise<boolean>;
  /** The unused, unexpired token of `purpose` with this hash, or undefined. */
  findLive(tokenHash: string, purpose: AccountTokenPurpose): Promise<LiveAccountToken | undefined>;
  /**
   * Uses the reset token (one conditional update: of concurrent uses one wins), sets the
   * password, marks the address verified, ends every session of the account, queues the
   * notice `notice` makes and records the audit event. The account id, or undefined when the
   * token was not live.
   */
  completePasswordReset(
    tokenHash: string,
    passwordHash: string,
    notice: (user: { email: string }) => OutboxMail,
    audit: Omit<AuditEntry, 'actorUserId' | 'type'>,
  ): Promise<string | undefined>;
  /** The account's password hash and address, undefined when either is missing. */
  findPasswordCredential(userId: string): Promise<{ email: string; passwordHash: string } | undefined>;
  /** Sets the password, ends every session but `keepSessionId`, queues `notice`, audits. */
  changePassword(
    userId: string,
    keepSessionId: string,
    passwordHash: string,
    notice: OutboxMail,
    audit: Omit<AuditEntry, 'actorUserId' | 'type'>,
  ): Promise<void>;
  /**
   * Marks the account's unused email-change tokens used and stores `token` with its mail and
   * audit event. False (nothing written) when an account already has `token.newEmail`.
   */
  issueEmailChange(
    userId: string,
    token: NewAccountToken & { newEmail: string },
    audit: Omit<AuditEntry, 'actorUserId' | 'type'>,
  ): Promise<boolean>;
  /**
   * Uses the email-change token (one conditional update), moves the account to the new address
   * (verified: the link proved it), queues the notice to the old address and audits. `taken`
   * when another account got the address meanwhile (nothing changes, the token stays unused).
   */
  confirmEmailChange(
    tokenHash: string,
    notice: (oldEmail: string) => OutboxMail,
    audit: Omit<AuditEntry, 'actorUserId' | 'type'>,
  ): Promise<EmailChangeOutcome>;
}
