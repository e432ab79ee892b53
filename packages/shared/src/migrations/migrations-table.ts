import { escapeIdentifier } from 'pg';
import type { ClientBase } from 'pg';

/** A row of `_prisma_migrations`, as far as deciding what is pending needs. */
export interface MigrationRow {
  readonly migration_name: string;
  readonly finished_at: Date | null;
  readonly rolled_back_at: Date | null;
}

export function migrationsTable(schema: string): string {
  return `${escapeIdentifier(schema)}."_prisma_migrations"`;
}

/** Prisma's own table, column for column, so its CLI and this runner read each other's rows. */
export async function ensureMigrationsTable(client: ClientBase, schema: string): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${escapeIdentifier(schema)}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${migrationsTable(schema)} (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
}

export async function readMigrationRows(client: ClientBase, schema: string): Promise<MigrationRow[]> {
  const { rows } = await client.query<MigrationRow>(
    `SELECT migration_name, finished_at, rolled_back_at FROM ${migrationsTable(schema)} ORDER BY started_at`,
  );
  return rows;
}
