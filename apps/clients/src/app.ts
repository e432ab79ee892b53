import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation, warmUp } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import type { ServiceApp } from '@authz/shared/service';
import type { ClientsEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface ClientsDeps {
  env: ClientsEnv;
  logger: Logger;
}

/** Builds the clients service: OAuth clients, secrets, API keys, dynamic registration, CIMD, client authentication. */
export async function buildClientsApp({ env, logger }: ClientsDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'clients', failFast: true });
  await Promise.all([
    warmUp('database', () => prisma.$queryRaw`SELECT 1`, logger),
    warmUp('cache', () => whenReady(redis), logger),
  ]);
  const metrics = createMetricsRegistry('clients');
  const server = new GrpcServer({ serviceName: 'clients', logger })
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

export { loadClientsEnv, type ClientsEnv } from './config/env.js';
