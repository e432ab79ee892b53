import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { IdentityEnv } from './config/env.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { outboxKey } from './outbox/outbox-payload.js';
import { loadCommonPasswords } from './passwords/common-passwords.js';
import { createPasswordHasher, type PasswordHasher } from './passwords/password-hasher.js';
import { ensureDefaultRealm } from './realms/default-realm.js';
import type { ResendLimits } from './verification/resend-limits.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface Registry {
  prisma: PrismaClient;
  redis: Redis;
  log: Logger;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  defaultRealmId: string;
  secretHashKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
  verificationTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  resendLimits: ResendLimits;
  onMailQueued(): void;
}

export async function createRegistry(
  env: IdentityEnv,
  parts: { prisma: PrismaClient; redis: Redis; log: Logger; onMailQueued(): void },
): Promise<Registry> {
  const [hasher, commonPasswords, realm] = await Promise.all([
    createPasswordHasher(env.argon2),
    loadCommonPasswords(),
    ensureDefaultRealm(parts.prisma, env.defaultRealmAllowedScopes),
  ]);
  return {
    ...parts,
    hasher,
    commonPasswords,
    defaultRealmId: realm.id,
    secretHashKey: env.secretHashKey,
    outboxKey: outboxKey(env.secretHashKey),
    issuer: env.issuer,
    verificationTokenTtlSeconds: env.verificationTokenTtlSeconds,
    sessionTtlSeconds: env.sessionTtlSeconds,
    resendLimits: env.resendVerification,
  };
}
