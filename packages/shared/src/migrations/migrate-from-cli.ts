import { runMigrations } from './run-migrations.js';
import type { MigrationLogger } from './run-migrations.js';

export interface MigrateFromCliOptions {
  schema: string;
  migrationsDir: string;
  logger: MigrationLogger & { error(obj: object, msg?: string): void };
  /** Defaults to process.env; DATABASE_URL is the only variable read. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The body of each data app's `src/migrate.ts` (run before the service starts, e.g. by the
 * Kubernetes migration Job). Resolves to the process exit code instead of exiting, so pino
 * flushes and tests can call it.
 */
export async function migrateFromCli(options: MigrateFromCliOptions): Promise<number> {
  const { schema, migrationsDir, logger, env = process.env } = options;
  const connectionString = env.DATABASE_URL;
  if (!connectionString) {
    logger.error(
      { schema },
      'DATABASE_URL is not set: it must hold the Postgres connection string to migrate',
    );
    return 1;
  }
  try {
    const { applied } = await runMigrations({ connectionString, schema, migrationsDir, logger });
    logger.info({ schema, applied }, `${applied.length} migration(s) applied`);
    return 0;
  } catch (error) {
    logger.error({ schema, err: error }, 'migrations failed');
    return 1;
  }
}
