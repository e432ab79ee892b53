// Applies this service's Prisma migrations, then exits: `node apps/wallet-bridge/dist/migrate.js`
// with DATABASE_URL set (the Kubernetes migration Job, docker-compose, local start).
import { fileURLToPath } from 'node:url';
import { createLogger } from '@authz/shared/logger';
import { migrateFromCli } from '@authz/shared/migrations';

// src/ and dist/ both sit one level below the app, so this finds the folder from either.
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

process.exitCode = await migrateFromCli({
  schema: 'wallet',
  migrationsDir,
  logger: createLogger({ service: 'wallet-bridge-migrate', level: process.env.LOG_LEVEL ?? 'info' }),
});
