import { createPrismaAdapter } from '@authz/shared/database';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import {
  createServiceApp,
  databaseDependency,
  redisDependency,
  type ServiceApp,
} from '@authz/shared/service';
import type { IdentityEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface IdentityDeps {
  env: IdentityEnv;
  logger: Logger;
}

/** Builds the identity service: accounts, credentials, realms, sessions, email verification, developers, audit log. */
export async function buildIdentityApp({ env, logger }: IdentityDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'identity', failFast: true });
  return createServiceApp('identity', logger, {
    database: databaseDependency(prisma),
    cache: redisDependency(redis),
  });
}

export { loadIdentityEnv, type IdentityEnv } from './config/env.js';
