import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One `prisma/migrations/<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
  /** The folder name, recorded as `migration_name`. */
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

/** SHA-256 of the file's bytes in lowercase hex: the `checksum` Prisma records. */
export function migrationChecksum(contents: string | Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex');
}

/** Every migration folder in name order, which is the order Prisma applies them in. */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(migrationsDir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    }),
  );
}
