import { randomBytes } from 'node:crypto';
import { buildClientsApp, loadClientsEnv } from '@authz/clients';
import { buildConsentUiApp, loadConsentUiEnv } from '@authz/consent-ui';
import { buildIdentityApp, loadIdentityEnv } from '@authz/identity';
import { buildOAuthApp, loadOAuthEnv } from '@authz/oauth';
import { buildWalletBridgeApp, loadWalletBridgeEnv } from '@authz/wallet-bridge';
import { createLogger } from '@authz/shared/logger';
import { startService, type RunningService, type ServiceApp } from '@authz/shared/service';
import { buildGatewayApp, loadGatewayEnv, type GatewayApp } from '../app.js';

export interface SuiteOptions {
  /** Database the data-owning services use (a per-file clone, or a proxy in front of one). */
  databaseUrl: string;
  redisUrl: string;
  /** Per-file Redis key prefix, so test files never share counters. */
  redisKeyPrefix: string;
  /** Extra gateway settings, e.g. a tiny DEFAULT_RATE_LIMIT. */
  gatewayEnv?: Record<string, string>;
  /** Adds probe routes before the gateway starts listening (error-handling tests). */
  beforeListen?: (gateway: GatewayApp) => void;
}

export interface Suite {
  baseUrl: string;
  gateway: GatewayApp;
  close(): Promise<void>;
}

/**
 * The whole suite in this process on spare ports, still over real gRPC, Postgres and Redis
 * (CONVENTIONS.md #11): every gRPC service, then the gateway listening on HTTP.
 */
export async function startSuite(options: SuiteOptions): Promise<Suite> {
  const logger = createLogger({ service: 'test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const serviceEnv = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    JWT_ISSUER: 'http://localhost:3000',
  };
  const running: RunningService[] = [];
  const start = async (app: Promise<ServiceApp>) => {
    const service = await startService(await app, '127.0.0.1', 0);
    running.push(service);
    return `127.0.0.1:${service.grpcPort}`;
  };
  const urls = {
    IDENTITY_GRPC_URL: await start(buildIdentityApp({ env: loadIdentityEnv(serviceEnv), logger })),
    OAUTH_GRPC_URL: await start(buildOAuthApp({ env: loadOAuthEnv(serviceEnv), logger })),
    CLIENTS_GRPC_URL: await start(buildClientsApp({ env: loadClientsEnv(serviceEnv), logger })),
    CONSENT_UI_GRPC_URL: await start(buildConsentUiApp({ env: loadConsentUiEnv(serviceEnv), logger })),
    WALLET_BRIDGE_GRPC_URL: await start(
      buildWalletBridgeApp({ env: loadWalletBridgeEnv(serviceEnv), logger }),
    ),
  };
  const env = loadGatewayEnv({
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.redisKeyPrefix,
    ...urls,
    ...options.gatewayEnv,
  });
  const gateway = await buildGatewayApp({ env, logger });
  options.beforeListen?.(gateway);
  const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: address,
    gateway,
    close: async () => {
      await gateway.close();
      await Promise.all(running.map((service) => service.close()));
    },
  };
}
