import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { RequestOriginSchema } from '@authz/proto/identity/v1/identity';
import type { AccountStore, NewAccount } from '../src/accounts/account-store.js';
import type { AccountRecoveryStore } from '../src/recovery/account-recovery-store.js';
import type { AuditLog } from '../src/audit/audit-log.js';
import type { AccountDeletionStore } from '../src/deletion/account-deletion-store.js';
import type { MailOutbox } from '../src/outbox/mail-outbox.js';
import type { RealmStore } from '../src/realms/realm-store.js';
import type { SessionStore } from '../src/sessions/session-store.js';
import type { NewVerification, VerificationStore } from '../src/verification/verification-store.js';
import type { WalletCredentialStore } from '../src/wallet/wallet-credential-store.js';

/** The identity stores over one database: a contract may need one store to set up another's data. */
export interface IdentityStores {
  accounts: AccountStore;
  realms: RealmStore;
  verifications: VerificationStore;
  sessions: SessionStore;
  deletions: AccountDeletionStore;
  walletCredentials: WalletCredentialStore;
  audit: AuditLog;
  outbox: MailOutbox;
  recovery: AccountRecoveryStore;
}

export interface StoredAuditEvent {
  type: string;
  ip: string | null;
  userAgent: string | null;
  details: unknown;
}

/** What the interfaces write but never read back, looked at the implementation's own way. */
export interface StoreProbe {
  /** The account's audit events, oldest first. */
  auditEvents(actorUserId: string): Promise<StoredAuditEvent[]>;
  outboxRow(id: string): Promise<{ payload: string | null; enqueuedAt: Date | null } | undefined>;
  /** Audit events of any actor (null included) whose details hold `key` = `value`. */
  auditEventsWith(key: string, value: string): Promise<(StoredAuditEvent & { actorUserId: string | null })[]>;
}

export interface StoresUnderTest {
  stores: IdentityStores;
  probe: StoreProbe;
}

export const ORIGIN = create(RequestOriginSchema, { ip: '203.0.113.7', userAgent: 'vitest' });

export function newAccount(realmId: string, email = `${randomUUID()}@Example.com`): NewAccount {
  return { email, emailLower: email.toLowerCase(), realmId, passwordHash: '$argon2id$v=19$stand-in' };
}

export function newVerification(overrides: Partial<NewVerification> = {}): NewVerification {
  return {
    tokenHash: randomUUID(),
    expiresAt: new Date(Date.now() + 3_600_000),
    mail: { id: randomUUID(), jobName: 'verification-email', payload: `sealed-${randomUUID()}` },
    ...overrides,
  };
}

/** A registered account in the default realm. */
export async function registered(stores: IdentityStores, email?: string) {
  const realm = await stores.realms.ensureDefault('default', ['openid']);
  const verification = newVerification();
  const user = await stores.accounts.register(newAccount(realm.id, email), verification, {
    type: 'registration',
    origin: ORIGIN,
  });
  if (!user) throw new Error('registration refused');
  return { user, verification };
}
