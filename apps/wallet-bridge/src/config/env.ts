import {
  envBoolean,
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

/** A file path; empty (as compose and the Kubernetes ConfigMap spell "none") is unset. */
const optionalFile = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined));

/** The wallet-bridge service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  KEY_ENCRYPTION_KEY: envHexKey32(),
  /** Keys the hash of the browser-binder cookie value. */
  SECRET_HASH_KEY: envHexKey32(),
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  WALLET_FEDERATION_ENABLED: envBoolean(false),
  WALLET_VERIFIER_KEY_FILE: optionalFile(),
  WALLET_VERIFIER_CERT_CHAIN_FILE: optionalFile(),
  WALLET_TRUSTED_ISSUERS_FILE: optionalFile(),
  /** Lifetime of a presentation request in seconds (docs/wallet.md: 5 minutes). */
  WALLET_REQUEST_TTL: envPositiveInt(300).refine((value) => value <= 600, 'at most 600 seconds'),
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
    secretHashKey: settings.SECRET_HASH_KEY,
    issuer: settings.JWT_ISSUER,
    wallet: {
      enabled: settings.WALLET_FEDERATION_ENABLED,
      verifierKeyFile: settings.WALLET_VERIFIER_KEY_FILE,
      verifierCertChainFile: settings.WALLET_VERIFIER_CERT_CHAIN_FILE,
      trustedIssuersFile: settings.WALLET_TRUSTED_ISSUERS_FILE,
      requestTtlSeconds: settings.WALLET_REQUEST_TTL,
    },
    services,
  };
}
