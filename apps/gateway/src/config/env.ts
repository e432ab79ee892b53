import {
  envBoolean,
  envIssuer,
  envLogLevel,
  envPort,
  envPositiveInt,
  envRedisUrl,
  loadEnvParts,
  serviceUrlsSchema,
} from '@authz/shared/env';
import { z } from 'zod';
import { parseTrustProxy } from './trust-proxy.js';

/** The gateway's environment, validated once at start-up (docs/contract.md "Environment"). */
const settingsSchema = z.object({
  PORT: envPort().default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  JWT_ISSUER: envIssuer().optional(),
  REDIS_URL: envRedisUrl(),
  /** Namespaces the gateway's Redis keys, e.g. when several deployments share one Redis. */
  REDIS_KEY_PREFIX: z.string().default(''),
  TRUST_PROXY: z.string().default('false').transform(parseTrustProxy),
  LOG_LEVEL: envLogLevel(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** Largest accepted request body, in bytes. */
  BODY_LIMIT: envPositiveInt(100 * 1024),
  /**
   * Budget of every route without its own setting, per address (docs/security.md #11):
   * the developer API, the pages. 100 requests a second.
   */
  DEFAULT_RATE_LIMIT: envPositiveInt(6000),
  DEFAULT_RATE_WINDOW: envPositiveInt(60),
  /** Requests matching no route, per address: cheap to refuse, so tighter. */
  NOT_FOUND_RATE_LIMIT: envPositiveInt(300),
  NOT_FOUND_RATE_WINDOW: envPositiveInt(60),
  /** Failed client authentication (invalid_client) at token, introspection and revocation, per address. */
  CLIENT_AUTH_FAILURE_RATE_LIMIT: envPositiveInt(20),
  CLIENT_AUTH_FAILURE_RATE_WINDOW: envPositiveInt(300),
  /** invalid_token answers of UserInfo, per address (docs/security.md #11). */
  INVALID_TOKEN_RATE_LIMIT: envPositiveInt(6000),
  INVALID_TOKEN_RATE_WINDOW: envPositiveInt(60),
  RATE_LIMIT_ENABLED: envBoolean(true),
  /** POST /auth/login: attempts per window, per IP and per account (interface.md 8). */
  LOGIN_RATE_LIMIT: envPositiveInt(10),
  LOGIN_RATE_WINDOW: envPositiveInt(300),
  /** How long an address an account signed in from is spared the account's budget (docs/security.md #5). */
  LOGIN_KNOWN_ADDRESS_TTL: envPositiveInt(30 * 86_400),
  /** POST /auth/register: registrations per window per IP (interface.md 8). */
  REGISTER_RATE_LIMIT: envPositiveInt(10),
  REGISTER_RATE_WINDOW: envPositiveInt(3600),
  /** POST /api/clients/ and regenerate-secret (later /oauth/register): one shared per-IP budget (interface.md 8). */
  REGISTER_CLIENT_RATE_LIMIT: envPositiveInt(20),
  REGISTER_CLIENT_RATE_WINDOW: envPositiveInt(60),
  /**
   * Wallet flows started per window per IP, one budget for POST /auth/link/wallet and the
   * hosted POST /ui/wallet-login and /ui/wallet-link: each start stores a presentation request.
   */
  WALLET_FLOW_RATE_LIMIT: envPositiveInt(10),
  /** DELETE /auth/account and the account page's deletion: password attempts per IP and per account. */
  ACCOUNT_DELETION_RATE_LIMIT: envPositiveInt(10),
  // docs/admin-api.md #12: requests per admin per window, over every admin route.
  ADMIN_RATE_LIMIT: envPositiveInt(300),
  ADMIN_RATE_WINDOW: envPositiveInt(60),
  ACCOUNT_DELETION_RATE_WINDOW: envPositiveInt(300),
  WALLET_FLOW_RATE_WINDOW: envPositiveInt(300),
  /** POST /ui/device: user codes entered per window per address (docs/device-grant.md #4). */
  DEVICE_CODE_ENTRY_RATE_LIMIT: envPositiveInt(10),
  DEVICE_CODE_ENTRY_RATE_WINDOW: envPositiveInt(300),
  /**
   * Slow-request protection (docs/security.md #6), in milliseconds: a whole request must arrive
   * within HTTP_REQUEST_TIMEOUT_MS and its headers within HTTP_HEADERS_TIMEOUT_MS; an idle
   * keep-alive connection closes after HTTP_KEEP_ALIVE_TIMEOUT_MS, any silent socket after
   * HTTP_CONNECTION_TIMEOUT_MS.
   */
  HTTP_REQUEST_TIMEOUT_MS: envPositiveInt(30_000),
  HTTP_HEADERS_TIMEOUT_MS: envPositiveInt(10_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: envPositiveInt(72_000),
  HTTP_CONNECTION_TIMEOUT_MS: envPositiveInt(120_000),
  /** Wallet routes exist only when on (interface.md 1 item 7, docs/decisions.md #25); wallet-bridge checks it too. */
  WALLET_FEDERATION_ENABLED: envBoolean(false),
});

/** Node refuses a headers timeout longer than the request timeout. */
const settingsWithTimeouts = settingsSchema.superRefine((settings, context) => {
  if (settings.HTTP_HEADERS_TIMEOUT_MS > settings.HTTP_REQUEST_TIMEOUT_MS) {
    context.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
    });
  }
});

export type GatewayEnv = ReturnType<typeof loadGatewayEnv>;

export function loadGatewayEnv(source: NodeJS.ProcessEnv = process.env) {
  const { settings, services } = loadEnvParts(
    {
      settings: settingsWithTimeouts,
      services: serviceUrlsSchema(['identity', 'oauth', 'clients', 'consent-ui', 'wallet-bridge'] as const),
    },
    source,
  );
  return {
    port: settings.PORT,
    host: settings.HOST,
    // docs/contract.md: the issuer defaults to http://localhost:$PORT.
    issuer: settings.JWT_ISSUER ?? `http://localhost:${settings.PORT}`,
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    trustProxy: settings.TRUST_PROXY,
    logLevel: settings.LOG_LEVEL,
    otlpEndpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT,
    bodyLimit: settings.BODY_LIMIT,
    http: {
      requestTimeoutMs: settings.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: settings.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionTimeoutMs: settings.HTTP_CONNECTION_TIMEOUT_MS,
    },
    rateLimit: {
      enabled: settings.RATE_LIMIT_ENABLED,
      defaultBudget: { points: settings.DEFAULT_RATE_LIMIT, durationSeconds: settings.DEFAULT_RATE_WINDOW },
      notFound: { points: settings.NOT_FOUND_RATE_LIMIT, durationSeconds: settings.NOT_FOUND_RATE_WINDOW },
      clientAuthFailure: {
        points: settings.CLIENT_AUTH_FAILURE_RATE_LIMIT,
        durationSeconds: settings.CLIENT_AUTH_FAILURE_RATE_WINDOW,
      },
      invalidToken: {
        points: settings.INVALID_TOKEN_RATE_LIMIT,
        durationSeconds: settings.INVALID_TOKEN_RATE_WINDOW,
      },
      login: {
        points: settings.LOGIN_RATE_LIMIT,
        durationSeconds: settings.LOGIN_RATE_WINDOW,
        knownAddressTtlSeconds: settings.LOGIN_KNOWN_ADDRESS_TTL,
      },
      register: { points: settings.REGISTER_RATE_LIMIT, durationSeconds: settings.REGISTER_RATE_WINDOW },
      registerClient: {
        points: settings.REGISTER_CLIENT_RATE_LIMIT,
        durationSeconds: settings.REGISTER_CLIENT_RATE_WINDOW,
      },
      walletFlow: {
        points: settings.WALLET_FLOW_RATE_LIMIT,
        durationSeconds: settings.WALLET_FLOW_RATE_WINDOW,
      },
      admin: { points: settings.ADMIN_RATE_LIMIT, durationSeconds: settings.ADMIN_RATE_WINDOW },
      accountDeletion: {
        points: settings.ACCOUNT_DELETION_RATE_LIMIT,
        durationSeconds: settings.ACCOUNT_DELETION_RATE_WINDOW,
      },
      deviceCodeEntry: {
        points: settings.DEVICE_CODE_ENTRY_RATE_LIMIT,
        durationSeconds: settings.DEVICE_CODE_ENTRY_RATE_WINDOW,
      },
    },
    walletFederationEnabled: settings.WALLET_FEDERATION_ENABLED,
    services,
  };
}
