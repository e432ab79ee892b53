import type { AuditEntry } from '../audit/audit-log.js';

/** An account as a deletion sees it. */
export interface DeletableAccount {
  userId: string;
  /** Absent when the account has no password credential. */
  passwordHash: string | undefined;
  developerId: string | undefined;
  deletingAt: Date | null;
}

/** A deletion begun and not completed (docs/identity.md #19). */
export interface PendingDeletion {
  userId: string;
  developerId: string | undefined;
}

/** Storage of account deletions (docs/architecture.md #15), in the order of docs/identity.md #19. */
export interface AccountDeletionStore {
  /** The account, deleting or not; undefined when it does not exist (any more). */
  find(userId: string): Promise<DeletableAccount | undefined>;
  /**
   * Marks the account deleting (keeping an earlier mark), ends its live sessions and records
   * the audit event, in one transaction (its actor the account itself unless `audit` names
   * one: an admin, docs/admin-api.md #3). False when the account does not exist.
   */
  markDeleting(userId: string, now: Date, audit: AuditEntry): Promise<boolean>;
  /**
   * In one transaction: every audit row of the user drops the user id for `actorHash` (and,
   * where an admin acted on the account, `details.targetUserId` for `targetHash`), the
   * account and everything hanging off it is deleted, and `audit` is recorded without an
   * actor. 'gone' when the account no longer exists, 'not_deleting' when its deletion was
   * never begun (nothing is written then).
   */
  deleteAccount(
    userId: string,
    actorHash: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'deleted' | 'gone' | 'not_deleting'>;
  /** Deletions begun before `before`, oldest first, at most `limit`. */
  listPending(before: Date, limit: number): Promise<PendingDeletion[]>;
}
