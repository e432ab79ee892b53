import {
  envDatabaseUrl,
  envHexKey32,
  envRedisUrl,
  loadEnvParts,
  serviceRuntimeSchema,
  serviceUrlsSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The wallet-bridge service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  KEY_ENCRYPTION_KEY: envHexKey32(),
});

export type WalletBridgeEnv = ReturnType<typeof loadWalletBridgeEnv>;

export function loadWalletBridgeEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings, services } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('wallet-bridge'),
      settings: settingsSchema,
      services: serviceUrlsSchema(['identity'] as const),
    },
    source,
  );
  return {
    runtime,
    databaseUrl: settings.DATABASE_URL,
    redisUrl: settings.REDIS_URL,
    keyEncryptionKey: settings.KEY_ENCRYPTION_KEY,
    services,
  };
}
