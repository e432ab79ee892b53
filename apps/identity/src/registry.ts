import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { IdentityEnv } from './config/env.js';
import type { AccountStore } from './accounts/account-store.js';
import type { AccountDeletionStore } from './deletion/account-deletion-store.js';
import type { AuditLog } from './audit/audit-log.js';
import type { AccountRecoveryStore } from './recovery/account-recovery-store.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { outboxKey } from './outbox/outbox-payload.js';
import { loadCommonPasswords } from './passwords/common-passwords.js';
import { createConcurrencyLimiter } from './passwords/concurrency-limiter.js';
import { createPasswordHasher, type PasswordHasher } from './passwords/password-hasher.js';
import { ensureDefaultRealm } from './realms/default-realm.js';
import type { SecondFactorStore } from './second-factors/second-factor-store.js';
import type { SessionStore } from './sessions/session-store.js';
import { PrismaAccountDeletionStore } from './storage/prisma-account-deletion-store.js';
import { PrismaAccountStore } from './storage/prisma-account-store.js';
import { PrismaAccountRecoveryStore } from './storage/prisma-account-recovery-store.js';
import { PrismaAuditLog } from './storage/prisma-audit-log.js';
import { PrismaRealmStore } from './storage/prisma-realm-store.js';
import { PrismaSecondFactorStore } from './storage/prisma-second-factor-store.js';
import { PrismaSessionStore } from './storage/prisma-session-store.js';
import { PrismaVerificationStore } from './storage/prisma-verification-store.js';
import { PrismaWalletCredentialStore } from './storage/prisma-wallet-credential-store.js';
import type { ResendLimits } from './verification/resend-limits.js';
import type { VerificationStore } from './verification/verification-store.js';
import type { WalletCredentialStore } from './wallet/wallet-credential-store.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface Registry {
  accounts: AccountStore;
  verifications: VerificationStore;
  sessions: SessionStore;
  deletions: AccountDeletionStore;
  walletCredentials: WalletCredentialStore;
  secondFactors: SecondFactorStore;
  audit: AuditLog;
  redis: Redis;
  log: Logger;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  defaultRealmId: string;
  secretHashKey: Buffer;
  /** KEY_ENCRYPTION_KEY: authenticator-app secrets at rest (docs/strong-authentication.md #2). */
  keyEncryptionKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
  verificationTokenTtlSeconds: number;
  passwordResetTokenTtlSeconds: number;
  recovery: AccountRecoveryStore;
  sessionTtlSeconds: number;
  /** SESSION_SEEN_INTERVAL (docs/identity.md #20). */
  sessionSeenIntervalSeconds: number;
  resendLimits: ResendLimits;
  onMailQueued(): void;
  /**
   * Asks the session-end relay for a pass now. Optional for promptness only: the trigger on
   * `identity.sessions` records every end and the relay polls (docs/identity.md #17).
   */
  onSessionEnded(): void;
}

export async function createRegistry(
  env: IdentityEnv,
  parts: { prisma: PrismaClient; redis: Redis; log: Logger; onMailQueued(): void; onSessionEnded(): void },
): Promise<Registry> {
  const [hasher, commonPasswords, realm] = await Promise.all([
    createPasswordHasher(env.argon2, createConcurrencyLimiter(env.passwordHashing)),
    loadCommonPasswords(),
    ensureDefaultRealm(new PrismaRealmStore(parts.prisma), env.defaultRealmAllowedScopes),
  ]);
  const { prisma, ...rest } = parts;
  return {
    ...rest,
    accounts: new PrismaAccountStore(prisma),
    verifications: new PrismaVerificationStore(prisma),
    sessions: new PrismaSessionStore(prisma),
    deletions: new PrismaAccountDeletionStore(prisma),
    walletCredentials: new PrismaWalletCredentialStore(prisma),
    secondFactors: new PrismaSecondFactorStore(prisma),
    audit: new PrismaAuditLog(prisma),
    hasher,
    commonPasswords,
    defaultRealmId: realm.id,
    secretHashKey: env.secretHashKey,
    keyEncryptionKey: env.keyEncryptionKey,
    outboxKey: outboxKey(env.secretHashKey),
    issuer: env.issuer,
    verificationTokenTtlSeconds: env.verificationTokenTtlSeconds,
    passwordResetTokenTtlSeconds: env.passwordResetTokenTtlSeconds,
    recovery: new PrismaAccountRecoveryStore(prisma),
    sessionTtlSeconds: env.sessionTtlSeconds,
    sessionSeenIntervalSeconds: env.sessionSeenIntervalSeconds,
    resendLimits: env.resendVerification,
  };
}
