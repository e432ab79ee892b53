import {
  envDatabaseUrl,
  envHexKey32,
  envRedisUrl,
  loadEnvParts,
  serviceRuntimeSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The clients service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  SECRET_HASH_KEY: envHexKey32(),
});

export type ClientsEnv = ReturnType<typeof loadClientsEnv>;

export function loadClientsEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('clients'),
      settings: settingsSchema,
    },
    source,
  );
  return {
    runtime,
    databaseUrl: settings.DATABASE_URL,
    redisUrl: settings.REDIS_URL,
    secretHashKey: settings.SECRET_HASH_KEY,
  };
}
