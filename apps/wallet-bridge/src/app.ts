import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation, warmUp } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import type { ServiceApp } from '@authz/shared/service';
import type { WalletBridgeEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface WalletBridgeDeps {
  env: WalletBridgeEnv;
  logger: Logger;
}

/** Builds the wallet-bridge service: OID4VP presentation requests, request objects, wallet sign-in and linking state. */
export async function buildWalletBridgeApp({ env, logger }: WalletBridgeDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'wallet-bridge', failFast: true });
  await Promise.all([
    warmUp('database', () => prisma.$queryRaw`SELECT 1`, logger),
    warmUp('cache', () => whenReady(redis), logger),
  ]);
  const metrics = createMetricsRegistry('wallet-bridge');
  const server = new GrpcServer({ serviceName: 'wallet-bridge', logger })
    .addService(
      HealthService,
      healthServiceImplementation({ database: () => prisma.$queryRaw`SELECT 1`, cache: () => redis.ping() }),
    )
    .addService(MetricsService, metricsServiceImplementation(metrics));
  return {
    server,
    metrics,
    close: async () => {
      await Promise.allSettled([prisma.$disconnect(), redis.quit()]);
    },
  };
}

export { loadWalletBridgeEnv, type WalletBridgeEnv } from './config/env.js';
