import {
  DEFAULT_REALM_ALLOWED_SCOPES,
  envBoolean,
  envDatabaseUrl,
  envHexKey32,
  envIssuer,
  envRedisUrl,
  envScopeList,
  loadEnvParts,
  serviceRuntimeSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The clients service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  /** Prefix of Redis keys and of the invalidation channel (docs/clients.md). */
  REDIS_KEY_PREFIX: z.string().default(''),
  SECRET_HASH_KEY: envHexKey32(),
  /** docs/decisions.md #1: one realm; its allowed-scopes policy, same default as identity. */
  DEFAULT_REALM_ALLOWED_SCOPES: envScopeList(DEFAULT_REALM_ALLOWED_SCOPES),
  /** interface.md 5: the cap on the scopes of dynamically registered clients (docs/clients.md #9). */
  DEFAULT_DYNAMIC_REGISTRATION_SCOPES: envScopeList('openid profile email'),
  /** draft-ietf-oauth-rfc7523bis: a client assertion's aud must be the issuer, as a string. */
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  /** Client ID metadata documents: https URLs as client_id (docs/clients.md "CIMD"). */
  CIMD_ENABLED: envBoolean(false),
  /** Test-only: loopback http document and jwks_uri URLs, fetched from loopback addresses. */
  CIMD_ALLOW_INSECURE_LOOPBACK: envBoolean(false),
  /** ID-JAG (docs/enterprise-assertions.md): dynamic registration offers the jwt-bearer grant. */
  ENTERPRISE_ASSERTION_ENABLED: envBoolean(false),
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
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    secretHashKey: settings.SECRET_HASH_KEY,
    realmAllowedScopes: settings.DEFAULT_REALM_ALLOWED_SCOPES,
    dynamicRegistrationScopes: settings.DEFAULT_DYNAMIC_REGISTRATION_SCOPES,
    issuer: settings.JWT_ISSUER,
    cimdEnabled: settings.CIMD_ENABLED,
    allowInsecureLoopback: settings.CIMD_ALLOW_INSECURE_LOOPBACK,
    enterpriseAssertionEnabled: settings.ENTERPRISE_ASSERTION_ENABLED,
  };
}
