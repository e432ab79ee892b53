import { randomBytes } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import { databaseUrl, withAdminClient } from './connection.js';
import { ensureTemplateDatabase } from './template-database.js';

export const TEST_DATABASE_PREFIX = 'authz_test_';

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** An empty database instead of a clone of the migrated template. */
  empty?: boolean;
}

/**
 * A database of its own for one test file (docs/conventions.md #11), cloned from the migrated
 * template. Clones share nothing, so test files run in parallel.
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  // The creation time in the name lets sweepTestDatabases() find leftovers of killed runs.
  const seconds = Math.floor(Date.now() / 1000).toString(36);
  const name = `${TEST_DATABASE_PREFIX}${seconds}_${randomBytes(5).toString('hex')}`;
  if (options.empty) await cloneDatabase('template0', name);
  else await cloneTemplate(name);
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}

async function cloneDatabase(template: string, name: string): Promise<void> {
  await withAdminClient((admin) =>
    admin.query(`CREATE DATABASE ${escapeIdentifier(name)} TEMPLATE ${escapeIdentifier(template)}`),
  );
}

/** CREATE DATABASE ... TEMPLATE copies files without connecting to the template: safe in parallel. */
async function cloneTemplate(name: string): Promise<void> {
  try {
    await cloneDatabase(await ensureTemplateDatabase(), name);
  } catch (error) {
    // 3D000: a run with newer migrations replaced our template; follow it.
    if ((error as { code?: unknown }).code !== '3D000') throw error;
    await cloneDatabase(await ensureTemplateDatabase({ refresh: true }), name);
  }
}

async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((admin) =>
    admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`),
  );
}

/** Drops test databases created more than `olderThanMs` ago (runs that never reached cleanup). */
export async function sweepTestDatabases(olderThanMs = 60 * 60 * 1000): Promise<string[]> {
  const { rows } = await withAdminClient((admin) =>
    admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [
      TEST_DATABASE_PREFIX,
    ]),
  );
  const cutoff = (Date.now() - olderThanMs) / 1000;
  const stale = rows
    .map((row) => row.datname)
    .filter((name) => parseInt(name.slice(TEST_DATABASE_PREFIX.length).split('_')[0] ?? '', 36) < cutoff);
  for (const name of stale) await dropDatabase(name);
  return stale;
}
