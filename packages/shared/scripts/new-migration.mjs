// `pnpm migration:new <name>`, run from a data app's folder: writes
// prisma/migrations/<UTC timestamp>_<name>/migration.sql with the SQL that takes the database from
// the existing migrations to prisma/schema.prisma, as `prisma migrate dev --create-only` would,
// without Prisma's native engine (docs/prisma.md). Needs the local Postgres (DATABASE_URL).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCKFILE, LOCKFILE_CONTENT, diffMigrationsToSchema } from './migrations-diff.mjs';

function fail(message) {
  console.error(message);
  process.exit(1);
}

const appDir = process.cwd();
// Prisma's own folder names are snake_case; keep the name safe for every file system.
const name = (process.argv[2] ?? '')
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, '_')
  .replace(/^_+|_+$/g, '');
if (!name) fail('usage: pnpm migration:new <name>   (for example: add_user_email)');
if (!existsSync(join(appDir, 'prisma', 'schema.prisma'))) {
  fail(`no prisma/schema.prisma in ${appDir}: run this from a data app's folder`);
}

const { empty, sql } = await diffMigrationsToSchema(appDir).catch((error) => fail(error.message));
if (empty) {
  console.log('prisma/schema.prisma already matches prisma/migrations: no migration written.');
  process.exit(0);
}

const timestamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const folder = join('prisma', 'migrations', `${timestamp}_${name}`);
await mkdir(join(appDir, folder), { recursive: true });
await writeFile(join(appDir, folder, 'migration.sql'), sql, { flag: 'wx' });
const lockfile = join(appDir, 'prisma', 'migrations', LOCKFILE);
if (!existsSync(lockfile)) await writeFile(lockfile, LOCKFILE_CONTENT);
console.log(`Wrote ${join(folder, 'migration.sql')}. Review it, then commit the folder.`);
