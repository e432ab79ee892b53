import type { AuditEntry } from '../audit/audit-log.js';
import type { User } from '../generated/prisma/client.js';
import type { KeysetPosition } from '@authz/shared/pagination';

/** An account with whether it holds the admin role. */
export interface AdministeredUser {
  user: User;
  admin: boolean;
}

export interface UserChanges {
  disabled?: boolean;
  emailVerified?: boolean;
}

/** A stored audit event as the operator reads it. */
export interface StoredAuditEvent {
  id: string;
  type: string;
  actorUserId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: unknown;
  occurredAt: Date;
}

export interface AuditEventFilter {
  userId?: string;
  type?: string;
  since?: Date;
  before?: KeysetPosition;
  limit: number;
}

/**
 * Storage of the operator API (docs/conventions.md #7, docs/admin-api.md). Accounts being
 * deleted are unknown to every method, as they are to every other caller (docs/identity.md #19).
 */
export interface AdminStore {
  /** Whether the live, enabled account holds the admin role. */
  isAdmin(userId: string): Promise<boolean>;
  /** Accounts after `after` by (created_at, id), at most `limit`, matching `query` when given. */
  listUsers(filter: { query?: string; after?: KeysetPosition; limit: number }): Promise<AdministeredUser[]>;
  findUser(userId: string): Promise<AdministeredUser | undefined>;
  /**
   * Applies `changes` in one transaction with the audit events `audits` makes of what actually
   * changed; disabling ends every live session there too. Undefined for an unknown account.
   */
  updateUser(
    userId: string,
    changes: UserChanges,
    audits: (changed: { disabled?: boolean; emailVerified?: boolean }) => AuditEntry[],
  ): Promise<{ record: AdministeredUser; endedSessions: number } | undefined>;
  /** Ends every live session of the account and records `audit`; undefined for an unknown account. */
  endSessions(userId: string, audit: (ended: number) => AuditEntry): Promise<number | undefined>;
  /** Events newest first by (occurred_at, id), before `before`. */
  listAuditEvents(filter: AuditEventFilter): Promise<StoredAuditEvent[]>;
  /**
   * Grants or revokes the role of the account with this address, recording `audit` when the
   * role changed. 'unknown' when no (live) account has the address.
   */
  setRole(
    emailLower: string,
    grant: boolean,
    audit: (userId: string) => AuditEntry,
  ): Promise<'changed' | 'unchanged' | 'unknown'>;
}
