import type { AuditEntry } from '../audit/audit-log.js';
import type { FederatedCredential, Session, User } from '../generated/prisma/client.js';
import type { NewSession } from '../sessions/session-store.js';

/** An upstream identity as the callback established it (docs/federation.md #5). */
export interface UpstreamIdentity {
  providerId: string;
  issuer: string;
  /** Keyed hash of provider id and subject (federated-subject.ts). */
  subjectHash: string;
  /** The upstream's address, syntactically checked; null when absent or malformed. */
  email: string | null;
  /** True only when the upstream said `email_verified: true` and the provider has trustEmail. */
  emailTrusted: boolean;
}

/** docs/federation.md #7: what an unknown subject may do. */
export interface UnknownSubjectRules {
  /** trustEmail: join the account whose address the upstream vouched for. */
  joinByEmail: boolean;
  /** createAccounts: open a new account. */
  createAccount: boolean;
  realmId: string;
}

export type SignedIn = { user: User; session: Session };

export interface FederatedSignInAudit {
  login: Omit<AuditEntry, 'actorUserId'>;
  linked: Omit<AuditEntry, 'actorUserId'>;
  registration: Omit<AuditEntry, 'actorUserId'>;
}

/** Storage of upstream identities (docs/conventions.md #7, docs/federation.md). */
export interface FederatedCredentialStore {
  /**
   * Opens a session for the account holding this identity, or, for an unknown identity,
   * under `rules`, for the account it joins or creates; all or nothing, audited. Undefined is
   * the uniform refusal: nothing written.
   */
  signIn(
    identity: UpstreamIdentity,
    rules: UnknownSubjectRules,
    session: Omit<NewSession, 'userId'>,
    audit: FederatedSignInAudit,
  ): Promise<SignedIn | undefined>;
  /** As WalletCredentialStore.link: `linked`, `conflict` (nothing written), undefined (no account). */
  link(
    userId: string,
    identity: UpstreamIdentity,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'linked' | 'conflict' | undefined>;
  /** The account's upstream identities, oldest first, and its count of sign-in methods. */
  list(userId: string): Promise<{ identities: FederatedCredential[]; signInMethods: number }>;
  /** Removes one, never the last sign-in method; undefined for an unknown or another user's id. */
  unlink(
    userId: string,
    credentialId: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'unlinked' | 'last_method' | undefined>;
  /** Trusted addresses with their provider, the most recently used identity first. */
  verifiedEmails(userId: string): Promise<{ email: string; providerId: string }[]>;
}
