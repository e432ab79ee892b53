import { randomBytes } from 'node:crypto';
import { buildClientsApp, loadClientsEnv } from '@authz/clients';
import { buildConsentUiApp, loadConsentUiEnv } from '@authz/consent-ui';
import { buildIdentityApp, loadIdentityEnv } from '@authz/identity';
import { buildMailerWorkerApp, loadMailerWorkerEnv } from '@authz/mailer-worker';
import { buildOAuthApp, loadOAuthEnv } from '@authz/oauth';
import { buildWalletBridgeApp, loadWalletBridgeEnv } from '@authz/wallet-bridge';
import { startService, type RunningService, type ServiceApp } from '@authz/shared/service';
import type { Logger } from '@authz/shared/logger';
import type { Registry } from 'prom-client';
import { isAddressInUse, spareTestPort, testLogger } from '@authz/shared/testing';
import { buildGatewayApp, loadGatewayEnv, type GatewayApp } from '@authz/gateway';

export interface SuiteOptions {
  /** Database the data-owning services use (a per-file clone, or a proxy in front of one). */
  databaseUrl: string;
  redisUrl: string;
  /** Per-file Redis key prefix, so test files never share counters or queues. */
  redisKeyPrefix: string;
  /** Where the mailer-worker sends mail; without it no worker runs. */
  smtpUrl?: string;
  /** Extra gateway settings, e.g. a tiny DEFAULT_RATE_LIMIT. */
  gatewayEnv?: Record<string, string>;
  /** Extra settings for every service. */
  serviceEnv?: Record<string, string>;
  /** Adds probe routes before the gateway starts listening (error-handling tests). */
  beforeListen?: (gateway: GatewayApp) => void;
  /** Where every service and the gateway log; silent by default (log-leak tests read it). */
  logger?: Logger;
  /**
   * Further oauth replicas (`127.0.0.1:port`) the gateway balances over beside the suite's own
   * (docs/decisions.md #26); the caller starts them with `oauthEnv`, before or after the suite.
   */
  extraOAuthAddresses?: string[];
  /**
   * The gateway's port, chosen by the caller when another suite's settings must name this
   * one's issuer before it starts (two servers trusting each other); no retry on another port.
   */
  port?: number;
}

export interface Suite {
  /** The gateway's address, which is also the issuer (JWT_ISSUER). */
  baseUrl: string;
  gateway: GatewayApp;
  /** The oauth service's settings: a replica started with them shares its database, Redis and keys. */
  oauthEnv: Record<string, string>;
  /** What the oauth service exposes on its metrics port. */
  oauthMetrics: Registry;
  /** Closes the mailer-worker alone (fault tests); close() then skips it. */
  stopMailer(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole suite in this process on spare ports, still over real gRPC, Postgres, Redis and
 * SMTP (docs/conventions.md #11): every gRPC service, then the gateway listening on HTTP.
 *
 * The gateway's port is the issuer every service is configured with, so it is chosen before
 * the services start and bound last; should a parallel test take it meanwhile, the suite
 * starts again on another port.
 */
export async function startSuite(options: SuiteOptions): Promise<Suite> {
  if (options.port !== undefined) return startSuiteOn(options.port, options);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startSuiteOn(await spareTestPort(), options);
    } catch (error) {
      if (!isAddressInUse(error) || attempt === 5) throw error;
    }
  }
}

async function startSuiteOn(port: number, options: SuiteOptions): Promise<Suite> {
  const logger = options.logger ?? testLogger();
  const issuer = `http://127.0.0.1:${port}`;
  const serviceEnv = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.redisKeyPrefix,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    JWT_ISSUER: issuer,
    SMTP_URL: options.smtpUrl ?? 'smtp://127.0.0.1:25',
    // The same argon2id code path, at a test-friendly cost (docs/decisions.md #4).
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_ITERATIONS: '1',
    ARGON2_PARALLELISM: '1',
    ...options.serviceEnv,
  };
  const running: RunningService[] = [];
  const start = async (app: ServiceApp | Promise<ServiceApp>) => {
    const service = await startService(await app, '127.0.0.1', 0);
    running.push(service);
    return service;
  };
  const url = (service: RunningService) => `127.0.0.1:${service.grpcPort}`;
  const identity = await start(buildIdentityApp({ env: loadIdentityEnv(serviceEnv), logger }));
  const clients = await start(buildClientsApp({ env: loadClientsEnv(serviceEnv), logger }));
  const calls = { IDENTITY_GRPC_URL: url(identity), CLIENTS_GRPC_URL: url(clients) };
  const oauthEnv = { ...serviceEnv, ...calls };
  const oauthApp = await buildOAuthApp({ env: loadOAuthEnv(oauthEnv), logger });
  const oauth = await start(oauthApp);
  const wallet = await start(
    buildWalletBridgeApp({ env: loadWalletBridgeEnv({ ...serviceEnv, ...calls }), logger }),
  );
  const consent = await start(
    buildConsentUiApp({
      env: loadConsentUiEnv({
        ...serviceEnv,
        ...calls,
        OAUTH_GRPC_URL: url(oauth),
        WALLET_BRIDGE_GRPC_URL: url(wallet),
      }),
      logger,
    }),
  );
  const mailer = options.smtpUrl
    ? await startService(
        await buildMailerWorkerApp({ env: loadMailerWorkerEnv(serviceEnv), logger }),
        '127.0.0.1',
        0,
      )
    : undefined;
  let mailerOpen = mailer !== undefined;
  const stopMailer = async () => {
    if (mailerOpen) await mailer?.close();
    mailerOpen = false;
  };

  const env = loadGatewayEnv({
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.redisKeyPrefix,
    JWT_ISSUER: issuer,
    ...calls,
    OAUTH_GRPC_URL: oauthTarget(url(oauth), options.extraOAuthAddresses),
    CONSENT_UI_GRPC_URL: url(consent),
    WALLET_BRIDGE_GRPC_URL: url(wallet),
    ...options.gatewayEnv,
  });
  const gateway = await buildGatewayApp({ env, logger });
  const close = async () => {
    await gateway.close();
    await stopMailer();
    await Promise.all(running.map((service) => service.close()));
  };
  options.beforeListen?.(gateway);
  try {
    await gateway.app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl: issuer, gateway, oauthEnv, oauthMetrics: oauthApp.metrics, stopMailer, close };
}

/** grpc-js's `ipv4:` target names several addresses; the channel's round_robin spreads over them. */
function oauthTarget(own: string, extra: string[] = []): string {
  return extra.length === 0 ? own : `ipv4:${[own, ...extra].join(',')}`;
}
