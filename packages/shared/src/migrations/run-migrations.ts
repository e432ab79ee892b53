import { randomUUID } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';
import type { ClientBase } from 'pg';
import { readMigrationFiles } from './migration-files.js';
import type { MigrationFile } from './migration-files.js';
import { ensureMigrationsTable, migrationsTable, readMigrationRows } from './migrations-table.js';
import type { MigrationRow } from './migrations-table.js';

/** The part of a pino logger the runner uses. */
export interface MigrationLogger {
  info(obj: object, msg?: string): void;
}

export interface RunMigrationsOptions {
  connectionString: string;
  /** The service's Postgres schema; `_prisma_migrations` lives there too (docs/prisma.md). */
  schema: string;
  /** `prisma/migrations` of the service. */
  migrationsDir: string;
  logger?: MigrationLogger;
}

/** The key `prisma migrate deploy` locks, so the CLI and this runner never migrate at once. */
export const PRISMA_ADVISORY_LOCK_KEY = 72707369;

/**
 * Applies the pending migrations as `prisma migrate deploy` does, except that each migration and
 * its `_prisma_migrations` row commit together: a failed migration leaves nothing behind.
 */
export async function runMigrations(options: RunMigrationsOptions): Promise<{ applied: string[] }> {
  const { connectionString, schema, migrationsDir, logger } = options;
  const files = await readMigrationFiles(migrationsDir);
  const client = new Client({ connectionString });
  // A dropped connection also rejects the query in flight; without a listener it would crash.
  client.on('error', () => undefined);
  await client.connect();
  try {
    // Session-level lock held for the whole run; ending the connection releases it.
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
    await ensureMigrationsTable(client, schema);
    // Unqualified names in hand-written SQL land in the service's schema, as with `?schema=`.
    await client.query(`SET search_path TO ${escapeIdentifier(schema)}`);
    const pending = pendingMigrations(files, await readMigrationRows(client, schema), schema);
    for (const migration of pending) {
      await applyMigration(client, schema, migration);
      logger?.info({ schema, migration: migration.name }, 'migration applied');
    }
    if (pending.length === 0) logger?.info({ schema }, 'no pending migrations');
    return { applied: pending.map((migration) => migration.name) };
  } finally {
    await client.end();
  }
}

/** Pending: no row that was not rolled back. A row neither finished nor rolled back blocks. */
function pendingMigrations(files: MigrationFile[], rows: MigrationRow[], schema: string): MigrationFile[] {
  const unfinished = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (unfinished.length > 0) {
    const names = unfinished.map((row) => row.migration_name).join(', ');
    throw new Error(
      `Migration ${names} in schema "${schema}" started but never finished, so no further migration is applied. ` +
        'Repair the database, then mark it with `prisma migrate resolve --applied|--rolled-back <name>`.',
    );
  }
  const applied = new Set(rows.filter((row) => row.rolled_back_at === null).map((row) => row.migration_name));
  return files.filter((file) => !applied.has(file.name));
}

async function applyMigration(client: ClientBase, schema: string, migration: MigrationFile): Promise<void> {
  const table = migrationsTable(schema);
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO ${table} (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, clock_timestamp())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE ${table} SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${migration.name} failed in schema "${schema}": ${reason}`, { cause: error });
  }
}
