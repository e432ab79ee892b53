import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation, warmUp } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import type { ServiceApp } from '@authz/shared/service';
import type { IdentityEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface IdentityDeps {
  env: IdentityEnv;
  logger: Logger;
}

/** Builds the identity service: accounts, credentials, realms, sessions, email verification, developers, audit log. */
export async function buildIdentityApp({ env, logger }: IdentityDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'identity', failFast: true });
  await Promise.all([
    warmUp('database', () => prisma.$queryRaw`SELECT 1`, logger),
    warmUp('cache', () => whenReady(redis), logger),
  ]);
  const metrics = createMetricsRegistry('identity');
  const server = new GrpcServer({ serviceName: 'identity', logger })
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

export { loadIdentityEnv, type IdentityEnv } from './config/env.js';
