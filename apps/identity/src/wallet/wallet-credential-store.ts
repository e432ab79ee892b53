import type { Session, User } from '../generated/prisma/client.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { NewSession } from '../sessions/session-store.js';

export interface WalletCredentialToLink {
  issuer: string;
  /** Keyed hash of issuer and subject (wallet-subject.ts). */
  subjectHash: string;
  /** The attested address, kept when present. */
  email: string | null;
}

/** Storage of wallet credentials (docs/conventions.md #7, docs/wallet.md). */
export interface WalletCredentialStore {
  /**
   * Links the credential to the account, all or nothing: `linked` when it is now, or already
   * was, this account's (the attested address updated), `conflict` when another account holds
   * it (nothing written), undefined when there is no such account. The audit event (actor:
   * the account) is recorded only when the credential was newly linked.
   */
  link(
    userId: string,
    credential: WalletCredentialToLink,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'linked' | 'conflict' | undefined>;
  /**
   * For the credential with this hash: records its use (and the attested address, when
   * given), opens a session for its account and records the audit event, all or nothing.
   * Undefined when the credential is linked to no account.
   */
  signIn(
    subjectHash: string,
    use: { at: Date; email: string | null },
    session: Omit<NewSession, 'userId'>,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<{ user: User; session: Session } | undefined>;
  /** The attested addresses of the account's credentials, the most recently used first. */
  verifiedEmails(userId: string): Promise<string[]>;
}
