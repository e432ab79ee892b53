// Applies Prisma's migrations folders without Prisma's native engine (docs/prisma.md).
export { migrateFromCli } from './migrate-from-cli.js';
export type { MigrateFromCliOptions } from './migrate-from-cli.js';
export { migrationChecksum, readMigrationFiles } from './migration-files.js';
export type { MigrationFile } from './migration-files.js';
export { PRISMA_ADVISORY_LOCK_KEY, runMigrations } from './run-migrations.js';
export type { MigrationLogger, RunMigrationsOptions } from './run-migrations.js';
