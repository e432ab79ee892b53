import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { IdentityEnv } from './config/env.js';
import type { AccountStore } from './accounts/account-store.js';
import type { UserProfiles } from './accounts/user-profile.js';
import { UserProfileLoader } from './accounts/user-profile-loader.js';
import { announceProfileChanges } from './accounts/profile-changing-stores.js';
import { createUserChanges } from './accounts/user-changes.js';
import { PrismaUserProfileStore } from './storage/prisma-user-profile-store.js';
import type { AdminStore } from './admin/admin-store.js';
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
import type { PasskeyStore } from './passkeys/passkey-store.js';
import type { SessionStore } from './sessions/session-store.js';
import { PrismaAccountDeletionStore } from './storage/prisma-account-deletion-store.js';
import { PrismaAccountStore } from './storage/prisma-account-store.js';
import { PrismaAdminStore } from './storage/prisma-admin-store.js';
import { PrismaAccountRecoveryStore } from './storage/prisma-account-recovery-store.js';
import { PrismaAuditLog } from './storage/prisma-audit-log.js';
import { PrismaRealmStore } from './storage/prisma-realm-store.js';
import { PrismaSecondFactorStore } from './storage/prisma-second-factor-store.js';
import { PrismaPasskeyStore } from './storage/prisma-passkey-store.js';
import { PrismaSessionStore } from './storage/prisma-session-store.js';
import { PrismaVerificationStore } from './storage/prisma-verification-store.js';
import { PrismaFederatedCredentialStore } from './storage/prisma-federated-credential-store.js';
import type { FederatedCredentialStore } from './federation/federated-credential-store.js';
import { UpstreamFlowStore } from './federation/upstream-flow-store.js';
import { upstreamConfigurations, type UpstreamConfigurations } from './federation/upstream-configurations.js';
import { loadUpstreamProviders, type UpstreamProvider } from './federation/upstream-providers-file.js';
import { PrismaWalletCredentialStore } from './storage/prisma-wallet-credential-store.js';
import type { ResendLimits } from './verification/resend-limits.js';
import type { VerificationStore } from './verification/verification-store.js';
import type { WalletCredentialStore } from './wallet/wallet-credential-store.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface Registry {
  accounts: AccountStore;
  /** GetUser's account with its verified addresses, read once per turn for every caller (docs/performance.md #21). */
  userProfiles: UserProfiles;
  verifications: VerificationStore;
  sessions: SessionStore;
  deletions: AccountDeletionStore;
  walletCredentials: WalletCredentialStore;
  /** Upstream identities and the providers of UPSTREAM_IDPS_FILE (docs/federation.md). */
  federatedCredentials: FederatedCredentialStore;
  upstreamProviders: readonly UpstreamProvider[];
  upstreamConfigurations: UpstreamConfigurations;
  upstreamFlows: UpstreamFlowStore;
  secondFactors: SecondFactorStore;
  passkeys: PasskeyStore;
  audit: AuditLog;
  /** The operator API's accounts, role and audit reads (docs/admin-api.md). */
  admin: AdminStore;
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
    ...announceProfileChanges(
      {
        accounts: new PrismaAccountStore(prisma),
        verifications: new PrismaVerificationStore(prisma),
        recovery: new PrismaAccountRecoveryStore(prisma),
        walletCredentials: new PrismaWalletCredentialStore(prisma),
        federatedCredentials: new PrismaFederatedCredentialStore(prisma),
        admin: new PrismaAdminStore(prisma),
        deletions: new PrismaAccountDeletionStore(prisma),
      },
      createUserChanges(parts.redis, env.redisKeyPrefix, parts.log),
    ),
    userProfiles: new UserProfileLoader(new PrismaUserProfileStore(prisma)),
    sessions: new PrismaSessionStore(prisma),
    upstreamProviders: loadedUpstreamProviders(env, parts.log),
    upstreamConfigurations: upstreamConfigurations({ allowInsecureLoopback: env.allowInsecureLoopback }),
    upstreamFlows: new UpstreamFlowStore(parts.redis, env.secretHashKey),
    secondFactors: new PrismaSecondFactorStore(prisma),
    passkeys: new PrismaPasskeyStore(prisma),
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
    sessionTtlSeconds: env.sessionTtlSeconds,
    sessionSeenIntervalSeconds: env.sessionSeenIntervalSeconds,
    resendLimits: env.resendVerification,
  };
}

/** docs/federation.md #3: every problem logged by name; the good entries serve, the bad ones do not. */
function loadedUpstreamProviders(env: IdentityEnv, log: Logger): UpstreamProvider[] {
  const { providers, problems } = loadUpstreamProviders(env.upstreamIdpsFile);
  for (const problem of problems) log.error({ problem }, 'upstream identity provider left out');
  if (env.upstreamIdpsFile !== undefined) {
    log.info({ providers: providers.map(({ id }) => id) }, 'upstream identity providers loaded');
  }
  return providers;
}
