import {
  DEFAULT_REALM_ALLOWED_SCOPES,
  envBoolean,
  envDatabaseUrl,
  envHexKey32,
  envIssuer,
  envPositiveInt,
  envRedisUrl,
  envScopeList,
  loadEnvParts,
  serviceRuntimeSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The identity service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  REDIS_KEY_PREFIX: z.string().default(''),
  SECRET_HASH_KEY: envHexKey32(),
  // docs/strong-authentication.md #2: authenticator-app secrets are encrypted at rest.
  KEY_ENCRYPTION_KEY: envHexKey32(),
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  DEFAULT_REALM_ALLOWED_SCOPES: envScopeList(DEFAULT_REALM_ALLOWED_SCOPES),
  // OWASP Password Storage Cheat Sheet minimum for argon2id (docs/decisions.md #4).
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19456),
  ARGON2_ITERATIONS: envPositiveInt(2),
  ARGON2_PARALLELISM: envPositiveInt(1),
  // docs/identity.md #16: argon2 runs on libuv's threadpool (4 threads unless UV_THREADPOOL_SIZE
  // says otherwise); 2 at once leaves threads for DNS, files and crypto, and bounds the memory
  // to 2 x ARGON2_MEMORY_KIB.
  ARGON2_CONCURRENCY: envPositiveInt(2),
  ARGON2_QUEUE: z.coerce.number().int().min(0).default(64),
  VERIFICATION_TOKEN_TTL: envPositiveInt(86_400),
  // interface.md 4.10: seconds a password-reset link lives.
  PASSWORD_RESET_TOKEN_TTL: envPositiveInt(3600),
  SESSION_TTL: envPositiveInt(30 * 86_400),
  SESSION_SEEN_INTERVAL: envPositiveInt(300),
  RESEND_VERIFICATION_MIN_INTERVAL: envPositiveInt(60),
  RESEND_VERIFICATION_MAX_PER_WINDOW: envPositiveInt(5),
  RESEND_VERIFICATION_WINDOW: envPositiveInt(3600),
  OUTBOX_POLL_INTERVAL_MS: envPositiveInt(5000),
  // docs/federation.md #2: the upstream OpenID Providers; none when unset.
  UPSTREAM_IDPS_FILE: z.string().min(1).optional(),
  // Test-only: upstreams on http://127.0.0.1 / localhost (packages/shared outbound policy).
  CIMD_ALLOW_INSECURE_LOOPBACK: envBoolean(false),
});

/**
 * At the default cost a hash takes tens of milliseconds, so a full queue (64 over 2 slots) drains
 * in about a second (docs/identity.md #16).
 */
const ARGON2_RETRY_AFTER_SECONDS = 1;

export type IdentityEnv = ReturnType<typeof loadIdentityEnv>;

export function loadIdentityEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('identity'),
      settings: settingsSchema,
    },
    source,
  );
  return {
    runtime,
    databaseUrl: settings.DATABASE_URL,
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    secretHashKey: settings.SECRET_HASH_KEY,
    keyEncryptionKey: settings.KEY_ENCRYPTION_KEY,
    issuer: settings.JWT_ISSUER,
    defaultRealmAllowedScopes: settings.DEFAULT_REALM_ALLOWED_SCOPES,
    argon2: {
      memoryCost: settings.ARGON2_MEMORY_KIB,
      timeCost: settings.ARGON2_ITERATIONS,
      parallelism: settings.ARGON2_PARALLELISM,
    },
    passwordHashing: {
      concurrency: settings.ARGON2_CONCURRENCY,
      queue: settings.ARGON2_QUEUE,
      retryAfterSeconds: ARGON2_RETRY_AFTER_SECONDS,
    },
    verificationTokenTtlSeconds: settings.VERIFICATION_TOKEN_TTL,
    passwordResetTokenTtlSeconds: settings.PASSWORD_RESET_TOKEN_TTL,
    sessionTtlSeconds: settings.SESSION_TTL,
    sessionSeenIntervalSeconds: settings.SESSION_SEEN_INTERVAL,
    resendVerification: {
      minIntervalSeconds: settings.RESEND_VERIFICATION_MIN_INTERVAL,
      maxPerWindow: settings.RESEND_VERIFICATION_MAX_PER_WINDOW,
      windowSeconds: settings.RESEND_VERIFICATION_WINDOW,
    },
    outboxPollIntervalMs: settings.OUTBOX_POLL_INTERVAL_MS,
    upstreamIdpsFile: settings.UPSTREAM_IDPS_FILE,
    allowInsecureLoopback: settings.CIMD_ALLOW_INSECURE_LOOPBACK,
  };
}
