import { PrismaPg } from '@prisma/adapter-pg';
import type { Logger } from 'pino';

/**
 * The driver adapter every data-owning service gives its generated PrismaClient (PRISMA.md:
 * rust-free client, models schema-qualified, so no `schema` option). Short connect timeouts
 * keep health probes and requests from hanging while the database is unreachable.
 */
export function createPrismaAdapter(connectionString: string, logger: Logger): PrismaPg {
  return new PrismaPg(
    { connectionString, max: 10, connectionTimeoutMillis: 2000, idleTimeoutMillis: 30_000 },
    { onPoolError: (error) => logger.warn({ err: error }, 'database connection lost') },
  );
}
