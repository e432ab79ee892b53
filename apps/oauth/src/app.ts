import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation, warmUp } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import type { ServiceApp } from '@authz/shared/service';
import type { OAuthEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface OAuthDeps {
  env: OAuthEnv;
  logger: Logger;
}

/** Builds the oauth service: authorize, token, introspection, revocation, UserInfo, discovery, JWKS, signing keys. */
export async function buildOAuthApp({ env, logger }: OAuthDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'oauth', failFast: true });
  await Promise.all([
    warmUp('database', () => prisma.$queryRaw`SELECT 1`, logger),
    warmUp('cache', () => whenReady(redis), logger),
  ]);
  const metrics = createMetricsRegistry('oauth');
  const server = new GrpcServer({ serviceName: 'oauth', logger })
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

export { loadOAuthEnv, type OAuthEnv } from './config/env.js';
