import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

// Prisma 7's CLI fetches a native schema engine for every command; generate never runs it,
// so point it at a stand-in that exits non-zero unless a real engine is configured
// (docs/prisma.md). Migrations are applied by the runner in @authz/shared.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(
  new URL('../../packages/shared/prisma/no-schema-engine.sh', import.meta.url),
);

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://127.0.0.1:5432/postgres' },
});
