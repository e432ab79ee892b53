// SQL that takes a database from "schema as of prisma/migrations" to prisma/schema.prisma, like
// `prisma migrate diff --from-migrations --to-schema`. The engine replays the migrations into a
// throwaway database (as its shadow database) and diffs what it introspects there against the
// datamodel: about 1 s per app, against 0.3 s for a schema-to-schema diff that would need the
// previous schema.prisma, which the repository does not keep.
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { loadSchemaEngine, pgAdapterFactory } from './schema-engine.mjs';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const LOCKFILE = 'migration_lock.toml';
// Prisma keeps this file beside the migrations. The engine refuses a migrations list without it
// and checks only the provider line, so the diff always passes this content.
export const LOCKFILE_CONTENT =
  '# Written by `pnpm migration:new`, as `prisma migrate dev` would.\nprovider = "postgresql"\n';

async function readMigrationsList(migrationsDir) {
  const entries = existsSync(migrationsDir) ? await readdir(migrationsDir, { withFileTypes: true }) : [];
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  const lockfile = { path: LOCKFILE, content: LOCKFILE_CONTENT };
  return { baseDir: migrationsDir, lockfile, shadowDbInitScript: '', migrationDirectories };
}

async function withThrowawayDatabase(baseUrl, work) {
  const name = `prisma_shadow_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * Diffs `<appDir>/prisma/migrations` against `<appDir>/prisma/schema.prisma`.
 * @returns {Promise<{ empty: boolean, sql: string }>}
 */
export async function diffMigrationsToSchema(
  appDir,
  baseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
) {
  const schemaPath = join(appDir, 'prisma', 'schema.prisma');
  const schemaFile = { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
  const migrations = await readMigrationsList(join(appDir, 'prisma', 'migrations'));
  const SchemaEngine = await loadSchemaEngine();
  return withThrowawayDatabase(baseUrl, async (url) => {
    const { adapter, close } = pgAdapterFactory(url);
    const engine = await SchemaEngine.new(
      { datamodels: [[schemaFile.path, schemaFile.content]] },
      () => {},
      adapter,
    );
    try {
      const { exitCode, stdout } = await engine.diff({
        from: { tag: 'migrations', ...migrations },
        to: { tag: 'schemaDatamodel', files: [schemaFile] },
        script: true,
        exitCode: true, // 2 when the diff is not empty
        filters: { externalTables: [], externalEnums: [] },
      });
      return { empty: exitCode === 0, sql: stdout ?? '' };
    } finally {
      engine.free();
      await close();
    }
  });
}
