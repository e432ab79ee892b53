import {
  envDatabaseUrl,
  envHexKey32,
  envIssuer,
  envPositiveInt,
  envRedisUrl,
  loadEnvParts,
  serviceRuntimeSchema,
  serviceUrlsSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The oauth service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  KEY_ENCRYPTION_KEY: envHexKey32(),
  SECRET_HASH_KEY: envHexKey32(),
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  /** Access-token lifetime in seconds (spec 2.5: expires_in 900). */
  ACCESS_TOKEN_TTL: envPositiveInt(900),
  /** Refresh-token lifetime in seconds, renewed on each rotation (30 days). */
  REFRESH_TOKEN_TTL: envPositiveInt(2_592_000),
  /** Prefix of every Redis key this service writes (deny-list). */
  REDIS_KEY_PREFIX: z.string().default(''),
});

export type OAuthEnv = ReturnType<typeof loadOAuthEnv>;

export function loadOAuthEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings, services } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('oauth'),
      settings: settingsSchema,
      services: serviceUrlsSchema(['identity', 'clients'] as const),
    },
    source,
  );
  return {
    runtime,
    databaseUrl: settings.DATABASE_URL,
    redisUrl: settings.REDIS_URL,
    keyEncryptionKey: settings.KEY_ENCRYPTION_KEY,
    secretHashKey: settings.SECRET_HASH_KEY,
    issuer: settings.JWT_ISSUER,
    accessTokenTtlSeconds: settings.ACCESS_TOKEN_TTL,
    refreshTokenTtlSeconds: settings.REFRESH_TOKEN_TTL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    services,
  };
}
