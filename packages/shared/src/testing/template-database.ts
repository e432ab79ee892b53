import { createHash } from 'node:crypto';
import { escapeIdentifier } from 'pg';
import type { Client } from 'pg';
import { readMigrationFiles } from '../migrations/migration-files.js';
import { runMigrations } from '../migrations/run-migrations.js';
import { databaseUrl, withAdminClient } from './connection.js';
import { findDataApps } from './workspace.js';
import type { DataApp } from './workspace.js';

export const TEMPLATE_DATABASE_PREFIX = 'authz_template_';

/** Named after every migration's checksum, so changing a migration yields a new template. */
async function templateName(apps: DataApp[]): Promise<string> {
  const hash = createHash('sha256');
  for (const { app, schema, migrationsDir } of apps) {
    hash.update(`${app}\0${schema}\0`);
    for (const file of await readMigrationFiles(migrationsDir))
      hash.update(`${file.name}\0${file.checksum}\0`);
  }
  return TEMPLATE_DATABASE_PREFIX + hash.digest('hex').slice(0, 16);
}

async function databaseExists(admin: Client, name: string): Promise<boolean> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rowCount === 1;
}

/**
 * Migrates under a temporary name and renames at the end: a template that exists is complete,
 * even if a previous build died half way.
 */
async function buildTemplate(admin: Client, name: string, apps: DataApp[]): Promise<void> {
  const building = escapeIdentifier(`${name}_building`);
  await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${building} TEMPLATE template0`);
  for (const { schema, migrationsDir } of apps) {
    await runMigrations({ connectionString: databaseUrl(`${name}_building`), schema, migrationsDir });
  }
  await admin.query(`ALTER DATABASE ${building} RENAME TO ${escapeIdentifier(name)}`);
  await dropOtherTemplates(admin, name);
}

/**
 * One template per set of migrations would pile up, so a new one replaces the others. A run
 * still cloning an old one finds it gone and follows (createTestDatabase); a template being
 * built elsewhere is left alone.
 */
async function dropOtherTemplates(admin: Client, current: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database
      WHERE starts_with(datname, $1) AND datname <> $2 AND datname NOT LIKE '%\\_building'`,
    [TEMPLATE_DATABASE_PREFIX, current],
  );
  for (const { datname } of rows) {
    await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(datname)}`).catch(() => undefined);
  }
}

let ensured: Promise<string> | undefined;

/**
 * The name of a database holding every data app's migrations, built once per set of migrations.
 * Vitest processes of several packages start at once: an advisory lock lets one build it while
 * the others wait, then find it. `refresh` reads the migrations again instead of reusing the
 * name found first in this process.
 */
export function ensureTemplateDatabase(options: { refresh?: boolean } = {}): Promise<string> {
  if (options.refresh) ensured = undefined;
  ensured ??= (async () => {
    const apps = await findDataApps();
    const name = await templateName(apps);
    await withAdminClient(async (admin) => {
      if (await databaseExists(admin, name)) return;
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      if (!(await databaseExists(admin, name))) await buildTemplate(admin, name, apps);
    });
    return name;
  })().catch((error: unknown) => {
    ensured = undefined; // let the next caller retry instead of failing forever
    throw error;
  });
  return ensured;
}
