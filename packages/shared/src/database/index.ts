import type { Logger } from 'pino';
import { PostgresAdapter } from './postgres-adapter.js';

export { PostgresAdapter, type PoolStatistics } from './postgres-adapter.js';
export { registerPoolMetrics } from './pool-metrics.js';

/**
 * The driver adapter every data-owning service gives its generated PrismaClient (docs/prisma.md:
 * rust-free client, models schema-qualified, so no `schema` option). Short connect timeouts
 * keep health probes and requests from hanging while the database is unreachable. Pass it to
 * databaseDependency() too, so the service's metrics show its pool.
 */
export function createPrismaAdapter(connectionString: string, logger: Logger): PostgresAdapter {
  return new PostgresAdapter(
    { connectionString, max: 10, connectionTimeoutMillis: 2000, idleTimeoutMillis: 30_000 },
    { onPoolError: (error) => logger.warn({ err: error }, 'database connection lost') },
  );
}
