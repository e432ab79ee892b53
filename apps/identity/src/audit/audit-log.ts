import type { RequestOrigin } from '@authz/proto/identity/v1/identity';

/** The security events the identity service records (docs/identity.md "Audit log"). */
export type AuditEventType =
  | 'registration'
  | 'email_verification'
  | 'login_success'
  | 'login_failure'
  | 'logout'
  | 'wallet_linked'
  | 'federated_identity_linked'
  | 'federated_identity_unlinked'
  | AccountRecoveryEventType
  | 'account_deletion_started'
  | 'account_deleted'
  | SecondFactorEventType
  | DelegationEventType
  | AdminEventType;

/**
 * Operator actions (docs/admin-api.md #8): the actor is the admin, `details.targetUserId` the
 * account acted on. Those recorded for other services through AdminService.RecordAdminEvent
 * are the only ones a caller may name.
 */
export const RECORDABLE_ADMIN_EVENT_TYPES = ['admin_client_updated', 'admin_signing_keys_rotated'] as const;
export type AdminEventType =
  | (typeof RECORDABLE_ADMIN_EVENT_TYPES)[number]
  | 'admin_role_granted'
  | 'admin_role_revoked'
  | 'admin_user_disabled'
  | 'admin_user_enabled'
  | 'admin_email_verified_set'
  | 'admin_sessions_revoked'
  | 'admin_password_reset_sent'
  | 'admin_user_deletion_started';

/** Second factors (docs/strong-authentication.md #11). */
export type SecondFactorEventType =
  | 'totp_enrolled'
  | 'totp_removed'
  | 'recovery_code_used'
  | 'second_factor_failure'
  | 'second_factor_password_failure'
  | 'session_stepped_up'
  | 'passkey_registered'
  | 'passkey_renamed'
  | 'passkey_removed';

/** Delegations oauth reports through AuditService (docs/identity.md #14). */
export const DELEGATION_EVENT_TYPES = ['token_exchange', 'id_jag_issued', 'id_jag_accepted'] as const;
export type DelegationEventType = (typeof DELEGATION_EVENT_TYPES)[number];

/** Password and address changes (interface.md 4.10, docs/identity.md #18). */
export type AccountRecoveryEventType =
  | 'password_reset_requested'
  | 'password_reset'
  | 'password_changed'
  | 'password_change_failure'
  | 'email_change_requested'
  | 'email_changed';

export interface AuditEntry {
  type: AuditEventType;
  actorUserId?: string;
  origin: RequestOrigin | undefined;
  /** Small, never secret: no password, token or plain email address of a failed login. */
  details?: Record<string, string | boolean | string[]>;
}

/** The security event log (docs/conventions.md #7); rows are only ever added. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
}
