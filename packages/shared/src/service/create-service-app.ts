import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { GrpcServer } from '../grpc/server.js';
import { healthServiceImplementation, warmUp, type DependencyCheck } from '../health/index.js';
import { createMetricsRegistry, metricsServiceImplementation } from '../metrics/index.js';
import { whenReady } from '../redis/index.js';
import type { ServiceApp } from './service-app.js';

/** Something a service owns: probed by its health check, warmed up at start, closed at stop. */
export interface Dependency {
  check: DependencyCheck;
  /** Resolves once the first connection is up (defaults to `check`). */
  ready?: DependencyCheck;
  close(): Promise<unknown>;
}

/** The part of a generated PrismaClient a dependency needs. */
interface SqlClient {
  $queryRawUnsafe(query: string): Promise<unknown>;
  $disconnect(): Promise<void>;
}

export function databaseDependency(prisma: SqlClient): Dependency {
  return { check: () => prisma.$queryRawUnsafe('SELECT 1'), close: () => prisma.$disconnect() };
}

export function redisDependency(redis: Redis): Dependency {
  return {
    check: () => redis.ping(),
    ready: () => whenReady(redis),
    close: () => redis.quit().catch(() => redis.disconnect()),
  };
}

/**
 * The common start of every gRPC service: its dependencies warmed up, a metrics registry,
 * and a server already hosting HealthService and MetricsService. The service then adds its
 * own gRPC services to `server`.
 */
export async function createServiceApp(
  serviceName: string,
  logger: Logger,
  dependencies: Record<string, Dependency>,
): Promise<ServiceApp> {
  await Promise.all(
    Object.entries(dependencies).map(([name, dependency]) =>
      warmUp(name, dependency.ready ?? dependency.check, logger),
    ),
  );
  const checks = Object.fromEntries(Object.entries(dependencies).map(([name, { check }]) => [name, check]));
  const metrics = createMetricsRegistry(serviceName);
  const server = new GrpcServer({ serviceName, logger })
    .addService(HealthService, healthServiceImplementation(checks))
    .addService(MetricsService, metricsServiceImplementation(metrics));
  return {
    server,
    metrics,
    close: async () => {
      await Promise.allSettled(Object.values(dependencies).map((dependency) => dependency.close()));
    },
  };
}
