import {
  envDatabaseUrl,
  envHexKey32,
  envIssuer,
  envRedisUrl,
  loadEnvParts,
  serviceRuntimeSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The identity service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  SECRET_HASH_KEY: envHexKey32(),
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
});

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
    secretHashKey: settings.SECRET_HASH_KEY,
    issuer: settings.JWT_ISSUER,
  };
}
