import {
  DEFAULT_REALM_ALLOWED_SCOPES,
  envBoolean,
  envDatabaseUrl,
  envHexKey32,
  envIssuer,
  envPositiveInt,
  envRedisUrl,
  envUrl,
  envScopeList,
  EnvironmentError,
  loadEnvParts,
  serviceRuntimeSchema,
  serviceUrlsSchema,
} from '@authz/shared/env';
import { z } from 'zod';
import {
  readTrustedIssuersFile,
  TrustedIssuersFileError,
  type TrustedIssuer,
} from '../enterprise/trusted-issuers-file.js';

/** The oauth service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  DATABASE_URL: envDatabaseUrl(),
  REDIS_URL: envRedisUrl(),
  KEY_ENCRYPTION_KEY: envHexKey32(),
  SECRET_HASH_KEY: envHexKey32(),
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  /** Access-token lifetime in seconds (interface.md 2.5: expires_in 900). */
  ACCESS_TOKEN_TTL: envPositiveInt(900),
  /** Refresh-token lifetime in seconds, renewed on each rotation (30 days). */
  REFRESH_TOKEN_TTL: envPositiveInt(2_592_000),
  /** Authorization-code lifetime in seconds (RFC 6749 4.1.2: short, 10 minutes at most). */
  AUTHORIZATION_CODE_TTL: envPositiveInt(60),
  /** RFC 8628 (docs/device-grant.md #1): expires_in of device and user codes, and the polling interval. */
  DEVICE_CODE_TTL: envPositiveInt(600),
  DEVICE_POLLING_INTERVAL: envPositiveInt(5),
  /** docs/device-grant.md #4: entries of one user code before it is refused. */
  DEVICE_USER_CODE_ATTEMPTS: envPositiveInt(5),
  /** docs/device-grant.md #5: device authorizations per client per window. */
  DEVICE_AUTHORIZATION_CLIENT_RATE_LIMIT: envPositiveInt(30),
  DEVICE_AUTHORIZATION_CLIENT_RATE_WINDOW: envPositiveInt(60),
  /**
   * Prefix of every Redis key this service writes (deny-list), and of the clients service's
   * invalidation channel it listens to: give both services the same value.
   */
  REDIS_KEY_PREFIX: z.string().default(''),
  /**
   * How often the coalesced client and API-key lastUsedAt are reported to the clients service,
   * in milliseconds (docs/tokens.md #18). Also reported on shutdown.
   */
  CLIENT_USAGE_FLUSH_INTERVAL_MS: envPositiveInt(5000),
  ACCOUNT_DELETION_SWEEP_INTERVAL_MS: envPositiveInt(60_000),
  ACCOUNT_DELETION_GRACE_MS: envPositiveInt(60_000),
  /**
   * Requests per window of one authenticated confidential client at the token, introspection
   * and revocation endpoints (docs/security.md #11): 10,000 a second by default, above what
   * one client drives through a gateway host, so only a runaway client meets it.
   */
  CLIENT_RATE_LIMIT: envPositiveInt(600_000),
  CLIENT_RATE_WINDOW: envPositiveInt(60),
  /** false turns the per-client budget off, as it turns the gateway's off (tests only). */
  RATE_LIMIT_ENABLED: envBoolean(true),
  /** docs/decisions.md #1: the realm's allowed scopes, advertised as scopes_supported. */
  DEFAULT_REALM_ALLOWED_SCOPES: envScopeList(DEFAULT_REALM_ALLOWED_SCOPES),
  /** interface.md 4.4: client_id_metadata_document_supported appears only when the clients service resolves CIMD. */
  CIMD_ENABLED: envBoolean(false),
  /**
   * How often every replica re-reads the signing keys; a rotated-in key signs only this long
   * after the rotation, once every replica publishes it (docs/tokens.md #7, #8).
   */
  SIGNING_KEY_RELOAD_INTERVAL_MS: envPositiveInt(60_000),
  /** ID-JAG: issue by token exchange, accept by the jwt-bearer grant (docs/enterprise-assertions.md). */
  ENTERPRISE_ASSERTION_ENABLED: envBoolean(false),
  /** JSON list of `{ issuer, jwks_uri or jwks }` whose ID-JAGs the jwt-bearer grant accepts. */
  ENTERPRISE_TRUSTED_ISSUERS_FILE: z.string().optional(),
  /**
   * Issuer identifiers of the target authorization servers an ID-JAG may be addressed to,
   * space-separated; none by default, so issuing needs the operator's list
   * (docs/enterprise-assertions.md #2).
   */
  ENTERPRISE_ID_JAG_AUDIENCES: z
    .string()
    .default('')
    .transform((value) => value.split(/\s+/).filter(Boolean))
    .pipe(z.array(envUrl(['http', 'https']))),
  /**
   * RFC 9126 section 5: every authorization request must be pushed to /oauth/par first
   * (docs/par-and-dpop.md #4); a client can require it for itself.
   */
  REQUIRE_PAR: envBoolean(false),
  /**
   * Test-only: trusted issuers' loopback http jwks_uri and clients' loopback http back-channel
   * logout URIs, reached on loopback addresses.
   */
  CIMD_ALLOW_INSECURE_LOOPBACK: envBoolean(false),
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
    authorizationCodeTtlSeconds: settings.AUTHORIZATION_CODE_TTL,
    deviceAuthorization: {
      codeTtlSeconds: settings.DEVICE_CODE_TTL,
      intervalSeconds: settings.DEVICE_POLLING_INTERVAL,
      userCodeAttempts: settings.DEVICE_USER_CODE_ATTEMPTS,
      // Off with the other per-client budgets (RATE_LIMIT_ENABLED=false).
      clientRequests: settings.RATE_LIMIT_ENABLED ? settings.DEVICE_AUTHORIZATION_CLIENT_RATE_LIMIT : 0,
      clientWindowSeconds: settings.DEVICE_AUTHORIZATION_CLIENT_RATE_WINDOW,
    },
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    clientUsageFlushIntervalMs: settings.CLIENT_USAGE_FLUSH_INTERVAL_MS,
    // docs/identity.md #19: how often a deletion left halfway is looked for, and how old it must be.
    accountDeletion: {
      intervalMs: settings.ACCOUNT_DELETION_SWEEP_INTERVAL_MS,
      graceMs: settings.ACCOUNT_DELETION_GRACE_MS,
    },
    clientRateLimit: {
      enabled: settings.RATE_LIMIT_ENABLED,
      points: settings.CLIENT_RATE_LIMIT,
      durationSeconds: settings.CLIENT_RATE_WINDOW,
    },
    realmAllowedScopes: settings.DEFAULT_REALM_ALLOWED_SCOPES,
    cimdEnabled: settings.CIMD_ENABLED,
    requirePushedAuthorizationRequests: settings.REQUIRE_PAR,
    /** Test-only: back-channel logout URIs on loopback http, reached on loopback addresses. */
    allowInsecureLoopback: settings.CIMD_ALLOW_INSECURE_LOOPBACK,
    signingKeyReloadIntervalMs: settings.SIGNING_KEY_RELOAD_INTERVAL_MS,
    enterprise: {
      enabled: settings.ENTERPRISE_ASSERTION_ENABLED,
      trustedIssuers: trustedIssuers(
        settings.ENTERPRISE_TRUSTED_ISSUERS_FILE,
        settings.CIMD_ALLOW_INSECURE_LOOPBACK,
      ),
      allowInsecureLoopback: settings.CIMD_ALLOW_INSECURE_LOOPBACK,
      idJagAudiences: settings.ENTERPRISE_ID_JAG_AUDIENCES,
    },
    services,
  };
}

// Read at start-up, so a bad file stops the service with a message naming the variable.
function trustedIssuers(path: string | undefined, allowInsecureLoopback: boolean): TrustedIssuer[] {
  if (path === undefined) return [];
  try {
    return readTrustedIssuersFile(path, allowInsecureLoopback);
  } catch (error) {
    if (!(error instanceof TrustedIssuersFileError)) throw error;
    throw new EnvironmentError(
      error.problems.map((problem) => `ENTERPRISE_TRUSTED_ISSUERS_FILE: ${problem}`),
    );
  }
}
