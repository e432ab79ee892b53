import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
// Not the database index: services without a database never load the Postgres driver.
import { registerPoolMetrics } from '../database/pool-metrics.js';
import type { PostgresAdapter } from '../database/postgres-adapter.js';
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
  /** Adds what the service's metrics should show of it (read at each scrape). */
  registerMetrics?(registry: Registry): void;
}

/** The part of a generated PrismaClient a dependency needs. */
interface SqlClient {
  $queryRawUnsafe(query: string): Promise<unknown>;
  $disconnect(): Promise<void>;
}

/** The service's database; with the adapter its PrismaClient runs on, its pool shows in the metrics. */
export function databaseDependency(prisma: SqlClient, adapter?: PostgresAdapter): Dependency {
  const dependency: Dependency = {
    check: () => prisma.$queryRawUnsafe('SELECT 1'),
    close: () => prisma.$disconnect(),
  };
  if (adapter) {
    dependency.registerMetrics = (registry) => registerPoolMetrics(registry, () => adapter.poolStatistics());
  }
  return dependency;
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
  for (const dependency of Object.values(dependencies)) dependency.registerMetrics?.(metrics);
  const server = new GrpcServer({ serviceName, logger, metrics })
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
