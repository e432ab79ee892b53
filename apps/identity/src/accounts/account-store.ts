import type { User } from '../generated/prisma/client.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { NewVerification } from '../verification/verification-store.js';

/** An account to create with its password credential. */
export interface NewAccount {
  /** As given; `emailLower` is the unique key (docs/decisions.md #1). */
  email: string;
  emailLower: string;
  realmId: string;
  /** argon2id (docs/decisions.md #4). */
  passwordHash: string;
}

/** Storage of accounts, their password credentials and developer records (docs/conventions.md #7). */
export interface AccountStore {
  /**
   * Creates the account, its password credential, its first verification token with the
   * mail's outbox row, and the audit event (actor: the new account), all or nothing
   * (docs/decisions.md #29). Undefined when the address is taken, even concurrently.
   */
  register(
    account: NewAccount,
    verification: NewVerification,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<User | undefined>;
  findById(userId: string): Promise<User | undefined>;
  findByEmailKey(emailLower: string): Promise<User | undefined>;
  /** The account and its password hash (undefined when it has no password credential). */
  findForSignIn(emailLower: string): Promise<{ user: User; passwordHash: string | undefined } | undefined>;
  /** Sets (or with null clears) the name and updatedAt; undefined when there is no such live account. */
  updateName(userId: string, name: string | null, now: Date): Promise<User | undefined>;
  /** The developer id of an existing account, created on first use; concurrent calls agree. */
  ensureDeveloper(userId: string): Promise<string>;
}
